// The 8 largest of each row of [4096, 1024] f32 with their indices (kiln-bench-compiled;
// PyTorch anchor: torch.topk(x, 8, dim=1)).
func.func @topk(%x: tensor<4096x1024xf32>) -> (tensor<4096x8xf32>, tensor<4096x8xi32>) {
  %minus_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<4096x8xf32>
  %ei = tensor.empty() : tensor<4096x8xi32>
  %v = linalg.fill ins(%minus_inf : f32) outs(%ev : tensor<4096x8xf32>) -> tensor<4096x8xf32>
  %i = linalg.fill ins(%zero : i32) outs(%ei : tensor<4096x8xi32>) -> tensor<4096x8xi32>
  %r:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<4096x1024xf32>)
      outs(%v, %i : tensor<4096x8xf32>, tensor<4096x8xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<4096x8xf32>, tensor<4096x8xi32>
  return %r#0, %r#1 : tensor<4096x8xf32>, tensor<4096x8xi32>
}
