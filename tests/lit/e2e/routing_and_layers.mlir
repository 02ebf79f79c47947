// The patterns models build from iree_linalg_ext ops and their neighbours: mixture-of-
// experts routing over a dynamic token count (softmax, top-2, one_hot, scatter of the
// gates), gathers through strided slices (iree_linalg_ext.gather and tensor.extract in a
// generic, with out-of-range indices clamped), collapse_shape feeding batch_matmul, a
// dynamic contraction over two reduction dimensions, and attention flattened into FP8
// linear layers. Expected values: numpy (the script is in the commit message of this file).
// RUN: kiln-check %s --device=cpu
// RUN: kiln-check %s --device=cpu-sync
// RUN: kiln-check %s --device=hip-sim
// Checked mode (every gather, scatter and extract index checked) computes the same,
// and reports the deliberately out-of-range row 9 of the gather through a strided slice.
// RUN: not kiln-check %s --device=cpu --check_indices | FileCheck %s --check-prefix=CHECKED
// CHECKED: [  PASSED  ] moe_routing_dynamic_tokens
// CHECKED-NEXT: [  FAILED  ] gather_through_strided_slice
// CHECKED-NEXT: OUT_OF_RANGE: index 9 is out of range [0, 4) for the slice offset into dimension 0 of the source of iree_linalg_ext.gather ({{[^)]*}}routing_and_layers.mlir:{{[0-9]+}}:15), in workgroup
// CHECKED-SAME: in dispatch 'gather_through_strided_slice_dispatch_{{[0-9]+}}_generic'
// CHECKED: 4 passed, 1 failed

