#!/usr/bin/env bash
# Everything that must pass, on a fresh machine: install dependencies, build with warnings
# as errors, run every test (ctest), then the HAL suites again under ASan+UBSan and TSan.
#   scripts/test.sh            all of it
#   scripts/test.sh --quick    skip the sanitizer builds
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
fi
