func.func @add_2d(%a: tensor<256x250xf32>, %b: tensor<256x250xf32>) -> tensor<256x250xf32> {
  %e = tensor.empty() : tensor<256x250xf32>
  %r = linalg.add ins(%a, %b : tensor<256x250xf32>, tensor<256x250xf32>) outs(%e : tensor<256x250xf32>) -> tensor<256x250xf32>
  return %r : tensor<256x250xf32>
}
