#!/usr/bin/env bash
# The main job on a fresh machine: install dependencies, build, compile the sample model
# (samples/models/mlp.mlir) and run it on `cpu`, then run the HAL demo on `cpu`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default
cmake --build --preset default --target kiln-compile kiln-run kiln-hal-demo
mkdir -p build/samples
build/bin/kiln-compile samples/models/mlp.mlir -o build/samples/mlp.kiln
build/bin/kiln-run --module=build/samples/mlp.kiln --device=cpu --function=predict \
  --input=2x4xf32=1,0,0,0,0,0,0,1
build/bin/kiln-hal-demo --device=cpu "$@"
