// The int4 linear layer of int4_linear.mlir with W [40, 64] of i4 and its scales bound to
// parameters: the file holds W packed (two per byte, the first in the low bits), as a
// safetensors U8 [40, 32] tensor and as an .irpa made from it; the module unpacks it once
// when the session is created (kiln-expand-sub-byte-bitcasts: @w__packed and an
// initializer), on cpu, cpu-sync and hip-sim. Results exact.
// RUN: rm -rf %t && %python %S/Inputs/int4_linear_operands.py %t
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../io'); import numpy as np; from parameter_writers import write_safetensors; write_safetensors('%t/w.safetensors', {'w': np.fromfile('%t/w.bin', np.uint8).reshape(40, 32), 'scale': np.load('%t/scale.npy')})"
// RUN: kiln-convert-parameters %t/w.safetensors -o %t/w.irpa
// RUN: kiln-compile %s -o %t/cpu.kiln
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --parameters=model=%t/w.safetensors --input=@%t/x.npy --expected_output=@%t/y.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --parameters=model=%t/w.irpa --parameter_mode=preload --input=@%t/x.npy --expected_output=@%t/y.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --parameters=model=%t/w.irpa --input=@%t/x.npy --expected_output=@%t/y.npy --atol=0 --rtol=0
// A file whose entry is not the packed size says so.
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../io'); import numpy as np; from parameter_writers import write_safetensors; write_safetensors('%t/wide.safetensors', {'w': np.zeros((40, 64), np.uint8), 'scale': np.load('%t/scale.npy')})"
// RUN: not kiln-run --module=%t/cpu.kiln --parameters=model=%t/wide.safetensors --input=@%t/x.npy 2>&1 | FileCheck %s
// CHECK: it is 40x64xi8; the program's global is 40x32xi8; for parameter 'model'::'w'

util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<40x64xi4>
util.global private @scale = #stream.parameter.named<"model"::"scale"> : tensor<40xf32>

util.func public @linear_i4(%x: tensor<3x64xf32>) -> tensor<3x40xf32> {
  %w = util.global.load @w : tensor<40x64xi4>
  %scale = util.global.load @scale : tensor<40xf32>
  %e = tensor.empty() : tensor<40x64xf32>
  %weights = linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (n)>, affine_map<(n, k) -> (n, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %scale : tensor<40x64xi4>, tensor<40xf32>) outs(%e : tensor<40x64xf32>) {
  ^bb0(%q: i4, %s: f32, %o: f32):
    %i = arith.extsi %q : i4 to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.mulf %f, %s : f32
    linalg.yield %v : f32
  } -> tensor<40x64xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<3x40xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<3x40xf32>) -> tensor<3x40xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %weights : tensor<3x64xf32>, tensor<40x64xf32>) outs(%fy : tensor<3x40xf32>) -> tensor<3x40xf32>
  util.return %y : tensor<3x40xf32>
}
