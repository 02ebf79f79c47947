// A topk whose line fits in LDS (the workgroup's bitonic network) with initial values from
// a binding: every work-item first checks that they are in the comparator's order,
// comparing position j with j - 1, which read element -1 at j = 0 once (a fault).
func.func @topk_lds_initial(%x: tensor<2x100xf32>, %v0: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0 : i32
  %ei = tensor.empty() : tensor<2x4xi32>
  %i0 = linalg.fill ins(%zero : i32) outs(%ei : tensor<2x4xi32>) -> tensor<2x4xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x100xf32>) outs(%v0, %i0 : tensor<2x4xf32>, tensor<2x4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x4xf32>, tensor<2x4xi32>
  return %t#0 : tensor<2x4xf32>
}
