// RUN: kiln-opt %s -split-input-file -kiln-split-long-reductions -cse | FileCheck %s

// A whole sum of 2^20 elements: 64 chunk partials of 16384 from 0.0 (the chunk loop first),
// then the output's initial value combined with them; no remainder.
// CHECK-LABEL: func.func @flat_sum
// CHECK-SAME: (%[[X:.*]]: tensor<1048576xf32>)
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: %[[CUT:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [64, 16384]
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64xf32>)
// CHECK: %[[PARTIALS:.*]] = linalg.generic {indexing_maps = [#[[$ID2:.*]], #[[$FIRST:.*]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%[[CUT]] : tensor<64x16384xf32>) outs(%[[ZERO]] : tensor<64xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[PARTIALS]] : tensor<64xf32>) outs(%[[INIT]] : tensor<f32>)
// CHECK: arith.addf
// CHECK: return %[[SUM]]
func.func @flat_sum(%x: tensor<1048576xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<1048576xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

// -----

// A dynamic extent: whole chunks counted at run time, the slice past them reduced by the
// original body into the combination; partials of a max start from -inf.
// CHECK-LABEL: func.func @dynamic_max
// CHECK-SAME: (%[[X:.*]]: tensor<?xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]]
// CHECK: %[[CHUNKS:.*]] = arith.divui %[[N]], %[[C16384:.*]] : index
// CHECK: %[[WHOLE:.*]] = arith.muli %[[CHUNKS]], %[[C16384]] : index
// CHECK: %[[HEAD:.*]] = tensor.extract_slice %[[X]][0] [%[[WHOLE]]] [1]
// CHECK: %[[CUT:.*]] = tensor.expand_shape %[[HEAD]] {{\[\[}}0, 1]] output_shape [%[[CHUNKS]], 16384]
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: %[[PARTIALS:.*]] = linalg.generic {{.*}} ins(%[[CUT]] : tensor<?x16384xf32>)
// CHECK: %[[COMBINED:.*]] = linalg.generic {{.*}} ins(%[[PARTIALS]] : tensor<?xf32>)
// CHECK: arith.maximumf
// CHECK: %[[LEFT:.*]] = arith.subi %[[N]], %[[WHOLE]]
// CHECK: %[[TAIL:.*]] = tensor.extract_slice %[[X]][%[[WHOLE]]] [%[[LEFT]]] [1]
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[TAIL]] : tensor<?xf32>) outs(%[[COMBINED]] : tensor<f32>)
// CHECK: return %[[R]]
func.func @dynamic_max(%x: tensor<?xf32>) -> tensor<f32> {
  %low = arith.constant -3.0e+38 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%low : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<?xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %m = arith.maximumf %a, %b : f32
      linalg.yield %m : f32 }
  return %r : tensor<f32>
}

// -----

// A column sum (the cut loop is not the input's innermost dimension): chunks of rows for
// one work-item each: 256 chunks of 256 rows (the least a chunk holds on this path), then
// partials [4, 256] combined.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[$PART:.*]] = affine_map<(d0, d1, d2) -> (d1, d0)>
// CHECK-LABEL: func.func @column_sums
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [256, 256, 4]
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$PART]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: } -> tensor<4x256xf32>
// CHECK: -> tensor<4xf32>
// CHECK-NOT: linalg.generic
func.func @column_sums(%x: tensor<65536x4xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<65536x4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Both loops reduced: merged into one loop of 1024000 first (62 chunks of 16384 and a
// remainder of 8192).
// CHECK-LABEL: func.func @plane_sum
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1024x1000xf32> into tensor<1024000xf32>
// CHECK: %[[HEAD:.*]] = tensor.extract_slice %[[FLAT]][0] [1015808] [1]
// CHECK: tensor.expand_shape %[[HEAD]] {{\[\[}}0, 1]] output_shape [62, 16384]
// CHECK: tensor.extract_slice %[[FLAT]][1015808] [8192] [1]
func.func @plane_sum(%x: tensor<1024x1000xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<1024x1000xf32>) outs(%f : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

// -----

// Left alone: many outputs (one workgroup each already fills the GPU), a short reduction,
// two outputs (an argmax), and a body that reads its loop index.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.extract_slice
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
func.func @left_alone(%rows: tensor<1024x4096xf32>, %short: tensor<16000xf32>) -> (tensor<1024xf32>, tensor<f32>, tensor<f32>, tensor<i32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %row_sums = linalg.reduce ins(%rows : tensor<1024x4096xf32>) outs(%f : tensor<1024xf32>) dimensions = [1]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %short_sum = linalg.reduce ins(%short : tensor<16000xf32>) outs(%f0 : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  %ei = tensor.empty() : tensor<i32>
  %indexed:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>],
                               iterator_types = ["reduction"]}
      ins(%short : tensor<16000xf32>) outs(%f0, %ei : tensor<f32>, tensor<i32>) {
  ^bb0(%a: f32, %best: f32, %at: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %better = arith.cmpf ogt, %a, %best : f32
    %m = arith.select %better, %a, %best : f32
    %w = arith.select %better, %ii, %at : i32
    linalg.yield %m, %w : f32, i32
  } -> (tensor<f32>, tensor<i32>)
  return %row_sums, %short_sum, %indexed#0, %indexed#1 : tensor<1024xf32>, tensor<f32>, tensor<f32>, tensor<i32>
}

// -----

// An operand that is already an expansion (a packed tensor's slice viewed as bytes and
// their nibbles, as GGUF's Q4_0 blocks arrive) is cut by one expansion of its source, not
// an expansion of the expansion: the chain into the op keeps the shape dispatch formation
// fuses (the slice of packed i4 elements stays in its reader's dispatch).
// CHECK-LABEL: func.func @operand_already_expanded
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %{{.*}}[0, 0, 4] [101, 16, 32] [1, 1, 1] : tensor<101x16x36xi4> to tensor<101x16x32xi4>
// CHECK: tensor.expand_shape %[[SLICE]] {{\[}}[0], [1, 2], [3, 4]] output_shape [101, 2, 8, 16, 2] : tensor<101x16x32xi4> into tensor<101x2x8x16x2xi4>
// CHECK-NOT: tensor.expand_shape {{.*}} : tensor<101x16x16x2xi4>
// CHECK: linalg.generic
func.func @operand_already_expanded(%x: tensor<1x16x2x16xf32>, %nibbles: tensor<101x16x36xi4>) -> tensor<1x101xf32> {
  %q = tensor.extract_slice %nibbles[0, 0, 4] [101, 16, 32] [1, 1, 1] : tensor<101x16x36xi4> to tensor<101x16x32xi4>
  %qj = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [101, 16, 16, 2] : tensor<101x16x32xi4> into tensor<101x16x16x2xi4>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x101xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x101xf32>) -> tensor<1x101xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, b, h, j) -> (m, b, h, j)>, affine_map<(m, n, b, h, j) -> (n, b, j, h)>, affine_map<(m, n, b, h, j) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %qj : tensor<1x16x2x16xf32>, tensor<101x16x16x2xi4>) outs(%f : tensor<1x101xf32>) {
  ^bb0(%a: f32, %w: i4, %acc: f32):
    %u = arith.extui %w : i4 to i32
    %v = arith.sitofp %u : i32 to f32
    %p = arith.mulf %a, %v : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x101xf32>
  return %y : tensor<1x101xf32>
}
