// The chlo verifiers name the operand and the rule it breaks.
// RUN: kiln-opt %s -split-input-file -verify-diagnostics

func.func @sizes(%a: tensor<3xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op operand #1 (rhs) dimension 1 of size 4 is neither 1 nor 3, the size of operand #0 (lhs) it broadcasts with}}
  %r = chlo.broadcast_add %a, %b : (tensor<3xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

func.func @dimensions_size(%a: tensor<3xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{broadcast_dimensions has 2 entries, not one per dimension of the lower-rank operand (1)}}
  %r = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 0, 1>} : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

func.func @dimensions_range(%a: tensor<3xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{broadcast_dimensions entry 2 is out of [0, 2) or repeated}}
  %r = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 2>} : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

func.func @dimensions_placed(%a: tensor<3xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{operand #1 (rhs) dimension 1 of size 4 is neither 1 nor 3, the size of operand #0 (lhs)}}
  %r = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

func.func @result_shape(%a: tensor<4xf32>, %b: tensor<3x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{result type 'tensor<4x4xf32>' does not have the operands' broadcast shape [3, 4]}}
  %r = chlo.broadcast_add %a, %b : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @elements(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #1 (rhs) has element type 'f16' but operand #0 (lhs) has 'f32'}}
  %r = chlo.broadcast_subtract %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @compare_result(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result element type 'f32' is not 'i1'}}
  %r = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @select_pred(%p: tensor<4xi32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #0 (pred) has element type 'i32', not i1}}
  %r = chlo.broadcast_select %p, %a, %a : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @select_shapes(%p: tensor<2xi1>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{operand #1 (on_true) dimension 0 of size 3 is neither 1 nor 2, the size of operand #0 (pred)}}
  %r = chlo.broadcast_select %p, %a, %a : (tensor<2xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func @unary_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.erf' op operand #0 (operand) has element type 'i32'; it takes floats}}
  %r = chlo.erf %x : tensor<4xi32> -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @class_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.is_inf' op result element type 'f32' is not 'i1'}}
  %r = chlo.is_inf %x : tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @top_k_k(%x: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{k = 5 is not in [0, 4], the operand's last dimension}}
  %v, %i = chlo.top_k(%x, k = 5) : tensor<4xf32> -> (tensor<5xf32>, tensor<5xi32>)
  return %v : tensor<5xf32>
}

// -----

func.func @top_k_indices(%x: tensor<4xf32>) -> tensor<2xi64> {
  // expected-error @+1 {{result #1 (indices) of type 'tensor<2xi64>' is not 'tensor<2xi32>'}}
  %v, %i = chlo.top_k(%x, k = 2) : tensor<4xf32> -> (tensor<2xf32>, tensor<2xi64>)
  return %i : tensor<2xi64>
}
