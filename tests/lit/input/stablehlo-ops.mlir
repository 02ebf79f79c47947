// kiln's stablehlo dialect parses StableHLO's generic and pretty forms and prints them back
// in a form it parses again to the same program.
// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @elementwise
// CHECK: %[[S:.*]] = stablehlo.add %arg0, %arg1 : tensor<4xf32>
// CHECK: stablehlo.exponential %[[S]] : tensor<4xf32>
// CHECK: stablehlo.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: stablehlo.compare LT, %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: stablehlo.compare GE, %arg0, %arg1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: stablehlo.select %{{.*}}, %arg0, %arg1 : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xi1>) {
  %s = "stablehlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %e = stablehlo.exponential %s : (tensor<4xf32>) -> tensor<4xf32>
  %i = "stablehlo.convert"(%e) : (tensor<4xf32>) -> tensor<4xi32>
  %lt = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %m = "stablehlo.select"(%lt, %a, %b) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %i, %m, %ge : tensor<4xi32>, tensor<4xf32>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @reduce
// CHECK: stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: "stablehlo.reduce"(%arg0, %{{.*}}) <{dimensions = array<i64: 1>}>
// CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<f32>
// CHECK: stablehlo.return %{{.*}} : tensor<f32>
func.func @reduce(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce"(%x, %zero) ({
  ^bb0(%acc: tensor<f32>, %v: tensor<f32>):
    %s = "stablehlo.add"(%acc, %v) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @dimension_numbers
// CHECK: dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>
// CHECK-SAME: precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]
// CHECK: dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>
func.func @dimension_numbers(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %t: tensor<6x7xf32>, %i: tensor<3x1xi32>)
    -> (tensor<2x3x5xf32>, tensor<3x7xf32>) {
  %d = "stablehlo.dot_general"(%a, %b) {
    dot_dimension_numbers = #stablehlo.dot<rhs_contracting_dimensions = [1], lhs_batching_dimensions = [0],
                                           rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2],>,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]
  } : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %g = "stablehlo.gather"(%t, %i) {
    dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], index_vector_dim = 1, offset_dims = [1],
                                          start_index_map = [0]>,
    slice_sizes = array<i64: 1, 7>
  } : (tensor<6x7xf32>, tensor<3x1xi32>) -> tensor<3x7xf32>
  return %d, %g : tensor<2x3x5xf32>, tensor<3x7xf32>
}
