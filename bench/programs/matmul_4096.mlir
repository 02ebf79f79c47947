// C = A x B, f32, 4096^3 (kiln-bench-compiled BM_Matmul4096): the large square matmul of
// issue 17, whose operands (64 MiB each) do not fit any cache.
func.func @matmul(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
