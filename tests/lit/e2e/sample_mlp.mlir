// The sample model of scripts/demo.sh (samples/models/mlp.mlir) against NumPy's answer,
// on both CPU drivers and two batch sizes.
// RUN: kiln-compile %S/../../../samples/models/mlp.mlir -o %t.kiln
// RUN: kiln-run --module=%t.kiln --device=cpu --function=predict --input=2x4xf32=1,0,0,0,0,0,0,1 --expected_output=2x3xf32=0.40490133,0.21945415,0.37564453,0.24597138,0.1140304,0.6399982
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=predict --input=1x4xf32=0,0,0,1 --expected_output=1x3xf32=0.24597138,0.1140304,0.6399982
// The same on the AMD GPU path: compiled for gfx942, run on hip-sim (the host twin).
// RUN: kiln-compile --target=gfx942 %S/../../../samples/models/mlp.mlir -o %t.gpu.kiln
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=predict --input=2x4xf32=1,0,0,0,0,0,0,1 --expected_output=2x3xf32=0.40490133,0.21945415,0.37564453,0.24597138,0.1140304,0.6399982
