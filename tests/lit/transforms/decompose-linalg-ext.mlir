// RUN: kiln-opt %s -kiln-decompose-linalg-ext | FileCheck %s

// A gather is a parallel generic over the output: the row index is a structured input,
// clamped into [0, rows - 1], and the source is read with tensor.extract.
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[S:.*]]: tensor<16x8xf32>, %[[I:.*]]: tensor<4xi32>)
// CHECK: %[[DIM:.*]] = tensor.dim %[[S]], %c0
// CHECK: %[[LAST:.*]] = arith.subi %[[DIM]], %c1
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[I]] : tensor<4xi32>)
// CHECK: ^bb0(%[[ROW:.*]]: i32, %{{.*}}: f32):
// CHECK: %[[COL:.*]] = linalg.index 1
// CHECK: %[[R:.*]] = arith.index_cast %[[ROW]]
// CHECK: %[[LO:.*]] = arith.maxsi %[[R]], %{{.*}}
// CHECK: %[[HI:.*]] = arith.minsi %[[LO]], %[[LAST]]
// CHECK: tensor.extract %[[S]][%{{.*}}, %[[COL]]]
// CHECK-NOT: iree_linalg_ext
func.func @gather(%s: tensor<16x8xf32>, %i: tensor<4xi32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = iree_linalg_ext.gather dimension_map = [0] ins(%s, %i : tensor<16x8xf32>, tensor<4xi32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// arg_compare is a reduction with two outputs, the comparator inlined and the index
// offset by index_base.
// CHECK-LABEL: func.func @arg_max
// CHECK-SAME: %[[BASE:[a-z0-9]+]]: index)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK: ^bb0(%[[X:.*]]: f32, %[[V:.*]]: f32, %[[IDX:.*]]: i32):
// CHECK: %[[BETTER:.*]] = arith.cmpf ogt, %[[X]], %[[V]]
// CHECK: %[[POS:.*]] = linalg.index 1
// CHECK: %[[SUM:.*]] = arith.addi %[[POS]], %[[BASE]]
// CHECK: %[[CAST:.*]] = arith.index_cast %[[SUM]] : index to i32
// CHECK: %[[NV:.*]] = arith.select %[[BETTER]], %[[X]], %[[V]]
// CHECK: %[[NI:.*]] = arith.select %[[BETTER]], %[[CAST]], %[[IDX]]
// CHECK: linalg.yield %[[NV]], %[[NI]]
func.func @arg_max(%x: tensor<4x6xf32>, %v: tensor<4xf32>, %i: tensor<4xi32>, %base: index) -> (tensor<4xf32>, tensor<4xi32>) {
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<4x6xf32>) outs(%v, %i : tensor<4xf32>, tensor<4xi32>) index_base(%base : index) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<4xf32>, tensor<4xi32>
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi32>
}

// attention, as IREE decomposes it: Q scaled by scale * log2(e), Q K^T, the masked scores
// (an i1 mask adds 0 or -inf), row max, exp2, row sum, P V and the division, each a
// generic.
// CHECK-LABEL: func.func @masked_attention
// CHECK: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK: %[[SCALE:.*]] = arith.mulf %{{.*}}, %[[LOG2E]] : f32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK: arith.mulf %[[SCALE]], %{{.*}} : f32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: %[[DROP:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %{{.*}}, %[[DROP]] : f32
// CHECK: linalg.generic
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK: math.exp2
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: arith.divf
// CHECK-NOT: iree_linalg_ext
func.func @masked_attention(%q: tensor<2x3x4xf32>, %k: tensor<2x5x4xf32>, %v: tensor<2x5x6xf32>, %m: tensor<2x3x5xi1>) -> tensor<2x3x6xf32> {
  %scale = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<2x3x6xf32>
  %r = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, k2)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale, %m : tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x5x6xf32>, f32, tensor<2x3x5xi1>)
      outs(%e : tensor<2x3x6xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x6xf32>
  return %r : tensor<2x3x6xf32>
}

