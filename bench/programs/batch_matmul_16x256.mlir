// C[b] = A[b] x B[b], f32, 16 x 256^3 (kiln-bench-compiled).
func.func @batch_matmul(%a: tensor<16x256x256xf32>, %b: tensor<16x256x256xf32>) -> tensor<16x256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<16x256x256xf32>, tensor<16x256x256xf32>) outs(%f : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
  return %r : tensor<16x256x256xf32>
}
