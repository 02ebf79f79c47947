// RUN: kiln-opt %s -split-input-file -kiln-check-input-ops -verify-diagnostics | FileCheck %s

// Supported input passes through unchanged.
// CHECK-LABEL: func.func @elementwise_add
// CHECK: linalg.add
func.func @elementwise_add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %sum = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  return %sum : tensor<4xf32>
}

// -----

// An op of an input dialect that kiln does not compile is named, at its location.
func.func @generate(%n: index) -> tensor<?xf32> {
  // expected-error @+1 {{'tensor.generate' is not supported by kiln; supported input: func, arith}}
  %t = tensor.generate %n {
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    tensor.yield %one : f32
  } : tensor<?xf32>
  return %t : tensor<?xf32>
}

// -----

// Every unsupported op is reported, not only the first.
func.func @two(%t: tensor<4xf32>, %i: tensor<2x1xindex>) -> (tensor<2xf32>, tensor<2xf32>) {
  // expected-error @+1 {{'tensor.gather' is not supported by kiln}}
  %g = tensor.gather %t[%i] gather_dims([0]) unique : (tensor<4xf32>, tensor<2x1xindex>) -> tensor<2xf32>
  // expected-error @+1 {{'tensor.gather' is not supported by kiln}}
  %h = tensor.gather %t[%i] gather_dims([0]) unique : (tensor<4xf32>, tensor<2x1xindex>) -> tensor<2xf32>
  return %g, %h : tensor<2xf32>, tensor<2xf32>
}
