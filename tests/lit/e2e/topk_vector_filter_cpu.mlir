// topk_vector_filter.mlir's case that runs on the CPU devices only: k known only at run
// time (the GPU cannot yet give a dispatch temporaries of dynamic size). NaNs and initial
// outputs out of order run on every device in topk_insertion_semantics.mlir.
// RUN: kiln-check %s --device=cpu
// RUN: kiln-check %s --device=cpu-sync

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
