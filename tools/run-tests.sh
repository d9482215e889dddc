#!/bin/bash
# run-tests.sh: install what is missing, build DynoTable, run every test suite twice (plain,
# then under AddressSanitizer + UndefinedBehaviorSanitizer) and summarise.
#
#   tools/run-tests.sh [MESON-TEST-ARGS…]     e.g. tools/run-tests.sh --suite unit
#
# The sanitizer pass sets G_SLICE=always-malloc so that LeakSanitizer sees leaked GObjects
# (GLib 2.74 still has its slice allocator), and suppresses only leaks inside system libraries
# (tests/fixtures/lsan.supp).
#
# Environment:
#   DYNO_SKIP_ASAN=1          run only the plain pass
#   DYNO_SKIP_FUZZ=1          leave out the fuzzing pass (each libFuzzer target for
#   DYNO_FUZZ_SECONDS         this long, default 60, two at a time; only on a whole run)
#   DYNO_ASAN_SKIP_SUITES     suites left out of the sanitizer pass (default: "codegen gui
#                             flatpak"; the codegen suite runs generated code in the AWS CLI,
#                             boto3 and the JS SDK, whose cost does not change under
#                             sanitizers; the flatpak suite builds its own release build)
#
# Works as root with no display and no D-Bus session: tests that need a keyring, a display or a
# server start their own (tests/fixtures/).  Exits non-zero if anything failed.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

asan_skip_suites=${DYNO_ASAN_SKIP_SUITES-codegen gui flatpak}
test_args=("$@")

# Tests must not reach the caller's desktop session, whatever machine runs them.
unset DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS GNOME_KEYRING_CONTROL SSH_AUTH_SOCK

timings=()
now () { date +%s.%N; }
phase_start=
begin () { phase_start=$(now); printf '\n==== %s ====\n' "$1"; }
end () { timings+=("$(awk -v a="$(now)" -v b="$phase_start" -v n="$1" \
                        'BEGIN { printf "%-34s %7.1f s", n, a - b }')"); }

begin "dependencies (tools/setup-deps.sh)"
"$root/tools/setup-deps.sh"
end "dependencies"

gui=false
if [[ "$(dpkg-query -W -f='${db:Status-Abbrev}' libgtk-4-dev 2>/dev/null || true)" == ii* ]]; then
  gui=true
fi

# Configure DIR with OPTIONS, reusing it when it is already a meson build directory.
setup () {
  local dir=$1; shift
  if [[ -f "$dir/meson-private/coredata.dat" ]]; then
    meson setup --reconfigure "$dir" "$@" ||
      { echo "run-tests: reconfiguring $dir failed; starting it afresh" >&2
        meson setup --wipe "$dir" "$@"; }
  else
    rm -rf "$dir"
    meson setup "$dir" "$@"
  fi
}

