// topk's results where the GPU's bitonic network alone would differ from the CPU's
// sequential insertions (LinalgExtToLoops.cc): NaNs in a line or among the initial
// outputs, initial outputs out of order, a comparator that is not a strict order. The
// sort strategy (WorkgroupSort.cc) sorts with the network only when its result is the
// loop's, else runs the loop on one work-item; the vector filter (VectorTopk.cc) runs on
// the CPU. Expected values come from a plain model of the loop (insert an element that
// beats the k-th after its equals), computed off-line.
// RUN: kiln-check %s --device=cpu
// RUN: kiln-check %s --device=cpu-sync
// RUN: kiln-check %s --device=hip-sim

// The same rows with a NaN in row 1, which no element beats and which beats none:
// the bound is not used for that row.
func.func @nan_row() {
  %x = util.unfoldable_constant dense<[[-2.5, 2.0, 0.0, -2.0, 3.5, 1.0, -1.0, -3.0, 2.5, 0.0, -2.0, 3.0, 1.5, -1.0, -3.0, 2.0, 0.5, -2.0, 3.0, 1.0, -0.5, -3.0, 2.0, 0.0, -1.5, 3.0, 1.0, -1.0, -2.5, 2.0, 0.0, -2.0, 3.5, 1.0, -1.0, -3.0, 9.0], [0.0, -2.0, 3.0, 1.5, -1.0, -3.0, 2.0, 0.5, -2.0, 3.0, 1.0, -0.5, -3.0, 2.0, 0.0, -1.5, 3.0, 1.0, -1.0, -2.5, 0x7FC00000, 0.0, -2.0, 3.5, 1.0, -1.0, -3.0, 2.5, 0.0, -2.0, 3.0, 1.5, -1.0, -3.0, 2.0, 0.5, -2.0], [3.0, 1.0, -0.5, 0x7F800000, 2.0, 0.0, -1.5, 3.0, 1.0, -1.0, -2.5, 2.0, 0.0, -2.0, 3.5, 1.0, -1.0, -3.0, 2.5, 0.0, -2.0, 3.0, 1.5, -1.0, -3.0, 2.0, 0.5, -2.0, 3.0, 1.0, 0xFF800000, -3.0, 2.0, 0.0, -1.5, 3.0, 1.0]]> : tensor<3x37xf32>
  %v0 = util.unfoldable_constant dense<[[0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000]]> : tensor<3x5xf32>
  %i0 = util.unfoldable_constant dense<[[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]> : tensor<3x5xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<3x37xf32>)
      outs(%v0, %i0 : tensor<3x5xf32>, tensor<3x5xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<3x5xf32>, tensor<3x5xi32>
  check.expect_eq_const(%t#0, dense<[[9.0, 3.5, 3.5, 3.0, 3.0], [3.5, 3.0, 3.0, 3.0, 3.0], [0x7F800000, 3.5, 3.0, 3.0, 3.0]]> : tensor<3x5xf32>) : tensor<3x5xf32>
  check.expect_eq_const(%t#1, dense<[[36, 4, 32, 11, 18], [23, 2, 9, 16, 30], [3, 14, 0, 7, 21]]> : tensor<3x5xi32>) : tensor<3x5xi32>
  return
}

// Initial outputs out of order where a bound would change the result: with AVX-512's 16
// lanes the 3rd best of the lane bests is 7, below which element 39 (6) would be skipped;
// the sequential insertions keep it.
func.func @kept_out_of_order_bound() {
  %x = util.unfoldable_constant dense<[[-5.0, 7.0, 7.0, 5.0, -2.0, -5.0, -3.0, 0.0, -8.0, -7.0, -4.0, -6.0, -8.0, 5.0, 2.0, -2.0, -7.0, 0.0, -7.0, -7.0, -1.0, -2.0, 3.0, 2.0, -5.0, -7.0, 8.0, -4.0, 1.0, -3.0, 6.0, -8.0, -6.0, 8.0, -3.0, -8.0, -8.0, -7.0, 5.0, 6.0]]> : tensor<1x40xf32>
  %v0 = util.unfoldable_constant dense<[[2.0, 1.0, 7.0]]> : tensor<1x3xf32>
  %i0 = util.unfoldable_constant dense<[[-7, -8, -9]]> : tensor<1x3xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<1x40xf32>)
      outs(%v0, %i0 : tensor<1x3xf32>, tensor<1x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x3xf32>, tensor<1x3xi32>
  check.expect_eq_const(%t#0, dense<[[8.0, 8.0, 6.0]]> : tensor<1x3xf32>) : tensor<1x3xf32>
  check.expect_eq_const(%t#1, dense<[[26, 33, 30]]> : tensor<1x3xi32>) : tensor<1x3xi32>
  return
}

// A NaN among the initial outputs (row 0: nothing passes it; row 1: all NaN, nothing
// is inserted) takes the sequential insertions; row 2's are in order, with ties, and its
// NaNs in the line are never inserted.
func.func @nan_in_initial_outputs() {
  %x = util.unfoldable_constant dense<[[1.0, -2.0, 2.0, -4.0, -3.0, 0x7FC00000, -3.0, 1.0, -4.0, 4.0, -1.0, -4.0, -3.0, 2.0, 2.0, -3.0, -1.0, -3.0, 4.0, 2.0, -4.0, -3.0, -1.0, -4.0, 2.0, -4.0, -1.0, -4.0, 4.0, -2.0], [0.0, 2.0, -2.0, 4.0, -3.0, 0.0, 4.0, -2.0, -3.0, -1.0, 1.0, -3.0, 4.0, -3.0, -4.0, -1.0, 3.0, 4.0, 2.0, 1.0, 3.0, 3.0, 1.0, 0.0, -1.0, -2.0, -1.0, -3.0, 0.0, 4.0], [0x7FC00000, 1.0, 3.0, 0.0, -3.0, -3.0, 4.0, 2.0, -2.0, 1.0, -2.0, 3.0, 2.0, -4.0, -3.0, 4.0, 1.0, 0x7FC00000, 1.0, 3.0, 3.0, -3.0, -3.0, 0.0, 3.0, -3.0, -4.0, 0.0, 3.0, 0.0]]> : tensor<3x30xf32>
  %v0 = util.unfoldable_constant dense<[[3.0, 0x7FC00000, -1.0, -2.0], [0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000], [2.0, 2.0, 1.0, 0xFF800000]]> : tensor<3x4xf32>
  %i0 = util.unfoldable_constant dense<[[-1, -2, -3, -4], [-5, -6, -7, -8], [-9, -10, -11, -12]]> : tensor<3x4xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<3x30xf32>)
      outs(%v0, %i0 : tensor<3x4xf32>, tensor<3x4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<3x4xf32>, tensor<3x4xi32>
  check.expect_eq_const(%t#0, dense<[[3.0, 0x7FC00000, 4.0, 4.0], [0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000], [4.0, 4.0, 3.0, 3.0]]> : tensor<3x4xf32>) : tensor<3x4xf32>
  check.expect_eq_const(%t#1, dense<[[-1, -2, 9, 18], [-5, -6, -7, -8], [6, 15, 2, 11]]> : tensor<3x4xi32>) : tensor<3x4xi32>
  return
}

// olt (the smallest first) with NaNs in a row, -0 and +0 tied, initial outputs in
// order with ties: the network's path, a NaN sorted after every number.
func.func @nan_rows_ascending() {
  %x = util.unfoldable_constant dense<[[1.0, 0.0, 1.0, -0.0, -1.5, 0.0, -0.5, -1.0, 0.5, 0.0, 0.0, -1.5, -1.0, 1.5, -0.5, -1.0, 1.0, -1.0, 0.0, 0.0, 1.5, 0.0, -1.5, -1.0, 0.0, 0.0, 0.5, -0.5, -1.0, 1.5, 0.0, 1.5, 0.5, -0.5, 1.0, 0.0, -0.5, 1.0, 0.0, -1.0, -1.0, -1.5, -1.0, -1.0, -1.0], [0x7FC00000, -1.0, -1.5, 0.0, 1.5, 0.5, -1.0, 0x7FC00000, -0.5, -1.5, -1.0, 0.0, 0.5, -0.5, 0.5, 0.5, -0.5, -1.0, 1.0, 1.5, 0.5, 0.5, 1.0, 1.0, 1.0, -1.5, 0.0, 1.5, 1.5, 1.5, 1.0, 1.5, 0.5, 0.0, 0.0, 0.0, 0.0, -1.5, 0.0, 1.0, 0.0, -1.5, -1.0, -1.5, 0x7FC00000]]> : tensor<2x45xf32>
  %v0 = util.unfoldable_constant dense<[[-1.0, 0.0, 0.0, 0x7F800000, 0x7F800000, 0x7F800000], [0x7F800000, 0x7F800000, 0x7F800000, 0x7F800000, 0x7F800000, 0x7F800000]]> : tensor<2x6xf32>
  %i0 = util.unfoldable_constant dense<[[100, 101, 102, 103, 104, 105], [0, 0, 0, 0, 0, 0]]> : tensor<2x6xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x45xf32>)
      outs(%v0, %i0 : tensor<2x6xf32>, tensor<2x6xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x6xf32>, tensor<2x6xi32>
  check.expect_eq_const(%t#0, dense<[[-1.5, -1.5, -1.5, -1.5, -1.0, -1.0], [-1.5, -1.5, -1.5, -1.5, -1.5, -1.5]]> : tensor<2x6xf32>) : tensor<2x6xf32>
  check.expect_eq_const(%t#1, dense<[[4, 11, 22, 41, 100, 7], [2, 9, 25, 37, 41, 43]]> : tensor<2x6xi32>) : tensor<2x6xi32>
  return
}

// uge holds for equals and for a NaN either way round: only the sequential
// insertions give the CPU's result (a later equal goes first).
func.func @not_a_strict_order() {
  %x = util.unfoldable_constant dense<[[3.0, 1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 0.0, 1.0, 3.0, 1.0, 2.0, 2.0, 2.0, 3.0, 0.0], [0.0, 3.0, 3.0, 3.0, 0x7FC00000, 2.0, 0.0, 1.0, 0.0, 2.0, 2.0, 3.0, 1.0, 0.0, 1.0, 2.0, 1.0, 0.0, 2.0, 0.0]]> : tensor<2x20xf32>
  %v0 = util.unfoldable_constant dense<[[0xFF800000, 0xFF800000, 0xFF800000], [0xFF800000, 0xFF800000, 0xFF800000]]> : tensor<2x3xf32>
  %i0 = util.unfoldable_constant dense<[[0, 0, 0], [0, 0, 0]]> : tensor<2x3xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x20xf32>)
      outs(%v0, %i0 : tensor<2x3xf32>, tensor<2x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf uge, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x3xf32>, tensor<2x3xi32>
  check.expect_eq_const(%t#0, dense<[[3.0, 3.0, 3.0], [3.0, 0x7FC00000, 3.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  check.expect_eq_const(%t#1, dense<[[18, 13, 0], [11, 4, 3]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// i32 with sgt: initial outputs out of order (row 0) and in order with ties (rows 1, 2).
func.func @integers_initial_order() {
  %x = util.unfoldable_constant dense<[[-1, 3, 0, -3, 0, -2, 3, 3, 3, 0, 5, -2, 4, -2, -2, 1, -2, -2, 3, 2, 0, -5, -5, -1, 2, -1, -2, 4, 0, 2, 0, 0, -4, -2, -4, -2, 2, -2, 0, -2, 2, 4, 4, -5, 2, 5, 0, 5, -4, 5], [-4, 1, -2, 2, -3, 1, 5, 0, -4, 1, 2, 1, -4, -3, -3, -3, -5, -3, 4, 2, 5, -3, 4, 4, 2, 5, 0, -3, 3, 3, -3, -5, -5, 5, -4, 3, -3, 1, -2, -2, -5, -1, -2, -1, 3, -2, 4, 0, -1, 3], [1, -3, -5, 0, 2, 5, 4, 3, 1, 3, -3, 3, -3, 3, 3, -5, 2, -3, 4, -5, -3, -3, -3, 2, 4, -4, 3, -5, 0, 5, 3, 3, 3, 2, -4, 3, -5, -2, -2, -1, -5, -4, 3, 2, 3, -5, -4, 2, 0, 4]]> : tensor<3x50xi32>
  %v0 = util.unfoldable_constant dense<[[1, 4, 2, 0, 3], [6, 5, 5, 5, -6], [-7, -7, -7, -7, -7]]> : tensor<3x5xi32>
  %i0 = util.unfoldable_constant dense<[[-1, -1, -1, -1, -1], [-2, -3, -4, -5, -6], [9, 8, 7, 6, 5]]> : tensor<3x5xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<3x50xi32>)
      outs(%v0, %i0 : tensor<3x5xi32>, tensor<3x5xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sgt, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<3x5xi32>, tensor<3x5xi32>
  check.expect_eq_const(%t#0, dense<[[5, 5, 5, 5, 1], [6, 5, 5, 5, 5], [5, 5, 4, 4, 4]]> : tensor<3x5xi32>) : tensor<3x5xi32>
  check.expect_eq_const(%t#1, dense<[[10, 45, 47, 49, -1], [-2, -3, -4, -5, 6], [5, 29, 6, 18, 24]]> : tensor<3x5xi32>) : tensor<3x5xi32>
  return
}

// Initial outputs filled with NaN in the dispatch: nothing is ever inserted.
func.func @nan_fill() {
  %x = util.unfoldable_constant dense<[[1.0, 1.0, 1.0, -2.0, 2.0, -1.0, 0.0, 1.0, 1.0, 3.0, 0.0, 1.0, -2.0, 2.0, 1.0, -1.0, 1.0, -2.0, 3.0, 0.0, -2.0, 0.0, -3.0, 0.0, 0.0], [-1.0, -3.0, 2.0, -2.0, 0.0, -3.0, -2.0, 2.0, -1.0, 3.0, -3.0, 3.0, -2.0, 2.0, 2.0, 2.0, -1.0, -2.0, -1.0, -2.0, 0.0, -2.0, 2.0, -3.0, 0.0]]> : tensor<2x25xf32>
  %fill = arith.constant 0x7FC00000 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %v0 = linalg.fill ins(%fill : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %i0 = util.unfoldable_constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x25xf32>)
      outs(%v0, %i0 : tensor<2x4xf32>, tensor<2x4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x4xf32>, tensor<2x4xi32>
  check.expect_eq_const(%t#0, dense<[[0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000], [0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  check.expect_eq_const(%t#1, dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi32>) : tensor<2x4xi32>
  return
}
