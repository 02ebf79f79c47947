// A weight-only int4 linear layer: y = x (W * scale)^T with W [40, 64] of i4 passed packed
// (two per byte, as raw bytes), dequantized per row in the dispatch that reads it, on
// every device; results exact (small integers and powers of two).
// RUN: rm -rf %t && %python %S/Inputs/int4_linear_operands.py %t
// RUN: kiln-compile %s -o %t/cpu.kiln
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --input=@%t/x.npy --input=40x64xi4=@%t/w.bin --input=@%t/scale.npy --expected_output=@%t/y.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --input=@%t/x.npy --input=40x64xi4=@%t/w.bin --input=@%t/scale.npy --expected_output=@%t/y.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --input=@%t/x.npy --input=40x64xi4=@%t/w.bin --input=@%t/scale.npy --expected_output=@%t/y.npy --atol=0 --rtol=0

func.func @linear_i4(%x: tensor<3x64xf32>, %w: tensor<40x64xi4>, %scale: tensor<40xf32>) -> tensor<3x40xf32> {
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
  return %y : tensor<3x40xf32>
}