# Totals over the passes, from meson's machine-readable log.
declare -A total=([OK]=0 [EXPECTEDFAIL]=0 [FAIL]=0 [UNEXPECTEDPASS]=0 [SKIP]=0 [TIMEOUT]=0 [ERROR]=0)
pass_lines=()
failing_lines=()
count_results () {
  local dir=$1 label=$2 log="$1/meson-logs/testlog.json" result
  local -A c=([OK]=0 [EXPECTEDFAIL]=0 [FAIL]=0 [UNEXPECTEDPASS]=0 [SKIP]=0 [TIMEOUT]=0 [ERROR]=0)
  if [[ -f "$log" ]]; then
    while IFS= read -r result; do
      [[ -n "$result" ]] || continue
      c[$result]=$(( ${c[$result]:-0} + 1 ))
      total[$result]=$(( ${total[$result]:-0} + 1 ))
    done < <(/usr/bin/python3 -c '
import json, sys
for line in open(sys.argv[1]):
    line = line.strip()
    if line:
        print(json.loads(line).get("result", "ERROR"))' "$log")
  fi
  pass_lines+=("$(printf '%-22s ok %d, fail %d, skipped %d, timeout %d, error %d' "$label" \
                 $((c[OK] + c[EXPECTEDFAIL])) $((c[FAIL] + c[UNEXPECTEDPASS])) "${c[SKIP]}" \
                 "${c[TIMEOUT]}" "${c[ERROR]}")")
  # Which tests did not pass, and their failing TAP lines: repeated in the summary, so that
  # the end of the output alone says what failed.
  if [[ -f "$log" ]]; then
    while IFS= read -r line; do
      if [[ $line == " "* ]]; then failing_lines+=("$line"); else failing_lines+=("$label $line"); fi
    done < <(/usr/bin/python3 -c '
import json, sys
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    t = json.loads(line)
    result = t.get("result", "ERROR")
    if result in ("OK", "EXPECTEDFAIL", "SKIP"):
        continue
    print("%s: %s" % (t.get("name"), result))
    out = (t.get("stdout") or "").splitlines()
    bad = [l for l in out if l.startswith(("not ok", "Bail out"))][:8]
    for l in bad or out[-4:]:
        print("    " + l[:200])' "$log")
  fi
}

status=0

# ---- pass 1: the normal build ------------------------------------------------------------
begin "configure + build _build (gui=$gui)"
setup _build -Dgui="$gui"
meson compile -C _build
end "build _build"

begin "tests in _build"
rm -f _build/meson-logs/testlog.json
pass1=0
tests/fixtures/with-ddb-local.sh \
  meson test -C _build --num-processes 2 --print-errorlogs "${test_args[@]}" || pass1=$?
end "tests in _build"
count_results _build "pass 1 (plain):"
((pass1 == 0)) || status=1

# ---- pass 2: ASan + UBSan ------------------------------------------------------------------
if [[ "${DYNO_SKIP_ASAN:-}" != 1 ]]; then
  begin "configure + build _build-asan (address,undefined)"
  setup _build-asan -Dgui="$gui" -Db_sanitize=address,undefined -Db_lundef=false
  meson compile -C _build-asan
  end "build _build-asan"

  skip_args=()
  for s in $asan_skip_suites; do
    # meson refuses an unknown suite name: leave out only suites that exist.
    if meson test -C _build-asan --list --suite "$s" >/dev/null 2>&1; then
      skip_args+=(--no-suite "$s")
    fi
  done

  begin "tests in _build-asan${skip_args[*]:+ (${skip_args[*]})}"
  rm -f _build-asan/meson-logs/testlog.json
  pass2=0
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  LSAN_OPTIONS="suppressions=$root/tests/fixtures/lsan.supp:print_suppressions=0" \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  G_SLICE=always-malloc \
  tests/fixtures/with-ddb-local.sh \
    meson test -C _build-asan --num-processes 2 --print-errorlogs --timeout-multiplier 3 \
      "${skip_args[@]}" "${test_args[@]}" || pass2=$?
  end "tests in _build-asan"
  count_results _build-asan "pass 2 (ASan+UBSan):"
  ((pass2 == 0)) || status=1
fi

# ---- pass 3: the fuzzers, for longer than their seed corpora -------------------------------
# Each libFuzzer target (clang, ASan+UBSan) runs DYNO_FUZZ_SECONDS, two at a time; each counts
# as one test.  Only on a whole run (no meson test arguments).
if [[ "${DYNO_SKIP_FUZZ:-}" != 1 && ${#test_args[@]} -eq 0 ]]; then
  fuzz_seconds=${DYNO_FUZZ_SECONDS:-60}
  begin "fuzzing (${fuzz_seconds}s per target, tools/run-fuzz.sh)"
  fuzz_log=$(mktemp)
  pass3=0
  DYNO_FUZZ_JOBS=2 nice tools/run-fuzz.sh "$fuzz_seconds" 2>&1 | tee "$fuzz_log" || pass3=$?
  end "fuzzing"
  fuzz_ok=$(grep -c ': no crash in ' "$fuzz_log" || true)
  fuzz_failed=$(grep -c ': FAILED (exit status' "$fuzz_log" || true)
  rm -f "$fuzz_log"
  if ((pass3 != 0 && fuzz_failed == 0)); then
    fuzz_failed=1     # the build failed: never report success
  fi
  total[OK]=$((total[OK] + fuzz_ok))
  total[FAIL]=$((total[FAIL] + fuzz_failed))
  pass_lines+=("$(printf '%-22s ok %d, fail %d, skipped 0, timeout 0, error 0' \
                 "pass 3 (fuzzing):" "$fuzz_ok" "$fuzz_failed")")
  ((pass3 == 0)) || status=1
fi

# ---- summary -------------------------------------------------------------------------------
printf '\n==== summary ====\n'
printf '%s\n' "${timings[@]}"
printf '%s\n' "${pass_lines[@]}"
if ((${#failing_lines[@]})); then
  echo "not passed:"
  printf '  %s\n' "${failing_lines[@]}"
fi
passed=$((total[OK] + total[EXPECTEDFAIL]))
failed=$((total[FAIL] + total[UNEXPECTEDPASS] + total[TIMEOUT] + total[ERROR]))
if ((status != 0 && failed == 0)); then
  failed=1     # meson itself failed (e.g. a test could not start): never report success
fi
# meson's summary lines, over both passes, then the one-line total CI reads.
echo
printf 'Ok:                 %d\n' "${total[OK]}"
printf 'Expected Fail:      %d\n' "${total[EXPECTEDFAIL]}"
printf 'Fail:               %d\n' "${total[FAIL]}"
printf 'Unexpected Pass:    %d\n' "${total[UNEXPECTEDPASS]}"
printf 'Skipped:            %d\n' "${total[SKIP]}"
printf 'Timeout:            %d\n' "${total[TIMEOUT]}"
echo
echo "Tests: $passed passed, $failed failed, ${total[SKIP]} skipped"
exit "$status"
