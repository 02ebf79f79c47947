func.func @f16_mix(%a: tensor<1024xf16>, %b: tensor<1024xf32>) -> tensor<1024xf16> {
  %e = tensor.empty() : tensor<1024xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<1024xf16>, tensor<1024xf32>) outs(%e : tensor<1024xf16>) {
  ^bb0(%x: f16, %y: f32, %o: f16):
    %t = arith.mulf %y, %y : f32
    %c = arith.truncf %t : f32 to f16
    %m = arith.mulf %x, %c : f16
    %s = arith.addf %m, %x : f16
    linalg.yield %s : f16
  } -> tensor<1024xf16>
  return %r : tensor<1024xf16>
}
