// C = A x B with i8 operands and an i32 result (products and sums in i32), 1024^3
// (kiln-bench-compiled): B as [K, N] (@matmul) and as a linear layer's W[N, K]
// (@matmul_transpose_b).
func.func @matmul(%a: tensor<1024x1024xi8>, %b: tensor<1024x1024xi8>) -> tensor<1024x1024xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1024x1024xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<1024x1024xi32>) -> tensor<1024x1024xi32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xi8>, tensor<1024x1024xi8>) outs(%f : tensor<1024x1024xi32>) -> tensor<1024x1024xi32>
  return %r : tensor<1024x1024xi32>
}
func.func @matmul_transpose_b(%x: tensor<1024x1024xi8>, %w: tensor<1024x1024xi8>) -> tensor<1024x1024xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1024x1024xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<1024x1024xi32>) -> tensor<1024x1024xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<1024x1024xi8>, tensor<1024x1024xi8>) outs(%f : tensor<1024x1024xi32>) -> tensor<1024x1024xi32>
  return %r : tensor<1024x1024xi32>
}
