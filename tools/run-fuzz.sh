#!/bin/bash
# run-fuzz.sh: build the libFuzzer targets with clang and fuzz each for SECONDS.
#
#   tools/run-fuzz.sh [SECONDS] [TARGET…]       (default 60 s each, every tests/fuzz/fuzz-*.c)
#
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

mkdir -p "$build/fuzz-artifacts"
failed=()
for t in "${targets[@]}"; do
  name=${t#fuzz-}
  work="$build/fuzz-corpus/$name"
  mkdir -p "$work"
  seeds=()
  [[ -d "tests/fuzz/corpus/$name" ]] && seeds=("tests/fuzz/corpus/$name")
  echo "==== $t for ${seconds}s ===="
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     G_SLICE=always-malloc \
     "$build/tests/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" \
       "$work" "${seeds[@]}" </dev/null; then
    echo "$t: no crash in ${seconds}s ($(find "$work" -type f | wc -l) new inputs)"
  else
    failed+=("$t")
  fi
done

if ((${#failed[@]} > 0)); then
  echo "run-fuzz: crashes in: ${failed[*]} (inputs in $build/fuzz-artifacts/)" >&2
  exit 1
fi
echo "run-fuzz: ${#targets[@]} fuzzer(s) ran ${seconds}s each without a crash"
