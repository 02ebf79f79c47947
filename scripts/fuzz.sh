#!/usr/bin/env bash
# Fuzzes the module loader, then each parameter file parser (irpa, safetensors, gguf), for a
# bounded time: configures and builds the "fuzz" preset (clang-22, ASan+UBSan, libFuzzer),
# writes the seed corpora of valid modules into build-fuzz/corpus and of valid parameter
# files into build-fuzz/parameter-corpus/FORMAT, and runs tests/fuzz/module_loader_fuzzer
# and tests/fuzz/FORMAT_fuzzer on them.
#   scripts/fuzz.sh [seconds] [parameter-seconds]    defaults 60 and 20 (each parser)
# Exits non-zero when the fuzzer finds a crash, sanitizer error, leak, timeout (10 s per
# input) or out-of-memory (2 GiB); the reproducer is written to build-fuzz/artifacts/.
# Reproduce one with: build-fuzz/bin/module_loader_fuzzer build-fuzz/artifacts/crash-...
# (or build-fuzz/bin/FORMAT_fuzzer build-fuzz/artifacts/FORMAT-crash-...).
# Inputs that found new coverage are kept in build-fuzz/corpus and parameter-corpus/ for the
# next run.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
parameter_seconds="${2:-20}"
for value in "$seconds" "$parameter_seconds"; do
  if ! [[ "$value" =~ ^[0-9]+$ ]] || [ "$value" -eq 0 ]; then
    echo "usage: scripts/fuzz.sh [seconds] [parameter-seconds]   (positive whole numbers, defaults 60 and 20)" >&2
    exit 2
  fi
done
parameter_formats="irpa safetensors gguf"

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target module_loader_fuzzer make_seed_corpus make_parameter_seeds \
  $(for format in $parameter_formats; do echo "${format}_fuzzer"; done)

build=build-fuzz
mkdir -p "$build/artifacts"
"$build/bin/make_seed_corpus" "$build/corpus"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1 halt_on_error=1}"
# fuzz NAME CORPUS SECONDS ARTIFACT_PREFIX: runs build-fuzz/bin/NAME on CORPUS; a finding
# stops the script with the fuzzer's exit code.
fuzz() {
  local status=0
  "$build/bin/$1" "$2" -max_total_time="$3" -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$build/artifacts/$4" -print_final_stats=1 || status=$?
  if [ "$status" -ne 0 ]; then
    echo "fuzz.sh: $1 found a problem (exit $status); reproducer in $build/artifacts/:" >&2
    ls -t "$build/artifacts" | head -5 >&2
    exit "$status"
  fi
}
fuzz module_loader_fuzzer "$build/corpus" "$seconds" ""
"$build/bin/make_parameter_seeds" "$build/parameter-corpus"
for format in $parameter_formats; do
  fuzz "${format}_fuzzer" "$build/parameter-corpus/$format" "$parameter_seconds" "${format}-"
done
echo "fuzz.sh: no findings in ${seconds} s (module loader) and ${parameter_seconds} s each ($parameter_formats)"