func.func @moe_routing_dynamic_tokens() {
  %logits = flow.tensor.dynamic_constant dense<[[1.0, 2.0, 0.5, -1.0], [0.0, 0.0, 3.0, 1.0], [2.5, -0.5, 2.0, 0.1],
                                                [0.3, 0.2, 0.1, 0.0], [-1.0, 4.0, 3.5, 0.0]]> : tensor<5x4xf32> -> tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %t = tensor.dim %logits, %c0 : tensor<?x4xf32>
  %pe = tensor.empty(%t) : tensor<?x4xf32>
  %probs = linalg.softmax dimension(1) ins(%logits : tensor<?x4xf32>) outs(%pe : tensor<?x4xf32>) -> tensor<?x4xf32>
  %minus_inf = arith.constant 0xFF800000 : f32
  %zero_i = arith.constant 0 : i32
  %zero_f = arith.constant 0.0 : f32
  %ve = tensor.empty(%t) : tensor<?x2xf32>
  %ie = tensor.empty(%t) : tensor<?x2xi32>
  %v0 = linalg.fill ins(%minus_inf : f32) outs(%ve : tensor<?x2xf32>) -> tensor<?x2xf32>
  %i0 = linalg.fill ins(%zero_i : i32) outs(%ie : tensor<?x2xi32>) -> tensor<?x2xi32>
  %top:2 = iree_linalg_ext.topk dimension(1) ins(%probs : tensor<?x4xf32>) outs(%v0, %i0 : tensor<?x2xf32>, tensor<?x2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<?x2xf32>, tensor<?x2xi32>
  // one_hot: expert e is chosen by token t when it is one of its two indices.
  %he = tensor.empty(%t) : tensor<?x4xi32>
  %h0 = linalg.fill ins(%zero_i : i32) outs(%he : tensor<?x4xi32>) -> tensor<?x4xi32>
  %one_hot = linalg.generic {indexing_maps = [affine_map<(t, k, e) -> (t, k)>, affine_map<(t, k, e) -> (t, e)>],
                             iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%top#1 : tensor<?x2xi32>) outs(%h0 : tensor<?x4xi32>) {
  ^bb0(%index: i32, %acc: i32):
    %e = linalg.index 2 : index
    %ei = arith.index_cast %e : index to i32
    %hit = arith.cmpi eq, %ei, %index : i32
    %one = arith.extui %hit : i1 to i32
    %sum = arith.addi %acc, %one : i32
    linalg.yield %sum : i32
  } -> tensor<?x4xi32>
  %want_one_hot = flow.tensor.dynamic_constant dense<[[1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 1, 0], [1, 1, 0, 0], [0, 1, 1, 0]]>
      : tensor<5x4xi32> -> tensor<?x4xi32>
  check.expect_eq(%one_hot, %want_one_hot) : tensor<?x4xi32>
  // Gates: each token's two probabilities scattered to (token, expert).
  %se = tensor.empty(%t) : tensor<?x2x2xi32>
  %coords = linalg.generic {indexing_maps = [affine_map<(t, k, c) -> (t, k)>, affine_map<(t, k, c) -> (t, k, c)>],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%top#1 : tensor<?x2xi32>) outs(%se : tensor<?x2x2xi32>) {
  ^bb0(%expert: i32, %out: i32):
    %tok = linalg.index 0 : index
    %c = linalg.index 2 : index
    %ti = arith.index_cast %tok : index to i32
    %is_token = arith.cmpi eq, %c, %c0 : index
    %v = arith.select %is_token, %ti, %expert : i32
    linalg.yield %v : i32
  } -> tensor<?x2x2xi32>
  %ge = tensor.empty(%t) : tensor<?x4xf32>
  %g0 = linalg.fill ins(%zero_f : f32) outs(%ge : tensor<?x4xf32>) -> tensor<?x4xf32>
  %gates = iree_linalg_ext.scatter dimension_map = [0, 1] unique_indices(true)
      ins(%top#0, %coords : tensor<?x2xf32>, tensor<?x2x2xi32>) outs(%g0 : tensor<?x4xf32>) {
  ^bb0(%update: f32, %old: f32):
    iree_linalg_ext.yield %update : f32
  } -> tensor<?x4xf32>
  %want_gates = flow.tensor.dynamic_constant dense<[[0.224208, 0.60946, 0.0, 0.0], [0.0, 0.0, 0.809776, 0.109591],
      [0.572398, 0.0, 0.347177, 0.0], [0.288651, 0.261183, 0.0, 0.0], [0.0, 0.612901, 0.371743, 0.0]]>
      : tensor<5x4xf32> -> tensor<?x4xf32>
  check.expect_almost_eq(%gates, %want_gates) : tensor<?x4xf32>
  return
}

// Rows 1-4 and columns 2, 4, 6 of a [6, 8] table (value 8 * row + column), gathered
// at rows [3, 0, 2, 9, -2] of the slice: 9 and -2 are clamped to 3 and 0.
func.func @gather_through_strided_slice() {
  %e = tensor.empty() : tensor<6x8xf32>
  %table = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<6x8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c8 = arith.constant 8 : index
    %r = arith.muli %i, %c8 : index
    %v = arith.addi %r, %j : index
    %vi = arith.index_cast %v : index to i32
    %f = arith.sitofp %vi : i32 to f32
    linalg.yield %f : f32
  } -> tensor<6x8xf32>
  %barrier = util.optimization_barrier %table : tensor<6x8xf32>
  %slice = tensor.extract_slice %barrier[1, 2] [4, 3] [1, 2] : tensor<6x8xf32> to tensor<4x3xf32>
  %rows = util.unfoldable_constant dense<[3, 0, 2, 9, -2]> : tensor<5xi32>
  %ge = tensor.empty() : tensor<5x3xf32>
  %gathered = iree_linalg_ext.gather dimension_map = [0] ins(%slice, %rows : tensor<4x3xf32>, tensor<5xi32>)
      outs(%ge : tensor<5x3xf32>) -> tensor<5x3xf32>
  check.expect_eq_const(%gathered, dense<[[34.0, 36.0, 38.0], [10.0, 12.0, 14.0], [26.0, 28.0, 30.0],
                                          [34.0, 36.0, 38.0], [10.0, 12.0, 14.0]]> : tensor<5x3xf32>) : tensor<5x3xf32>
  %in_range = tensor.extract_slice %rows[0] [3] [1] : tensor<5xi32> to tensor<3xi32>
  %xe = tensor.empty() : tensor<3x3xf32>
  %extracted = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                               iterator_types = ["parallel", "parallel"]}
      ins(%in_range : tensor<3xi32>) outs(%xe : tensor<3x3xf32>) {
  ^bb0(%row: i32, %out: f32):
    %r = arith.index_cast %row : i32 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %slice[%r, %j] : tensor<4x3xf32>
    linalg.yield %v : f32
  } -> tensor<3x3xf32>
  check.expect_eq_const(%extracted, dense<[[34.0, 36.0, 38.0], [10.0, 12.0, 14.0], [26.0, 28.0, 30.0]]>
      : tensor<3x3xf32>) : tensor<3x3xf32>
  return
}

