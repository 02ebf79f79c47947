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

// -----

// Convolution: the generic form with either form of #stablehlo.conv, printed in the pretty
// form JAX writes.
// CHECK-LABEL: func.func @convolution
// CHECK: stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x2x2x1xf32>) -> tensor<1x2x3x1xf32>
// CHECK: stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2], pad = {{\[\[}}1, 2]], lhs_dilate = [2], rhs_dilate = [1], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x5xf32>, tensor<4x3x3xf32>) -> tensor<2x4x5xf32>
// CHECK: stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2], pad = {{\[\[}}1, 2]], lhs_dilate = [2], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x5xf32>, tensor<4x3x3xf32>) -> tensor<2x4x5xf32>
func.func @convolution(%x: tensor<1x4x4x2xf32>, %w: tensor<3x2x2x1xf32>, %y: tensor<2x3x5xf32>, %v: tensor<4x3x3xf32>)
    -> (tensor<1x2x3x1xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>) {
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64,
      dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3,
        input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3,
        kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3,
        output_spatial_dimensions = [1, 2]>,
      feature_group_count = 1 : i64, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}
      : (tensor<1x4x4x2xf32>, tensor<3x2x2x1xf32>) -> tensor<1x2x3x1xf32>
  %1 = "stablehlo.convolution"(%y, %v) {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
      dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, window_strides = array<i64: 2>,
      padding = dense<[[1, 2]]> : tensor<1x2xi64>, lhs_dilation = array<i64: 2>, window_reversal = array<i1: true>}
      : (tensor<2x3x5xf32>, tensor<4x3x3xf32>) -> tensor<2x4x5xf32>
  %2 = stablehlo.convolution(%y, %v) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2], pad = [[1, 2]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x5xf32>, tensor<4x3x3xf32>) -> tensor<2x4x5xf32>
  return %0, %1, %2 : tensor<1x2x3x1xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>
}

// -----

// CHECK-LABEL: func.func @custom_call
// CHECK: stablehlo.custom_call @shape_assertion(%arg0, %arg1) {error_message = "too big", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
// CHECK: %[[R:.*]] = stablehlo.custom_call @foo(%arg1) {backend_config = "x"} : (tensor<i32>) -> tensor<i32>
func.func @custom_call(%ok: tensor<i1>, %n: tensor<i32>) -> tensor<i32> {
  stablehlo.custom_call @shape_assertion(%ok, %n) {error_message = "too big", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  %r = "stablehlo.custom_call"(%n) {call_target_name = "foo", backend_config = "x"} : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// CHECK-LABEL: func.func @rng_bit_generator
// CHECK: "stablehlo.rng_bit_generator"(%arg0) <{rng_algorithm = #stablehlo<rng_algorithm PHILOX>}> : (tensor<4xi32>) -> (tensor<4xi32>, tensor<2x3xi32>)
func.func @rng_bit_generator(%s: tensor<4xi32>) -> tensor<2x3xi32> {
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<2x3xi32>)
  return %0#1 : tensor<2x3xi32>
}
