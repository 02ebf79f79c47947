// Computations on tensors without elements (a dimension of 0) compile and run on every
// device: they form no dispatch (kiln-elide-empty-computations), and a product over an
// empty depth keeps its fill.
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-run --module=%t.kiln --device=cpu --function=sort_lines --input=3x0xf32= --expected_output=3x0xf32=
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=sort_rows --input=0x5xf32= --expected_output=0x5xf32=
// RUN: kiln-run --module=%t.kiln --device=cpu --function=topk_rows --input=0x16xf32= --input=0x16xi32= --expected_output=0x3xf32= --expected_output=0x3xi32=
// RUN: kiln-run --module=%t.kiln --device=cpu --function=softmax --input=0x16xf32= --expected_output=0x16xf32=
// RUN: kiln-run --module=%t.kiln --device=cpu --function=row_sums --input=4x0xf32= --expected_output=4xf32=0
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=sort_lines --input=3x0xf32= --expected_output=3x0xf32=
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=sort_rows --input=0x5xf32= --expected_output=0x5xf32=
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=topk_rows --input=0x16xf32= --input=0x16xi32= --expected_output=0x3xf32= --expected_output=0x3xi32=
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=softmax --input=0x16xf32= --expected_output=0x16xf32=
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=row_sums --input=4x0xf32= --expected_output=4xf32=0

func.func @sort_lines(%k: tensor<3x0xf32>) -> tensor<3x0xf32> {
  %r = iree_linalg_ext.sort dimension(1) outs(%k : tensor<3x0xf32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<3x0xf32>
  return %r : tensor<3x0xf32>
}

func.func @sort_rows(%k: tensor<0x5xf32>) -> tensor<0x5xf32> {
  %r = iree_linalg_ext.sort dimension(1) outs(%k : tensor<0x5xf32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<0x5xf32>
  return %r : tensor<0x5xf32>
}

func.func @topk_rows(%v: tensor<0x16xf32>, %i: tensor<0x16xi32>) -> (tensor<0x3xf32>, tensor<0x3xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<0x3xf32>
  %e1 = tensor.empty() : tensor<0x3xi32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<0x3xf32>) -> tensor<0x3xf32>
  %f1 = linalg.fill ins(%z : i32) outs(%e1 : tensor<0x3xi32>) -> tensor<0x3xi32>
  %r:2 = iree_linalg_ext.topk dimension(1) ins(%v, %i : tensor<0x16xf32>, tensor<0x16xi32>) outs(%f0, %f1 : tensor<0x3xf32>, tensor<0x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<0x3xf32>, tensor<0x3xi32>
  return %r#0, %r#1 : tensor<0x3xf32>, tensor<0x3xi32>
}

func.func @softmax(%a: tensor<0x16xf32>) -> tensor<0x16xf32> {
  %e = tensor.empty() : tensor<0x16xf32>
  %r = linalg.softmax dimension(1) ins(%a : tensor<0x16xf32>) outs(%e : tensor<0x16xf32>) -> tensor<0x16xf32>
  return %r : tensor<0x16xf32>
}

func.func @row_sums(%a: tensor<4x0xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%a : tensor<4x0xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}
