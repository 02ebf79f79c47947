// A 20-dispatch program (compile time benchmark): ten rounds of matmul then tanh-like elementwise.
func.func @chain(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m0 = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t0 = math.tanh %m0 : tensor<64x64xf32>
  %m1 = linalg.matmul ins(%t0, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t1 = math.tanh %m1 : tensor<64x64xf32>
  %m2 = linalg.matmul ins(%t1, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t2 = math.tanh %m2 : tensor<64x64xf32>
  %m3 = linalg.matmul ins(%t2, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t3 = math.tanh %m3 : tensor<64x64xf32>
  %m4 = linalg.matmul ins(%t3, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t4 = math.tanh %m4 : tensor<64x64xf32>
  %m5 = linalg.matmul ins(%t4, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t5 = math.tanh %m5 : tensor<64x64xf32>
  %m6 = linalg.matmul ins(%t5, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t6 = math.tanh %m6 : tensor<64x64xf32>
  %m7 = linalg.matmul ins(%t6, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t7 = math.tanh %m7 : tensor<64x64xf32>
  %m8 = linalg.matmul ins(%t7, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t8 = math.tanh %m8 : tensor<64x64xf32>
  %m9 = linalg.matmul ins(%t8, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t9 = math.tanh %m9 : tensor<64x64xf32>
  return %t9 : tensor<64x64xf32>
}
