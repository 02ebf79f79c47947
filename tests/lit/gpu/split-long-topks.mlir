// RUN: kiln-opt %s -split-input-file -kiln-gpu-split-long-topks -verify-diagnostics | FileCheck %s

// A line of 10000 f32 (k + line beyond the 5458 an LDS line holds with i32 indices):
// padded with the fill to 3 chunks of 4096, the top 8 of each from fills and zero
// indices, positions made positions in the line (+ c * 4096), then the top 8 of the 24
// candidates from the topk's own initial outputs.
// CHECK-LABEL: func.func @long(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x10000xf32>
// CHECK: %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 0] high[0, 2288]
// CHECK: tensor.yield %{{.*}} : f32
// CHECK: %[[CHUNKS:.*]] = tensor.expand_shape %[[PADDED]] {{\[}}[0], [1, 2]] output_shape [2, 3, 4096] : tensor<2x12288xf32> into tensor<2x3x4096xf32>
// CHECK: %[[CV:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3x8xf32>)
// CHECK: %[[CI:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<2x3x8xi32>)
// CHECK: %[[TOP:.*]]:2 = iree_linalg_ext.topk dimension(2) ins(%[[CHUNKS]] : tensor<2x3x4096xf32>) outs(%[[CV]], %[[CI]] : tensor<2x3x8xf32>, tensor<2x3x8xi32>)
// CHECK: arith.cmpf ogt
// CHECK: %[[POSITIONS:.*]] = linalg.generic {{.*}} ins(%[[TOP]]#1 : tensor<2x3x8xi32>)
// CHECK:   %[[C:.*]] = linalg.index 1
// CHECK:   arith.muli %[[C]], %c4096
// CHECK: %[[VALUES:.*]] = tensor.collapse_shape %[[TOP]]#0 {{\[}}[0], [1, 2]] : tensor<2x3x8xf32> into tensor<2x24xf32>
// CHECK: %[[INDICES:.*]] = tensor.collapse_shape %[[POSITIONS]] {{\[}}[0], [1, 2]] : tensor<2x3x8xi32> into tensor<2x24xi32>
// CHECK: %[[RESULT:.*]]:2 = iree_linalg_ext.topk dimension(1) ins(%[[VALUES]], %[[INDICES]] : tensor<2x24xf32>, tensor<2x24xi32>) outs(%{{.*}}, %{{.*}} : tensor<2x8xf32>, tensor<2x8xi32>)
// CHECK: return %[[RESULT]]#0, %[[RESULT]]#1
func.func @long(%x: tensor<2x10000xf32>) -> (tensor<2x8xf32>, tensor<2x8xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<2x8xf32>
  %ei = tensor.empty() : tensor<2x8xi32>
  %v0 = linalg.fill ins(%ninf : f32) outs(%ev : tensor<2x8xf32>) -> tensor<2x8xf32>
  %i0 = linalg.fill ins(%zero : i32) outs(%ei : tensor<2x8xi32>) -> tensor<2x8xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x10000xf32>) outs(%v0, %i0 : tensor<2x8xf32>, tensor<2x8xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x8xf32>, tensor<2x8xi32>
  return %t#0, %t#1 : tensor<2x8xf32>, tensor<2x8xi32>
}

// -----

// A line the workgroup sort holds whole: left as it is, without a remark.
// CHECK-LABEL: func.func @short(
// CHECK: iree_linalg_ext.topk dimension(1) ins(%{{.*}} : tensor<2x4096xf32>)
// CHECK-NOT: iree_linalg_ext.topk
// CHECK: return
func.func @short(%x: tensor<2x4096xf32>, %v0: tensor<2x8xf32>, %i0: tensor<2x8xi32>) -> (tensor<2x8xf32>, tensor<2x8xi32>) {
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x4096xf32>) outs(%v0, %i0 : tensor<2x8xf32>, tensor<2x8xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x8xf32>, tensor<2x8xi32>
  return %t#0, %t#1 : tensor<2x8xf32>, tensor<2x8xi32>
}

// -----

// Long lines whose result the chunks would not give exactly are left, with the reason:
// initial values that are not one fill, a comparator that is not a strict order (oge
// inserts an element after its equals differently), a NaN fill.
func.func @left(%x: tensor<2x10000xf32>, %v0: tensor<2x8xf32>, %i0: tensor<2x8xi32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
  // expected-remark @+1 {{'iree_linalg_ext.topk' is not split into chunks: its initial values are not one fill that is not NaN; its lines run on one work-item each}}
  %a:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x10000xf32>) outs(%v0, %i0 : tensor<2x8xf32>, tensor<2x8xi32>) {
  ^bb0(%p: f32, %q: f32):
    %r = arith.cmpf ogt, %p, %q : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x8xf32>, tensor<2x8xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %ev = tensor.empty() : tensor<2x8xf32>
  %fill = linalg.fill ins(%ninf : f32) outs(%ev : tensor<2x8xf32>) -> tensor<2x8xf32>
  // expected-remark @+1 {{'iree_linalg_ext.topk' is not split into chunks: its comparator is not one strict comparison of its two arguments; its lines run on one work-item each}}
  %b:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x10000xf32>) outs(%fill, %i0 : tensor<2x8xf32>, tensor<2x8xi32>) {
  ^bb0(%p: f32, %q: f32):
    %r = arith.cmpf oge, %p, %q : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x8xf32>, tensor<2x8xi32>
  %nan = arith.constant 0x7FC00000 : f32
  %nans = linalg.fill ins(%nan : f32) outs(%ev : tensor<2x8xf32>) -> tensor<2x8xf32>
  // expected-remark @+1 {{'iree_linalg_ext.topk' is not split into chunks: its initial values are not one fill that is not NaN; its lines run on one work-item each}}
  %c:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x10000xf32>) outs(%nans, %i0 : tensor<2x8xf32>, tensor<2x8xi32>) {
  ^bb0(%p: f32, %q: f32):
    %r = arith.cmpf ogt, %p, %q : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x8xf32>, tensor<2x8xi32>
  return %a#0, %b#0, %c#0 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}
