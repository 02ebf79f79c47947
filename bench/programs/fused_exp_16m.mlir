// exp((x + y) * z) on 16M floats, one fused dispatch (kiln-bench-compiled).
func.func @fused_exp(%x: tensor<16777216xf32>, %y: tensor<16777216xf32>, %z: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %s = arith.addf %x, %y : tensor<16777216xf32>
  %m = arith.mulf %s, %z : tensor<16777216xf32>
  %r = math.exp %m : tensor<16777216xf32>
  return %r : tensor<16777216xf32>
}
