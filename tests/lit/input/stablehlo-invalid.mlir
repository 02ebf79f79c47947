// The stablehlo verifiers name the operand and the rule it breaks.
// RUN: kiln-opt %s -split-input-file -verify-diagnostics

func.func @add_shapes(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.add' op operand #1 (rhs) of type 'tensor<3xf32>' does not have the result's shape}}
  %r = "stablehlo.add"(%a, %b) : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @add_elements(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #1 (rhs) has element type 'f16' but the result has 'f32'}}
  %r = "stablehlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @select_pred(%p: tensor<4xi32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #0 (pred) has element type 'i32', not i1}}
  %r = "stablehlo.select"(%p, %a, %a) : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @clamp_bound(%lo: tensor<2xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #0 (min) of type 'tensor<2xf32>' is neither 0-d nor of the operand's shape}}
  %r = "stablehlo.clamp"(%lo, %x, %lo) : (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @compare_type(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{comparison type SIGNED does not apply to 'f32'}}
  %r = stablehlo.compare LT, %a, %a, SIGNED : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

func.func @bitcast_width(%a: tensor<4xf32>) -> tensor<4xi16> {
  // expected-error @+1 {{operand element type 'f32' and result element type 'i16' differ in width}}
  %r = "stablehlo.bitcast_convert"(%a) : (tensor<4xf32>) -> tensor<4xi16>
  return %r : tensor<4xi16>
}

// -----

func.func @broadcast_size(%a: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{operand dimension 0 of size 3 is neither 1 nor the size of result dimension 1}}
  %r = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

func.func @transpose_permutation(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{permutation is not a permutation of the operand's dimensions (entry 1)}}
  %r = "stablehlo.transpose"(%a) {permutation = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

func.func @slice_bounds(%a: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{dimension 0: [3, 5) is not within the operand's 4}}
  %r = "stablehlo.slice"(%a) {start_indices = array<i64: 3>, limit_indices = array<i64: 5>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

func.func @dynamic_slice_index(%a: tensor<4xf32>, %i: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{operand #1 (start index 0) of type 'tensor<f32>' is not a 0-d integer tensor}}
  %r = "stablehlo.dynamic_slice"(%a, %i) {slice_sizes = array<i64: 2>} : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

func.func @concatenate_total(%a: tensor<2x2xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{result dimension 1 is not the inputs' total 4}}
  %r = "stablehlo.concatenate"(%a, %a) {dimension = 1} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  return %r : tensor<2x5xf32>
}

// -----

func.func @pad_size(%a: tensor<3xf32>, %v: tensor<f32>) -> tensor<6xf32> {
  // expected-error @+1 {{result dimension 0 of 'tensor<6xf32>' is not the padded size 7}}
  %r = "stablehlo.pad"(%a, %v) {edge_padding_low = array<i64: 1>, edge_padding_high = array<i64: 1>, interior_padding = array<i64: 1>} : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

func.func @reduce_init(%x: tensor<4x8xf32>, %init: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #1 (init value) of type 'tensor<2xf32>' is not a 0-d tensor of 'f32'}}
  %r = "stablehlo.reduce"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<4x8xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @sort_comparator(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{body returns 'tensor<f32>' as value #0; expected 'tensor<i1>'}}
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @dot_general_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{lhs dimension 1 (3) and rhs dimension 0 (4) are paired but differ in size}}
  %r = "stablehlo.dot_general"(%a, %b) {
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>
  } : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %r : tensor<2x5xf32>
}

// -----

func.func @dot_numbers_key(%a: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{unknown dimension-numbers key 'lhs_contracting_dims'}}
  %r = "stablehlo.dot_general"(%a, %a) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dims = [1]>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

func.func @reduce_window_padding(%x: tensor<6xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{padding must be [1, 2], not 'tensor<2x2xi64>'}}
  %r = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 3>, padding = dense<0> : tensor<2x2xi64>} : (tensor<6xf32>, tensor<f32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func @batch_norm_mean(%x: tensor<2x4xf32>, %s: tensor<4xf32>, %m: tensor<2xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{operand #3 (mean) of type 'tensor<2xf32>' is not 'tensor<4xf32>'}}
  %r = "stablehlo.batch_norm_inference"(%x, %s, %s, %m, %s) {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

func.func @conv_layout(%x: tensor<1x4x4x2xf32>, %w: tensor<3x2x2x1xf32>) -> tensor<1x2x3x1xf32> {
  // expected-error @+1 {{expected 'b', 'f' (once each) or a spatial dimension number, got 'x'}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, x]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x2x2x1xf32>) -> tensor<1x2x3x1xf32>
  return %0 : tensor<1x2x3x1xf32>
}

// -----

func.func @conv_features(%x: tensor<1x4x4x2xf32>, %w: tensor<3x2x3x1xf32>) -> tensor<1x2x3x1xf32> {
  // expected-error @+1 {{operand #0 (lhs) has 2 input features, not rhs's kernel input features (3) times feature_group_count (1)}}
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, feature_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>} : (tensor<1x4x4x2xf32>, tensor<3x2x3x1xf32>) -> tensor<1x2x3x1xf32>
  return %0 : tensor<1x2x3x1xf32>
}

// -----

func.func @conv_result(%x: tensor<1x4x4x2xf32>, %w: tensor<3x2x2x1xf32>) -> tensor<1x3x3x1xf32> {
  // expected-error @+1 {{result type 'tensor<1x3x3x1xf32>' should have shape [1, 2, 3, 1]}}
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, feature_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>} : (tensor<1x4x4x2xf32>, tensor<3x2x2x1xf32>) -> tensor<1x3x3x1xf32>
  return %0 : tensor<1x3x3x1xf32>
}

// -----

func.func @conv_groups(%x: tensor<2x4x4x2xf32>, %w: tensor<3x2x1x2xf32>) -> tensor<1x2x3x2xf32> {
  // expected-error @+1 {{feature_group_count (2) and batch_group_count (2) must be positive, and one of them 1}}
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 2 : i64, feature_group_count = 2 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>} : (tensor<2x4x4x2xf32>, tensor<3x2x1x2xf32>) -> tensor<1x2x3x2xf32>
  return %0 : tensor<1x2x3x2xf32>
}

// -----

func.func @conv_padding(%x: tensor<1x4x4x2xf32>, %w: tensor<3x2x2x1xf32>) -> tensor<1x2x3x1xf32> {
  // expected-error @+1 {{padding must be [2, 2], not 'tensor<1x2xi64>'}}
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, feature_group_count = 1 : i64, padding = dense<0> : tensor<1x2xi64>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>} : (tensor<1x4x4x2xf32>, tensor<3x2x2x1xf32>) -> tensor<1x2x3x1xf32>
  return %0 : tensor<1x2x3x1xf32>
}

// -----

func.func @shape_assertion_predicate(%n: tensor<i32>) {
  // expected-error @+1 {{@shape_assertion takes an i1 tensor predicate as operand #0}}
  stablehlo.custom_call @shape_assertion(%n) {error_message = "x"} : (tensor<i32>) -> ()
  return
}

// -----

func.func @rng_state(%s: tensor<4xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{result #0 (output_state) of type 'tensor<2xi64>' differs from the initial state's 'tensor<4xi32>'}}
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<4xi32>) -> (tensor<2xi64>, tensor<8xi32>)
  return %0#1 : tensor<8xi32>
}
