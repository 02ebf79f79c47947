// Ill-formed IREE input ops get a diagnostic naming the problem.
// RUN: kiln-opt %s -split-input-file -verify-diagnostics

func.func @bitcast_size(%x: tensor<4xi8>) -> tensor<2xf32> {
  // expected-error @+1 {{'flow.tensor.bitcast' op source 'tensor<4xi8>' holds 32 bits but result 'tensor<2xf32>' holds 64}}
  %0 = flow.tensor.bitcast %x : tensor<4xi8> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reshape_dims(%x: tensor<?x4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'flow.tensor.reshape' op source type 'tensor<?x4xf32>' has 1 dynamic dimensions but 0 were given}}
  %0 = flow.tensor.reshape %x : tensor<?x4xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @dynamic_constant_shape() -> tensor<?x4xf32> {
  // expected-error @+1 {{'flow.tensor.dynamic_constant' op dimension 1 of 'tensor<?x4xf32>' disagrees with the value's type 'tensor<2x3xf32>'}}
  %0 = flow.tensor.dynamic_constant dense<1.0> : tensor<2x3xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @expect_const_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{'check.expect_eq_const' op constant of type 'tensor<3xf32>' compared with a value of type 'tensor<2xf32>'}}
  check.expect_eq_const(%x, dense<1.0> : tensor<3xf32>) : tensor<2xf32>
  return
}
