// What the util state ops' verifiers refuse, each naming the rule.
// RUN: kiln-opt %s -split-input-file -verify-diagnostics

util.global private @frozen = dense<1.0> : tensor<f32>
func.func @store_immutable(%v: tensor<f32>) {
  // expected-error @+1 {{stores global @frozen, which is immutable; only a util.initializer may store it (declare it 'mutable')}}
  util.global.store %v, @frozen : tensor<f32>
  return
}

// -----

util.global private mutable @g = dense<1.0> : tensor<f32>
func.func @wrong_type() -> tensor<2xf32> {
  // expected-error @+1 {{result type 'tensor<2xf32>' does not match the type 'tensor<f32>' of global @g}}
  %0 = util.global.load @g : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unknown() -> tensor<f32> {
  // expected-error @+1 {{refers to @missing, which is not a util.global}}
  %0 = util.global.load @missing : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// expected-error @+1 {{has an initial value of type 'tensor<2xf32>' for a global of type 'tensor<3xf32>'}}
util.global private @mismatch = dense<[1.0, 2.0]> : tensor<2xf32> : tensor<3xf32>

// -----

// expected-error @+1 {{binds a parameter to a value of type 'tensor<?xf32>'; a parameter fills a statically shaped tensor}}
util.global private @dynamic = #stream.parameter.named<"model"::"w"> : tensor<?xf32>

// -----

// expected-error @+1 {{holds a value of type 'memref<4xf32>'; kiln keeps ranked tensors, integers, index and floats in globals}}
util.global private @memref : memref<4xf32>

// -----

util.global private @init_stores_immutable : tensor<f32>
util.initializer {
  %c = arith.constant dense<5.0> : tensor<f32>
  util.global.store %c, @init_stores_immutable : tensor<f32>
  util.return
}
func.func private @f(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}
func.func @bad_call(%a: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{calls @f of type '(tensor<f32>) -> tensor<f32>' with operands ('tensor<f32>') and results ('tensor<2xf32>')}}
  %0 = util.call @f(%a) : (tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
