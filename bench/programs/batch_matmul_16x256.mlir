// C[b] = A[b] x B[b], f32, 16 x 256^3 (kiln-bench-compiled: @batch_matmul).
func.func @batch_matmul(%a: tensor<16x256x256xf32>, %b: tensor<16x256x256xf32>) -> tensor<16x256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<16x256x256xf32>, tensor<16x256x256xf32>) outs(%f : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
  return %r : tensor<16x256x256xf32>
}
// The same in f16 (kiln-benchmark-module --function=batch_matmul_f16): on CPUs without
// AVX512_FP16 summed in f32 and rounded once (kiln-widen-matmul-accumulators), the
// left-hand operand widened whole and the right-hand one while packed.
func.func @batch_matmul_f16(%a: tensor<16x256x256xf16>, %b: tensor<16x256x256xf16>) -> tensor<16x256x256xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<16x256x256xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<16x256x256xf16>) -> tensor<16x256x256xf16>
  %r = linalg.batch_matmul ins(%a, %b : tensor<16x256x256xf16>, tensor<16x256x256xf16>) outs(%f : tensor<16x256x256xf16>) -> tensor<16x256x256xf16>
  return %r : tensor<16x256x256xf16>
}