// x[2, 2, 3, 4] (value i mod 7 - 3) collapsed to [4, 3, 4] times w[4, 4, 2] (i mod 5 - 2).
func.func @collapse_shape_into_batch_matmul() {
  %xe = tensor.empty() : tensor<2x2x3x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%xe : tensor<2x2x3x4xf32>) {
  ^bb0(%out: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %d = linalg.index 3 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %ab = arith.muli %a, %c2 : index
    %ab2 = arith.addi %ab, %b : index
    %abc = arith.muli %ab2, %c3 : index
    %abc2 = arith.addi %abc, %c : index
    %abcd = arith.muli %abc2, %c4 : index
    %flat = arith.addi %abcd, %d : index
    %m = arith.remui %flat, %c7 : index
    %mi = arith.index_cast %m : index to i32
    %f = arith.sitofp %mi : i32 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<2x2x3x4xf32>
  %w = util.unfoldable_constant dense<[[[-2.0, -1.0], [0.0, 1.0], [2.0, -2.0], [-1.0, 0.0]],
                                       [[1.0, 2.0], [-2.0, -1.0], [0.0, 1.0], [2.0, -2.0]],
                                       [[-1.0, 0.0], [1.0, 2.0], [-2.0, -1.0], [0.0, 1.0]],
                                       [[2.0, -2.0], [-1.0, 0.0], [1.0, 2.0], [-2.0, -1.0]]]> : tensor<4x4x2xf32>
  %xb = util.optimization_barrier %x : tensor<2x2x3x4xf32>
  %collapsed = tensor.collapse_shape %xb [[0, 1], [2], [3]] : tensor<2x2x3x4xf32> into tensor<4x3x4xf32>
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<4x3x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
  %r = linalg.batch_matmul ins(%collapsed, %w : tensor<4x3x4xf32>, tensor<4x4x2xf32>)
      outs(%o0 : tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
  check.expect_eq_const(%r, dense<[[[4.0, 3.0], [7.0, -5.0], [3.0, 1.0]], [[-8.0, 2.0], [3.0, -5.0], [7.0, 9.0]],
                                   [[-3.0, 3.0], [3.0, -3.0], [-5.0, -2.0]], [[-5.0, 3.0], [2.0, -8.0], [-5.0, 2.0]]]>
      : tensor<4x3x2xf32>) : tensor<4x3x2xf32>
  return
}

// C[m, n] = sum over (a, b) of A[m, a, b] * B[a, b, n], every dimension dynamic.
func.func @dynamic_contraction_two_reduction_dims() {
  %a = flow.tensor.dynamic_constant dense<[[[-1.0, 0.0, 1.0, 2.0], [3.0, -1.0, 0.0, 1.0]],
                                           [[2.0, 3.0, -1.0, 0.0], [1.0, 2.0, 3.0, -1.0]],
                                           [[0.0, 1.0, 2.0, 3.0], [-1.0, 0.0, 1.0, 2.0]]]> : tensor<3x2x4xf32> -> tensor<?x?x?xf32>
  %b = flow.tensor.dynamic_constant dense<[[[-1.0, 0.0, 1.0, -1.0, 0.0], [1.0, -1.0, 0.0, 1.0, -1.0],
                                            [0.0, 1.0, -1.0, 0.0, 1.0], [-1.0, 0.0, 1.0, -1.0, 0.0]],
                                           [[1.0, -1.0, 0.0, 1.0, -1.0], [0.0, 1.0, -1.0, 0.0, 1.0],
                                            [-1.0, 0.0, 1.0, -1.0, 0.0], [1.0, -1.0, 0.0, 1.0, -1.0]]]> : tensor<2x4x5xf32> -> tensor<?x?x?xf32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %m = tensor.dim %a, %c0 : tensor<?x?x?xf32>
  %n = tensor.dim %b, %c2 : tensor<?x?x?xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty(%m, %n) : tensor<?x?xf32>
  %c_init = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, a, b) -> (m, a, b)>, affine_map<(m, n, a, b) -> (a, b, n)>,
                                        affine_map<(m, n, a, b) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%c_init : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %want = flow.tensor.dynamic_constant dense<[[3.0, -4.0, 1.0, 3.0, -4.0], [-2.0, -2.0, 4.0, -2.0, -2.0],
                                              [-2.0, 0.0, 2.0, -2.0, 0.0]]> : tensor<3x5xf32> -> tensor<?x?xf32>
  check.expect_eq(%c, %want) : tensor<?x?xf32>
  return
}

// attention(q, k, v) of [1, 4, 8], scale 1/4, flattened to [4, 8], rounded to FP8 and
// multiplied by FP8 weights [8, 3] with f32 accumulation.
func.func private @attention_4x8() -> tensor<4x8xf32> {
  %q = util.unfoldable_constant dense<[[[-0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25, 0.375],
      [0.5, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125, 0.25], [0.375, 0.5, -0.5, -0.375, -0.25, -0.125, 0.0, 0.125],
      [0.25, 0.375, 0.5, -0.5, -0.375, -0.25, -0.125, 0.0]]]> : tensor<1x4x8xf32>
  %k = util.unfoldable_constant dense<[[[-0.5, -0.33333333, -0.16666667, 0.0, 0.16666667, 0.33333333, 0.5, -0.5],
      [-0.33333333, -0.16666667, 0.0, 0.16666667, 0.33333333, 0.5, -0.5, -0.33333333],
      [-0.16666667, 0.0, 0.16666667, 0.33333333, 0.5, -0.5, -0.33333333, -0.16666667],
      [0.0, 0.16666667, 0.33333333, 0.5, -0.5, -0.33333333, -0.16666667, 0.0]]]> : tensor<1x4x8xf32>
  %v = util.unfoldable_constant dense<[[[0.0, 0.25, 0.5, 0.75, 1.0, 0.0, 0.25, 0.5], [0.75, 1.0, 0.0, 0.25, 0.5, 0.75, 1.0, 0.0],
      [0.25, 0.5, 0.75, 1.0, 0.0, 0.25, 0.5, 0.75], [1.0, 0.0, 0.25, 0.5, 0.75, 1.0, 0.0, 0.25]]]> : tensor<1x4x8xf32>
  %scale = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<1x4x8xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale : tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, f32)
      outs(%e : tensor<1x4x8xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<1x4x8xf32>
  %flat = tensor.collapse_shape %o [[0, 1], [2]] : tensor<1x4x8xf32> into tensor<4x8xf32>
  return %flat : tensor<4x8xf32>
}

func.func @attention_into_fp8_linear() {
  %x = call @attention_4x8() : () -> tensor<4x8xf32>
  check.expect_almost_eq_const(%x, dense<[[0.481651, 0.440265, 0.375201, 0.625201, 0.577681, 0.481651, 0.440265, 0.375201],
      [0.494993, 0.434216, 0.375054, 0.625054, 0.570684, 0.494993, 0.434216, 0.375054],
      [0.508345, 0.427615, 0.37491, 0.62491, 0.564219, 0.508345, 0.427615, 0.37491],
      [0.521679, 0.42049, 0.374759, 0.624759, 0.558312, 0.521679, 0.42049, 0.374759]]> : tensor<4x8xf32>) : tensor<4x8xf32>
  %want = arith.constant dense<[[-0.140625, -0.078125, 0.171875], [-0.140625, -0.109375, 0.171875],
                                [-0.140625, -0.109375, 0.171875], [-0.171875, -0.109375, 0.203125]]> : tensor<4x3xf32>
  %w = util.unfoldable_constant dense<[[-0.75, -0.25, 0.25], [0.75, -0.75, -0.25], [0.25, 0.75, -0.75], [-0.25, 0.25, 0.75],
                                       [-0.75, -0.25, 0.25], [0.75, -0.75, -0.25], [0.25, 0.75, -0.75], [-0.25, 0.25, 0.75]]> : tensor<8x3xf32>
  %zero = arith.constant 0.0 : f32
  %ye = tensor.empty() : tensor<4x3xf32>
  %y0 = linalg.fill ins(%zero : f32) outs(%ye : tensor<4x3xf32>) -> tensor<4x3xf32>
  // f8E4M3FN
  %x8 = arith.truncf %x : tensor<4x8xf32> to tensor<4x8xf8E4M3FN>
  %w8 = arith.truncf %w : tensor<8x3xf32> to tensor<8x3xf8E4M3FN>
  %y = linalg.matmul ins(%x8, %w8 : tensor<4x8xf8E4M3FN>, tensor<8x3xf8E4M3FN>) outs(%y0 : tensor<4x3xf32>) -> tensor<4x3xf32>
  check.expect_almost_eq(%y, %want) : tensor<4x3xf32>
  // f8E4M3FNUZ: the same values are normal numbers there too.
  %x8z = arith.truncf %x : tensor<4x8xf32> to tensor<4x8xf8E4M3FNUZ>
  %w8z = arith.truncf %w : tensor<8x3xf32> to tensor<8x3xf8E4M3FNUZ>
  %yz = linalg.matmul ins(%x8z, %w8z : tensor<4x8xf8E4M3FNUZ>, tensor<8x3xf8E4M3FNUZ>) outs(%y0 : tensor<4x3xf32>) -> tensor<4x3xf32>
  check.expect_almost_eq(%yz, %want) : tensor<4x3xf32>
  return
}
