// A topk left on one work-item per line (its initial values are read from the line, not
// one fill), whose insertion loop reaches position 0: its loads of position j - 1 once read
// element -1 of the output, just before the allocation (a memory fault on the executor).
func.func @topk_insert_first(%x: tensor<2x1000xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0 : i32
  %v0 = tensor.extract_slice %x[0, 0] [2, 4] [1, 1] : tensor<2x1000xf32> to tensor<2x4xf32>
  %ei = tensor.empty() : tensor<2x4xi32>
  %i0 = linalg.fill ins(%zero : i32) outs(%ei : tensor<2x4xi32>) -> tensor<2x4xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x1000xf32>) outs(%v0, %i0 : tensor<2x4xf32>, tensor<2x4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x4xf32>, tensor<2x4xi32>
  return %t#0 : tensor<2x4xf32>
}
