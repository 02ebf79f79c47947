// C = A x B with f16 operands and an f32 result (products and sums in f32), 1024^3
// (kiln-bench-compiled): B as [K, N] (@matmul) and as a linear layer's W[N, K]
// (@matmul_transpose_b).
func.func @matmul(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
func.func @matmul_transpose_b(%x: tensor<1024x1024xf16>, %w: tensor<1024x1024xf16>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
// The same into f16: products and sums in f16 (AVX512_FP16's vfmadd231ph) where the CPU
// has it, elsewhere the f32 kernel with its sums rounded once (kiln-widen-matmul-accumulators).
func.func @matmul_into_f16(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>) -> tensor<1024x1024xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1024x1024xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  return %r : tensor<1024x1024xf16>
}
func.func @matmul_transpose_b_into_f16(%x: tensor<1024x1024xf16>, %w: tensor<1024x1024xf16>) -> tensor<1024x1024xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1024x1024xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<1024x1024xf16>) -> tensor<1024x1024xf16>
  return %r : tensor<1024x1024xf16>
}
