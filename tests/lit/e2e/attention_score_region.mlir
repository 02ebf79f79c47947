// Attention with a score-modification region, with IREE's semantics (its decomposition,
// docs/iree-compatibility.md): the softmax is in base 2, the region sees the scores
// log2(e) * scale * (Q K^T) (Q scaled first) and its results go through exp2. One query,
// head dimension 1, two keys: Q K^T = q * [k0, k1]. Expected values by hand below.
// RUN: kiln-check %s --device=cpu
// RUN: kiln-check %s --device=cpu-sync
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-check %t.gpu.kiln --device=hip-sim

// q = 1, k = [1, 0], scale 1, region min(s, 1): scores log2(e) * [1, 0] = [1.4427, 0],
// capped to [1, 0]; weights exp2([1, 0]) = [2, 1], so P = [2/3, 1/3] and with v = [3, 0]
// the output is 2. (Scaling by scale alone and using exp would give 3e/(e+1) = 2.19.)
func.func @capped_scores() {
  %q = util.unfoldable_constant dense<1.0> : tensor<1x1x1xf32>
  %k = util.unfoldable_constant dense<[[[1.0], [0.0]]]> : tensor<1x2x1xf32>
  %v = util.unfoldable_constant dense<[[[3.0], [0.0]]]> : tensor<1x2x1xf32>
  %scale = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x1x1xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale : tensor<1x1x1xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>, f32)
      outs(%e : tensor<1x1x1xf32>) {
  ^bb0(%s: f32):
    %one = arith.constant 1.0 : f32
    %c = arith.minimumf %s, %one : f32
    iree_linalg_ext.yield %c : f32
  } -> tensor<1x1x1xf32>
  check.expect_almost_eq_const(%o, dense<2.0> : tensor<1x1x1xf32>, atol 1.0e-5) : tensor<1x1x1xf32>
  return
}

// The softcap 2 * tanh(s), same q, k and scale, v = [1, 0]: the output is P[0] =
// a / (a + 1) with a = exp2(2 tanh(log2(e))) = exp2(2 * 0.8942389) = 3.4545023, so
// 0.7755080. (exp(2 tanh(1)) would give 0.8210075.)
func.func @softcapped_scores() {
  %q = util.unfoldable_constant dense<1.0> : tensor<1x1x1xf32>
  %k = util.unfoldable_constant dense<[[[1.0], [0.0]]]> : tensor<1x2x1xf32>
  %v = util.unfoldable_constant dense<[[[1.0], [0.0]]]> : tensor<1x2x1xf32>
  %scale = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x1x1xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale : tensor<1x1x1xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>, f32)
      outs(%e : tensor<1x1x1xf32>) {
  ^bb0(%s: f32):
    %t = math.tanh %s : f32
    %two = arith.constant 2.0 : f32
    %c = arith.mulf %t, %two : f32
    iree_linalg_ext.yield %c : f32
  } -> tensor<1x1x1xf32>
  check.expect_almost_eq_const(%o, dense<0.7755080> : tensor<1x1x1xf32>, atol 1.0e-5) : tensor<1x1x1xf32>
  return
}

// online_attention from the empty state (acc 0, max -inf, sum 0): q = 2, k = [1, 0.5],
// scale 0.5, v = [1, 2]. Base-2 scores log2(e) * 0.5 * [2, 1] = [1.4426950, 0.7213475];
// max = 1.4426950 (log2(e), not 1 as with exp); weights exp2(s - max) = [1, exp2(-0.7213475)]
// = [1, 0.6065307]; sum = 1.6065307; acc = 1 * 1 + 0.6065307 * 2 = 2.2130613.
func.func @online_attention_base2_state() {
  %q = util.unfoldable_constant dense<2.0> : tensor<1x1x1xf32>
  %k = util.unfoldable_constant dense<[[[1.0], [0.5]]]> : tensor<1x2x1xf32>
  %v = util.unfoldable_constant dense<[[[1.0], [2.0]]]> : tensor<1x2x1xf32>
  %scale = arith.constant 0.5 : f32
  %acc = util.unfoldable_constant dense<0.0> : tensor<1x1x1xf32>
  %max = util.unfoldable_constant dense<0xFF800000> : tensor<1x1xf32>
  %sum = util.unfoldable_constant dense<0.0> : tensor<1x1xf32>
  %r:3 = iree_linalg_ext.online_attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                           affine_map<(b, m, k1, k2, n) -> ()>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, m, n)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, m)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, m)>]}
      ins(%q, %k, %v, %scale : tensor<1x1x1xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>, f32)
      outs(%acc, %max, %sum : tensor<1x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<1x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
  check.expect_almost_eq_const(%r#0, dense<2.2130613> : tensor<1x1x1xf32>, atol 1.0e-5) : tensor<1x1x1xf32>
  check.expect_almost_eq_const(%r#1, dense<1.4426950> : tensor<1x1xf32>, atol 1.0e-5) : tensor<1x1xf32>
  check.expect_almost_eq_const(%r#2, dense<1.6065307> : tensor<1x1xf32>, atol 1.0e-5) : tensor<1x1xf32>
  return
}