// A score region typed f16 in an f32 attention gets its score (Q scaled by scale *
// log2(e), times K) converted in and out.
// CHECK-LABEL: func.func @f16_score_region
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: %[[DOT:.*]] = linalg.generic
// CHECK: %[[IN:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[CAPPED:.*]] = arith.minimumf %[[IN]], %{{.*}} : f16
// CHECK: arith.extf %[[CAPPED]] : f16 to f32
func.func @f16_score_region(%q: tensor<1x3x4xf32>, %k: tensor<1x5x4xf32>, %v: tensor<1x5x6xf32>) -> tensor<1x3x6xf32> {
  %scale = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<1x3x6xf32>
  %r = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale : tensor<1x3x4xf32>, tensor<1x5x4xf32>, tensor<1x5x6xf32>, f32)
      outs(%e : tensor<1x3x6xf32>) {
  ^bb0(%s: f16):
    %cap = arith.constant 30.0 : f16
    %c = arith.minimumf %s, %cap : f16
    iree_linalg_ext.yield %c : f16
  } -> tensor<1x3x6xf32>
  return %r : tensor<1x3x6xf32>
}

// With 8-bit Q, Q is not scaled: the region sees the raw Q K^T and the scores are scaled
// by scale * log2(e) after it.
// CHECK-LABEL: func.func @f8_scaled_after_region
// CHECK: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK: %[[SCALE:.*]] = arith.mulf %{{.*}}, %[[LOG2E]] : f32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
// CHECK: linalg.generic
// CHECK: %[[TANH:.*]] = math.tanh
// CHECK: %[[CAPPED:.*]] = arith.mulf %[[TANH]], %{{.*}} : f32
// CHECK: arith.mulf %[[CAPPED]], %[[SCALE]] : f32
// CHECK: math.exp2
func.func @f8_scaled_after_region(%q: tensor<1x3x4xf8E4M3FN>, %k: tensor<1x5x4xf8E4M3FN>, %v: tensor<1x5x6xf8E4M3FN>) -> tensor<1x3x6xf32> {
  %scale = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<1x3x6xf32>
  %r = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale : tensor<1x3x4xf8E4M3FN>, tensor<1x5x4xf8E4M3FN>, tensor<1x5x6xf8E4M3FN>, f32)
      outs(%e : tensor<1x3x6xf32>) {
  ^bb0(%s: f32):
    %t = math.tanh %s : f32
    %two = arith.constant 2.0 : f32
    %c = arith.mulf %t, %two : f32
    iree_linalg_ext.yield %c : f32
  } -> tensor<1x3x6xf32>
  return %r : tensor<1x3x6xf32>
}

// online_attention with decomposition_config {use_exp2 = false}: the plain scale and exp,
// as IREE does then; a float mask is added unscaled.
// CHECK-LABEL: func.func @online_attention_exp
// CHECK-NOT: 1.44269502
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
// CHECK: linalg.generic
// CHECK-NOT: arith.mulf
// CHECK: arith.addf
// CHECK: math.exp
// CHECK-NOT: math.exp2
func.func @online_attention_exp(%q: tensor<1x3x4xf32>, %k: tensor<1x5x4xf32>, %v: tensor<1x5x6xf32>, %m: tensor<1x3x5xf32>,
                                %acc: tensor<1x3x6xf32>, %max: tensor<1x3xf32>, %sum: tensor<1x3xf32>)
    -> (tensor<1x3x6xf32>, tensor<1x3xf32>, tensor<1x3xf32>) {
  %scale = arith.constant 0.5 : f32
  %r:3 = iree_linalg_ext.online_attention {decomposition_config = {use_exp2 = false},
                                          indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                           affine_map<(b, m, k1, k2, n) -> ()>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, m, k2)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, m, n)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, m)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, m)>]}
      ins(%q, %k, %v, %scale, %m : tensor<1x3x4xf32>, tensor<1x5x4xf32>, tensor<1x5x6xf32>, f32, tensor<1x3x5xf32>)
      outs(%acc, %max, %sum : tensor<1x3x6xf32>, tensor<1x3xf32>, tensor<1x3xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<1x3x6xf32>, tensor<1x3xf32>, tensor<1x3xf32>
  return %r#0, %r#1, %r#2 : tensor<1x3x6xf32>, tensor<1x3xf32>, tensor<1x3xf32>
}
