// kiln-lower-stablehlo lowers the chlo ops beside stablehlo: broadcasting ops through
// broadcast_in_dim and the stablehlo op of the same name, functions as generics of math
// ops or their approximations, top_k as iree_linalg_ext.topk.
// RUN: kiln-opt %s -split-input-file -kiln-lower-stablehlo | FileCheck %s

// The lower-rank operand is read along broadcast_dimensions; the other as it is.
// CHECK-DAG: #[[ALONG0:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @broadcast_dimensions
// CHECK: %[[B:.*]] = linalg.generic {indexing_maps = [#[[ALONG0]], #[[ID]]]{{.*}} ins(%arg0 : tensor<3xi32>)
// CHECK: linalg.generic {{.*}} ins(%[[B]], %arg1 : tensor<3x2xi32>, tensor<3x2xi32>)
// CHECK: arith.muli
// CHECK-NOT: chlo
// CHECK-NOT: stablehlo
func.func @broadcast_dimensions(%a: tensor<3xi32>, %b: tensor<3x2xi32>) -> tensor<3x2xi32> {
  %r = chlo.broadcast_multiply %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<3xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  return %r : tensor<3x2xi32>
}

// -----

// numpy's rule: trailing alignment, size-1 dimensions repeated; both operands broadcast.
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @numpy
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], {{.*}} ins(%arg0 : tensor<2x1xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[RHS]], {{.*}} ins(%arg1 : tensor<3xf32>)
// CHECK: arith.cmpf olt
func.func @numpy(%a: tensor<2x1xf32>, %b: tensor<3xf32>) -> tensor<2x3xi1> {
  %r = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>} : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %r : tensor<2x3xi1>
}

// -----

// CHECK-LABEL: func.func @top_k
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[VALUES:.*]] = linalg.fill ins(%[[NEG_INF]] : f32)
// CHECK: %[[INDICES:.*]] = linalg.fill
// CHECK: iree_linalg_ext.topk dimension(1) ins(%arg0 : tensor<2x6xf32>) outs(%[[VALUES]], %[[INDICES]] : tensor<2x3xf32>, tensor<2x3xi32>)
// CHECK: arith.cmpf ogt
func.func @top_k(%x: tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<2x6xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %v, %i : tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @functions
// CHECK: math.asin
// CHECK: math.erf
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: %[[ABS:.*]] = math.absf
// CHECK: arith.cmpf oeq, %[[ABS]], %[[INF]]
func.func @functions(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = chlo.asin %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.erf %0 : tensor<4xf32> -> tensor<4xf32>
  %2 = chlo.is_inf %1 : tensor<4xf32> -> tensor<4xi1>
  return %2 : tensor<4xi1>
}

// -----

// lgamma of f16 is computed in f32 (Lanczos' sum) and rounded once.
// CHECK-LABEL: func.func @lgamma_f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.constant 676.520386 : f32
// CHECK: math.log
// CHECK: math.sin
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @lgamma_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = chlo.lgamma %x : tensor<4xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// erf_inv: Giles' two polynomials, chosen by w = -log((1 - x)(1 + x)) < 5.
// CHECK-LABEL: func.func @erf_inv
// CHECK: arith.constant 2.81022636E-8 : f32
// CHECK: math.sqrt
// CHECK: arith.cmpf olt
// CHECK: arith.select
func.func @erf_inv(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.erf_inv %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
