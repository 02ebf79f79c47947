// Self-attention of one sequence, 32 heads of 128, 2048 queries and keys, f32
// (kiln-bench-compiled): softmax(Q K^T * scale) V with scale 1/sqrt(128), as
// iree_linalg_ext.attention (IREE's base-2 softmax, docs/iree-compatibility.md).
func.func @attention(%q: tensor<1x32x2048x128xf32>, %k: tensor<1x32x2048x128xf32>,
                     %v: tensor<1x32x2048x128xf32>) -> tensor<1x32x2048x128xf32> {
  %scale = arith.constant 0.08838834764831845 : f32
  %e = tensor.empty() : tensor<1x32x2048x128xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, h, m, k1, k2, n) -> (b, h, m, k1)>,
                                                   affine_map<(b, h, m, k1, k2, n) -> (b, h, k2, k1)>,
                                                   affine_map<(b, h, m, k1, k2, n) -> (b, h, k2, n)>,
                                                   affine_map<(b, h, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, h, m, k1, k2, n) -> (b, h, m, n)>]}
      ins(%q, %k, %v, %scale : tensor<1x32x2048x128xf32>, tensor<1x32x2048x128xf32>, tensor<1x32x2048x128xf32>, f32)
      outs(%e : tensor<1x32x2048x128xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<1x32x2048x128xf32>
  return %o : tensor<1x32x2048x128xf32>
}
// The same in f16 (kiln-benchmark-module --function=attention_f16): the CPU's flash loops
// widen Q, K and V as they read them and compute in f32, as the decomposition would.
func.func @attention_f16(%q: tensor<1x32x2048x128xf16>, %k: tensor<1x32x2048x128xf16>,
                         %v: tensor<1x32x2048x128xf16>) -> tensor<1x32x2048x128xf16> {
  %scale = arith.constant 0.08838834764831845 : f16
  %e = tensor.empty() : tensor<1x32x2048x128xf16>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, h, m, k1, k2, n) -> (b, h, m, k1)>,
                                                   affine_map<(b, h, m, k1, k2, n) -> (b, h, k2, k1)>,
                                                   affine_map<(b, h, m, k1, k2, n) -> (b, h, k2, n)>,
                                                   affine_map<(b, h, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, h, m, k1, k2, n) -> (b, h, m, n)>]}
      ins(%q, %k, %v, %scale : tensor<1x32x2048x128xf16>, tensor<1x32x2048x128xf16>, tensor<1x32x2048x128xf16>, f16)
      outs(%e : tensor<1x32x2048x128xf16>) {
  ^bb0(%s: f16):
    iree_linalg_ext.yield %s : f16
  } -> tensor<1x32x2048x128xf16>
  return %o : tensor<1x32x2048x128xf16>
}
