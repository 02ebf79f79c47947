// kiln's chlo dialect parses CHLO's pretty and generic forms and prints them back in a
// form it parses again to the same program.
// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file -mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @broadcasting
// CHECK: chlo.broadcast_add %arg0, %arg1 : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK: chlo.broadcast_multiply %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK: chlo.broadcast_compare %arg0, %arg1 {compare_type = #chlo<comparison_type FLOAT>, comparison_direction = #chlo<comparison_direction LT>}
// CHECK: chlo.broadcast_select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK: chlo.broadcast_shift_right_logical %arg3, %arg4 : (tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x3xi32>
func.func @broadcasting(%a: tensor<4xf32>, %b: tensor<3x4xf32>, %s: tensor<f32>, %i: tensor<2x1xi32>, %j: tensor<3xi32>)
    -> (tensor<3x4xf32>, tensor<2x3xi32>) {
  %0 = "chlo.broadcast_add"(%a, %b) : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = chlo.broadcast_multiply %a, %b {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %2 = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>, compare_type = #chlo<comparison_type FLOAT>} : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
  %3 = chlo.broadcast_select %2, %0, %s : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %4 = chlo.broadcast_shift_right_logical %i, %j : (tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %3, %4 : tensor<3x4xf32>, tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @functions
// CHECK: chlo.erf_inv %arg0 : tensor<4xf32> -> tensor<4xf32>
// CHECK: chlo.lgamma %{{.*}} : tensor<4xf32> -> tensor<4xf32>
// CHECK: chlo.digamma %{{.*}} : tensor<4xf32> -> tensor<4xf32>
// CHECK: chlo.is_neg_inf %{{.*}} : tensor<4xf32> -> tensor<4xi1>
func.func @functions(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = chlo.erf_inv %x : tensor<4xf32> -> tensor<4xf32>
  %1 = "chlo.lgamma"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = chlo.digamma %1 : tensor<4xf32> -> tensor<4xf32>
  %3 = chlo.is_neg_inf %2 : tensor<4xf32> -> tensor<4xi1>
  return %3 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @top_k
// CHECK: %values, %indices = chlo.top_k(%arg0, k = 3) : tensor<2x10xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
func.func @top_k(%x: tensor<2x10xf32>) -> tensor<2x3xi32> {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<2x10xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %i : tensor<2x3xi32>
}
