#!/usr/bin/env bash
# Everything that must pass, on a fresh machine: install dependencies, build with warnings
# as errors, run every test (ctest), then every test again under ASan+UBSan and TSan, then
# the module-loader fuzzer for a bounded time (KILN_FUZZ_SECONDS, default 60).
#   scripts/test.sh            all of it
#   scripts/test.sh --quick    skip the sanitizer builds and the fuzzer
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1

bash scripts/install-deps.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci

if [ "$quick" = 0 ]; then
  for preset in asan tsan; do
    echo "== $preset =="
    cmake --preset "$preset"
    cmake --build --preset "$preset"
    ctest --preset "$preset"
  done
  echo "== fuzz =="
  bash scripts/fuzz.sh "${KILN_FUZZ_SECONDS:-60}"
fi
