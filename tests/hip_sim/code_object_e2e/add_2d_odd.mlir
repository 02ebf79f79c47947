func.func @add_2d_odd(%a: tensor<37x41xf32>, %b: tensor<37x41xf32>) -> tensor<37x41xf32> {
  %e = tensor.empty() : tensor<37x41xf32>
  %r = linalg.add ins(%a, %b : tensor<37x41xf32>, tensor<37x41xf32>) outs(%e : tensor<37x41xf32>) -> tensor<37x41xf32>
  return %r : tensor<37x41xf32>
}
