// softmax over the last dimension of [512, 4096] f32 (kiln-bench-compiled).
func.func @softmax(%a: tensor<512x4096xf32>) -> tensor<512x4096xf32> {
  %e = tensor.empty() : tensor<512x4096xf32>
  %r = linalg.softmax dimension(1) ins(%a : tensor<512x4096xf32>) outs(%e : tensor<512x4096xf32>) -> tensor<512x4096xf32>
  return %r : tensor<512x4096xf32>
}
