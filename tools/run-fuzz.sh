#!/bin/bash
# run-fuzz.sh: build the libFuzzer targets with clang and fuzz each for SECONDS.
#
#   tools/run-fuzz.sh [SECONDS] [TARGET…]       (default 60 s each, every tests/fuzz/fuzz-*.c)
#
# DYNO_FUZZ_JOBS=N runs N fuzzers at a time (default 1).  tools/run-tests.sh runs this after
# its two passes (DYNO_FUZZ_SECONDS each, two at a time).
# Builds in _build-fuzz with CC=clang, -Dfuzzing=true, ASan+UBSan, and coverage
# instrumentation of the libraries (-fsanitize=fuzzer-no-link).  Each fuzzer starts from its
# seed corpus tests/fuzz/corpus/<name>/ (read only) and writes what it finds to
# _build-fuzz/fuzz-corpus/<name>/; a crash input lands in _build-fuzz/fuzz-artifacts/.  Copy a
# crash input into the seed corpus once it is fixed, so the unit suite replays it for ever.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

seconds=${1:-60}
shift || true
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 [SECONDS] [TARGET…]" >&2
  exit 2
fi

command -v clang >/dev/null || { echo "run-fuzz: clang is missing (tools/setup-deps.sh)" >&2; exit 1; }

targets=("$@")
if ((${#targets[@]} == 0)); then
  for f in tests/fuzz/fuzz-*.c; do
    [[ -e "$f" ]] && targets+=("$(basename "$f" .c)")
  done
fi
if ((${#targets[@]} == 0)); then
  echo "run-fuzz: no tests/fuzz/fuzz-*.c yet" >&2
  exit 1
fi

build=_build-fuzz
if [[ ! -f "$build/meson-private/coredata.dat" ]]; then
  rm -rf "$build"
  CC=clang meson setup "$build" -Dgui=false -Dfuzzing=true \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fsanitize=fuzzer-no-link -Dc_link_args=-fsanitize=fuzzer-no-link
fi
ninja -C "$build" "${targets[@]/#/tests/fuzz/}"

mkdir -p "$build/fuzz-artifacts" "$build/fuzz-logs"

# One fuzzer: its output goes to $build/fuzz-logs/TARGET.log; the status is its verdict.
fuzz_one () {
  local t=$1 name=${1#fuzz-}
  local work="$build/fuzz-corpus/$name"
  local seeds=()
  mkdir -p "$work"
  [[ -d "tests/fuzz/corpus/$name" ]] && seeds=("tests/fuzz/corpus/$name")
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  G_SLICE=always-malloc \
    "$build/tests/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" \
      "$work" "${seeds[@]}" </dev/null >"$build/fuzz-logs/$t.log" 2>&1
}

# DYNO_FUZZ_JOBS fuzzers at a time (default 1): each is one process on one core.
jobs=${DYNO_FUZZ_JOBS:-1}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || jobs=1
failed=()
declare -A pid_of=()
report () {
  local t=$1 status=$2
  if ((status == 0)); then
    echo "$t: no crash in ${seconds}s ($(find "$build/fuzz-corpus/${t#fuzz-}" -type f | wc -l) inputs in its corpus)"
  else
    failed+=("$t")
    echo "$t: FAILED (exit status $status); the end of $build/fuzz-logs/$t.log:"
    tail -n 60 "$build/fuzz-logs/$t.log"
  fi
}
wait_one () {
  local t
  for t in "${!pid_of[@]}"; do
    if ! kill -0 "${pid_of[$t]}" 2>/dev/null; then
      local status=0
      wait "${pid_of[$t]}" || status=$?
      unset "pid_of[$t]"
      report "$t" "$status"
      return
    fi
  done
  sleep 1
}
for t in "${targets[@]}"; do
  echo "==== $t for ${seconds}s ===="
  while ((${#pid_of[@]} >= jobs)); do wait_one; done
  fuzz_one "$t" &
  pid_of[$t]=$!
done
while ((${#pid_of[@]} > 0)); do wait_one; done

if ((${#failed[@]} > 0)); then
  echo "run-fuzz: crashes in: ${failed[*]} (inputs in $build/fuzz-artifacts/)" >&2
  exit 1
fi
echo "run-fuzz: ${#targets[@]} fuzzer(s) ran ${seconds}s each without a crash"
