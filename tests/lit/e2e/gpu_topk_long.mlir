// topk over lines longer than one workgroup holds in LDS on the GPU
// (kiln-gpu-split-long-topks): the topk of chunks of the line, then of their candidates,
// against a numpy model of the CPU's sequential insertions (first k of the stable order;
// NaNs never enter) and against the CPU itself, exactly: a vocabulary-sized line (128256,
// padded to whole chunks) with ties and NaNs, largest and smallest, and i32 values with an
// indices input. A topk whose initial values are not one fill keeps one work-item per line.
// RUN: rm -rf %t && %python %S/Inputs/topk_long_operands.py %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gpu.kiln --remarks 2> %t/remarks.txt
// RUN: FileCheck %s --check-prefix=REMARKS < %t/remarks.txt
// REMARKS-NOT: top50{{.*}}not split
// REMARKS: 'iree_linalg_ext.topk' is not split into chunks: its initial values are not one fill that is not NaN; its lines run on one work-item each
// REMARKS-NOT: not split into chunks
// RUN: kiln-compile --target=gfx942 %s -o /dev/null --dump-ir-after=kiln-gpu-split-long-topks 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT-LABEL: func.func @top50(
// SPLIT: tensor.pad
// SPLIT: tensor.expand_shape {{.*}} into tensor<2x32x4096xf32>
// SPLIT: iree_linalg_ext.topk dimension(2) ins(%{{.*}} : tensor<2x32x4096xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x32x50xf32>, tensor<2x32x50xi32>)
// SPLIT: linalg.generic
// SPLIT: iree_linalg_ext.topk dimension(1) ins(%{{.*}}, %{{.*}} : tensor<2x1600xf32>, tensor<2x1600xi32>) outs(%{{.*}}, %{{.*}} : tensor<2x50xf32>, tensor<2x50xi32>)
//
// RUN: kiln-run --module=%t/gpu.kiln --device=hip-sim --function=top50 --input=@%t/logits.npy --expected_output=@%t/top50_values.npy --expected_output=@%t/top50_indices.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%s --function=top50 --input=@%t/logits.npy --expected_output=@%t/top50_values.npy --expected_output=@%t/top50_indices.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gpu.kiln --device=hip-sim --function=bottom8 --input=@%t/logits.npy --expected_output=@%t/bottom8_values.npy --expected_output=@%t/bottom8_indices.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%s --function=bottom8 --input=@%t/logits.npy --expected_output=@%t/bottom8_values.npy --expected_output=@%t/bottom8_indices.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gpu.kiln --device=hip-sim --function=top16 --input=@%t/counts.npy --input=@%t/count_positions.npy --expected_output=@%t/top16_values.npy --expected_output=@%t/top16_indices.npy
// RUN: kiln-run --module=%s --function=top16 --input=@%t/counts.npy --input=@%t/count_positions.npy --expected_output=@%t/top16_values.npy --expected_output=@%t/top16_indices.npy
// The unsplit one agrees with the CPU too.
// RUN: kiln-run --module=%s --function=from_values --input=@%t/logits.npy --output=@%t/from_values_cpu_v.npy --output=@%t/from_values_cpu_i.npy > /dev/null
// RUN: kiln-run --module=%t/gpu.kiln --device=hip-sim --function=from_values --input=@%t/logits.npy --expected_output=@%t/from_values_cpu_v.npy --expected_output=@%t/from_values_cpu_i.npy --atol=0 --rtol=0

func.func @top50(%x: tensor<2x128256xf32>) -> (tensor<2x50xf32>, tensor<2x50xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<2x50xf32>
  %ei = tensor.empty() : tensor<2x50xi32>
  %v0 = linalg.fill ins(%ninf : f32) outs(%ev : tensor<2x50xf32>) -> tensor<2x50xf32>
  %i0 = linalg.fill ins(%zero : i32) outs(%ei : tensor<2x50xi32>) -> tensor<2x50xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x128256xf32>) outs(%v0, %i0 : tensor<2x50xf32>, tensor<2x50xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x50xf32>, tensor<2x50xi32>
  return %t#0, %t#1 : tensor<2x50xf32>, tensor<2x50xi32>
}

func.func @bottom8(%x: tensor<2x128256xf32>) -> (tensor<2x8xf32>, tensor<2x8xi32>) {
  %inf = arith.constant 0x7F800000 : f32
  %zero = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<2x8xf32>
  %ei = tensor.empty() : tensor<2x8xi32>
  %v0 = linalg.fill ins(%inf : f32) outs(%ev : tensor<2x8xf32>) -> tensor<2x8xf32>
  %i0 = linalg.fill ins(%zero : i32) outs(%ei : tensor<2x8xi32>) -> tensor<2x8xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x128256xf32>) outs(%v0, %i0 : tensor<2x8xf32>, tensor<2x8xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x8xf32>, tensor<2x8xi32>
  return %t#0, %t#1 : tensor<2x8xf32>, tensor<2x8xi32>
}

func.func @top16(%x: tensor<3x20001xi32>, %p: tensor<3x20001xi32>) -> (tensor<3x16xi32>, tensor<3x16xi32>) {
  %min = arith.constant -2147483648 : i32
  %none = arith.constant -1 : i32
  %ev = tensor.empty() : tensor<3x16xi32>
  %v0 = linalg.fill ins(%min : i32) outs(%ev : tensor<3x16xi32>) -> tensor<3x16xi32>
  %i0 = linalg.fill ins(%none : i32) outs(%ev : tensor<3x16xi32>) -> tensor<3x16xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x, %p : tensor<3x20001xi32>, tensor<3x20001xi32>) outs(%v0, %i0 : tensor<3x16xi32>, tensor<3x16xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi sgt, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<3x16xi32>, tensor<3x16xi32>
  return %t#0, %t#1 : tensor<3x16xi32>, tensor<3x16xi32>
}

// Initial values read from the line itself (not one fill): left whole, with a remark.
func.func @from_values(%x: tensor<2x128256xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>) {
  %zero = arith.constant 0 : i32
  %v0 = tensor.extract_slice %x[0, 0] [2, 4] [1, 1] : tensor<2x128256xf32> to tensor<2x4xf32>
  %ei = tensor.empty() : tensor<2x4xi32>
  %i0 = linalg.fill ins(%zero : i32) outs(%ei : tensor<2x4xi32>) -> tensor<2x4xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x128256xf32>) outs(%v0, %i0 : tensor<2x4xf32>, tensor<2x4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x4xf32>, tensor<2x4xi32>
  return %t#0, %t#1 : tensor<2x4xf32>, tensor<2x4xi32>
}
