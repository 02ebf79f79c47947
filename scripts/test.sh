#!/usr/bin/env bash
# Everything that must pass, on a fresh machine: install dependencies, build with warnings
# as errors, run every test (ctest), then every test again under ASan+UBSan and TSan, then
# the module-loader fuzzer for a bounded time (KILN_FUZZ_SECONDS, default 60).
#   scripts/test.sh            all of it
#   scripts/test.sh --quick    skip the sanitizer builds and the fuzzer
set -Eeuo pipefail  # -E: the ERR trap also fires inside stage()
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1

# Each stage is a build plus its tests; the last line says how many passed.
passed=0
trap 'echo "stages: $passed passed, 1 failed"' ERR

bash scripts/install-deps.sh
# CI builds in a fresh clone each time, at a path of its own: let ccache reuse objects
# compiled in another checkout (paths under this one are hashed relative to it, and the
# working directory is not hashed; debug info may then name the other checkout's paths).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
stage() {
  local preset=$1
  echo "== $preset =="
  cmake --preset "$preset"
  cmake --build --preset "$preset"
  ctest --preset "$preset"
  passed=$((passed + 1))
}

stage ci
if [ "$quick" = 0 ]; then
  stage asan
  stage tsan
  echo "== fuzz =="
  bash scripts/fuzz.sh "${KILN_FUZZ_SECONDS:-60}"
  passed=$((passed + 1))
fi
echo "stages: $passed passed, 0 failed"
