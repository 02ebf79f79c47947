#!/usr/bin/env bash
# The main job on a fresh machine: install dependencies, build, run the demo on `cpu`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default
cmake --build --preset default --target kiln-hal-demo
build/bin/kiln-hal-demo --device=cpu "$@"
