// The 2 largest of each row of [16384, 64] f32 with their indices (kiln-bench-compiled;
// PyTorch anchor: torch.topk(x, 2, dim=1)).
func.func @topk(%x: tensor<16384x64xf32>) -> (tensor<16384x2xf32>, tensor<16384x2xi32>) {
  %minus_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<16384x2xf32>
  %ei = tensor.empty() : tensor<16384x2xi32>
  %v = linalg.fill ins(%minus_inf : f32) outs(%ev : tensor<16384x2xf32>) -> tensor<16384x2xf32>
  %i = linalg.fill ins(%zero : i32) outs(%ei : tensor<16384x2xi32>) -> tensor<16384x2xi32>
  %r:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<16384x64xf32>)
      outs(%v, %i : tensor<16384x2xf32>, tensor<16384x2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<16384x2xf32>, tensor<16384x2xi32>
  return %r#0, %r#1 : tensor<16384x2xf32>, tensor<16384x2xi32>
}
