// Load speed (issue 46, kiln-bench-load): 16 f16 weights of [8192, 4096] (64 MiB each, 1 GiB)
// bound to parameters "model"::"w0".."w15" (a safetensors file the benchmark writes), and
// a first call that reads every weight once: y = sum_i x W_i^T, M = 1 (a decode step).
util.global private @w0 = #stream.parameter.named<"model"::"w0"> : tensor<8192x4096xf16>
util.global private @w1 = #stream.parameter.named<"model"::"w1"> : tensor<8192x4096xf16>
util.global private @w2 = #stream.parameter.named<"model"::"w2"> : tensor<8192x4096xf16>
util.global private @w3 = #stream.parameter.named<"model"::"w3"> : tensor<8192x4096xf16>
util.global private @w4 = #stream.parameter.named<"model"::"w4"> : tensor<8192x4096xf16>
util.global private @w5 = #stream.parameter.named<"model"::"w5"> : tensor<8192x4096xf16>
util.global private @w6 = #stream.parameter.named<"model"::"w6"> : tensor<8192x4096xf16>
util.global private @w7 = #stream.parameter.named<"model"::"w7"> : tensor<8192x4096xf16>
util.global private @w8 = #stream.parameter.named<"model"::"w8"> : tensor<8192x4096xf16>
util.global private @w9 = #stream.parameter.named<"model"::"w9"> : tensor<8192x4096xf16>
util.global private @w10 = #stream.parameter.named<"model"::"w10"> : tensor<8192x4096xf16>
util.global private @w11 = #stream.parameter.named<"model"::"w11"> : tensor<8192x4096xf16>
util.global private @w12 = #stream.parameter.named<"model"::"w12"> : tensor<8192x4096xf16>
util.global private @w13 = #stream.parameter.named<"model"::"w13"> : tensor<8192x4096xf16>
util.global private @w14 = #stream.parameter.named<"model"::"w14"> : tensor<8192x4096xf16>
util.global private @w15 = #stream.parameter.named<"model"::"w15"> : tensor<8192x4096xf16>
util.func public @decode(%x: tensor<1x4096xf16>) -> tensor<1x8192xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8192xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %w0 = util.global.load @w0 : tensor<8192x4096xf16>
  %y0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w0 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %w1 = util.global.load @w1 : tensor<8192x4096xf16>
  %y1 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w1 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s1 = arith.addf %y0, %y1 : tensor<1x8192xf32>
  %w2 = util.global.load @w2 : tensor<8192x4096xf16>
  %y2 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w2 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s2 = arith.addf %s1, %y2 : tensor<1x8192xf32>
  %w3 = util.global.load @w3 : tensor<8192x4096xf16>
  %y3 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w3 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s3 = arith.addf %s2, %y3 : tensor<1x8192xf32>
  %w4 = util.global.load @w4 : tensor<8192x4096xf16>
  %y4 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w4 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s4 = arith.addf %s3, %y4 : tensor<1x8192xf32>
  %w5 = util.global.load @w5 : tensor<8192x4096xf16>
  %y5 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w5 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s5 = arith.addf %s4, %y5 : tensor<1x8192xf32>
  %w6 = util.global.load @w6 : tensor<8192x4096xf16>
  %y6 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w6 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s6 = arith.addf %s5, %y6 : tensor<1x8192xf32>
  %w7 = util.global.load @w7 : tensor<8192x4096xf16>
  %y7 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w7 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s7 = arith.addf %s6, %y7 : tensor<1x8192xf32>
  %w8 = util.global.load @w8 : tensor<8192x4096xf16>
  %y8 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w8 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s8 = arith.addf %s7, %y8 : tensor<1x8192xf32>
  %w9 = util.global.load @w9 : tensor<8192x4096xf16>
  %y9 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w9 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s9 = arith.addf %s8, %y9 : tensor<1x8192xf32>
  %w10 = util.global.load @w10 : tensor<8192x4096xf16>
  %y10 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w10 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s10 = arith.addf %s9, %y10 : tensor<1x8192xf32>
  %w11 = util.global.load @w11 : tensor<8192x4096xf16>
  %y11 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w11 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s11 = arith.addf %s10, %y11 : tensor<1x8192xf32>
  %w12 = util.global.load @w12 : tensor<8192x4096xf16>
  %y12 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w12 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s12 = arith.addf %s11, %y12 : tensor<1x8192xf32>
  %w13 = util.global.load @w13 : tensor<8192x4096xf16>
  %y13 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w13 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s13 = arith.addf %s12, %y13 : tensor<1x8192xf32>
  %w14 = util.global.load @w14 : tensor<8192x4096xf16>
  %y14 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w14 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s14 = arith.addf %s13, %y14 : tensor<1x8192xf32>
  %w15 = util.global.load @w15 : tensor<8192x4096xf16>
  %y15 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w15 : tensor<1x4096xf16>, tensor<8192x4096xf16>) outs(%f : tensor<1x8192xf32>) -> tensor<1x8192xf32>
  %s15 = arith.addf %s14, %y15 : tensor<1x8192xf32>
  util.return %s15 : tensor<1x8192xf32>
}
