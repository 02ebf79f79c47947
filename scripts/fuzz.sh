#!/usr/bin/env bash
# Fuzzes the module loader for a bounded time: configures and builds the "fuzz" preset
# (clang-22, ASan+UBSan, libFuzzer), writes the seed corpus of valid modules into
# build-fuzz/corpus, and runs tests/fuzz/module_loader_fuzzer on it.
#   scripts/fuzz.sh [seconds]    default 60
# Exits non-zero when the fuzzer finds a crash, sanitizer error, leak, timeout (10 s per
# input) or out-of-memory (2 GiB); the reproducer is written to build-fuzz/artifacts/.
# Reproduce one with: build-fuzz/bin/module_loader_fuzzer build-fuzz/artifacts/crash-...
# Inputs that found new coverage are kept in build-fuzz/corpus for the next run.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
  echo "usage: scripts/fuzz.sh [seconds]   (a positive whole number, default 60)" >&2
  exit 2
fi

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target module_loader_fuzzer make_seed_corpus

build=build-fuzz
mkdir -p "$build/artifacts"
"$build/bin/make_seed_corpus" "$build/corpus"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1 halt_on_error=1}"
status=0
"$build/bin/module_loader_fuzzer" "$build/corpus" \
  -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="$build/artifacts/" -print_final_stats=1 || status=$?
if [ "$status" -ne 0 ]; then
  echo "fuzz.sh: the module loader fuzzer found a problem (exit $status); reproducer in $build/artifacts/:" >&2
  ls -t "$build/artifacts" | head -5 >&2
  exit "$status"
fi
echo "fuzz.sh: no findings in ${seconds} s"
