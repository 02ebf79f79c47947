// topk_vector_filter.mlir's cases that run on the CPU devices only: a NaN in a line and
// initial outputs out of order (where hip-sim's results differ from the sequential
// insertions, before and after the vector filter) and k known only at run time (the GPU cannot yet give a dispatch
// temporaries of dynamic size).
// RUN: kiln-check %s --device=cpu
// RUN: kiln-check %s --device=cpu-sync

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

// k known only at run time: the k kept stay in memory, the vector filter still runs.
func.func @dynamic_k() {
  %x = util.unfoldable_constant dense<[[-10.0, 3.0, -5.0, 8.0, 0.0, -8.0, 5.0, -3.0, 10.0, 2.0, -6.0, 7.0, -1.0, -9.0, 4.0, -4.0, 9.0, 1.0, -7.0, 6.0, -2.0, -10.0, 3.0, -5.0, 8.0, 0.0, -8.0, 5.0, -3.0, 10.0, 2.0, -6.0, 7.0, -1.0, -9.0, 4.0, -4.0, 9.0, 1.0, -7.0, 6.0, -2.0, -10.0, 3.0, -5.0, 8.0, 0.0, -8.0, 5.0, -3.0], [-8.0, 5.0, -3.0, 10.0, 2.0, -6.0, 7.0, -1.0, -9.0, 4.0, -4.0, 9.0, 1.0, -7.0, 6.0, -2.0, -10.0, 3.0, -5.0, 8.0, 0.0, -8.0, 5.0, -3.0, 10.0, 2.0, -6.0, 7.0, -1.0, -9.0, 4.0, -4.0, 9.0, 1.0, -7.0, 6.0, -2.0, -10.0, 3.0, -5.0, 8.0, 0.0, -8.0, 5.0, -3.0, 10.0, 2.0, -6.0, 7.0, -1.0]]> : tensor<2x50xf32>
  %v0s = util.unfoldable_constant dense<0xFF800000> : tensor<2x3xf32>
  %i0s = util.unfoldable_constant dense<0> : tensor<2x3xi32>
  %v0c = tensor.cast %v0s : tensor<2x3xf32> to tensor<2x?xf32>
  %i0c = tensor.cast %i0s : tensor<2x3xi32> to tensor<2x?xi32>
  %v0 = util.optimization_barrier %v0c : tensor<2x?xf32>
  %i0 = util.optimization_barrier %i0c : tensor<2x?xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x50xf32>)
      outs(%v0, %i0 : tensor<2x?xf32>, tensor<2x?xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x?xf32>, tensor<2x?xi32>
  %tv = tensor.cast %t#0 : tensor<2x?xf32> to tensor<2x3xf32>
  %ti = tensor.cast %t#1 : tensor<2x?xi32> to tensor<2x3xi32>
  check.expect_eq_const(%tv, dense<[[10.0, 10.0, 9.0], [10.0, 10.0, 10.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  check.expect_eq_const(%ti, dense<[[8, 29, 16], [3, 24, 45]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}
