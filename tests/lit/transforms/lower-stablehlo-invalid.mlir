// kiln-lower-stablehlo names each op (or form of one) it does not lower, and fails.
// RUN: kiln-opt %s -split-input-file -kiln-lower-stablehlo -verify-diagnostics
// RUN: not kiln-opt %s -split-input-file -kiln-lower-stablehlo -o /dev/null

func.func @scatter_two_inputs(%a: tensor<8xi32>, %i: tensor<4x1xi32>, %u: tensor<4xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{'stablehlo.scatter' of several inputs is not lowered yet}}
  %0:2 = "stablehlo.scatter"(%a, %a, %i, %u, %u) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>, %z: tensor<i32>, %w: tensor<i32>):
    "stablehlo.return"(%z, %w) : (tensor<i32>, tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<8xi32>, tensor<8xi32>, tensor<4x1xi32>, tensor<4xi32>, tensor<4xi32>) -> (tensor<8xi32>, tensor<8xi32>)
  return %0#0 : tensor<8xi32>
}

// -----

func.func @unsigned(%a: tensor<4xui32>) -> tensor<4xui32> {
  // expected-error @+1 {{unsigned element types are not lowered yet: 'stablehlo.add' of 'ui32'}}
  %0 = "stablehlo.add"(%a, %a) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'stablehlo.reverse' with dynamic shapes is not lowered yet}}
  %0 = "stablehlo.reverse"(%a) {dimensions = array<i64: 0>} : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @body_op(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  %r = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    // expected-error @+1 {{'stablehlo.reshape' in a stablehlo body is not lowered yet}}
    %s = "stablehlo.reshape"(%p) : (tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @chlo_dynamic(%a: tensor<?xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' with dynamic shapes is not lowered yet}}
  %r = chlo.broadcast_add %a, %b : (tensor<?xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

func.func @custom_call_unknown(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' target @ProductOfElementaryHouseholderReflectors is unknown to kiln: only @shape_assertion is lowered}}
  %r = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

func.func @shape_assertion_false() {
  %false = stablehlo.constant dense<false> : tensor<i1>
  // expected-error @+1 {{@shape_assertion is false: the batch must be even}}
  stablehlo.custom_call @shape_assertion(%false) {error_message = "the batch must be even", has_side_effect = true} : (tensor<i1>) -> ()
  return
}

// -----

func.func @shape_assertion_not_scalar(%p: tensor<4xi1>) {
  // expected-warning @+1 {{@shape_assertion with a 'tensor<4xi1>' predicate is not JAX's form (a 0-d i1); it is not checked}}
  stablehlo.custom_call @shape_assertion(%p) {error_message = "x", has_side_effect = true} : (tensor<4xi1>) -> ()
  return
}

// -----

func.func @rng_u64_state(%s: tensor<2xi64>) -> tensor<8xi32> {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' from a 'tensor<2xi64>' state into 'tensor<8xi32>' is not lowered yet (only a tensor<4xi32> state and i32 bits)}}
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xi64>) -> (tensor<2xi64>, tensor<8xi32>)
  return %0#1 : tensor<8xi32>
}
