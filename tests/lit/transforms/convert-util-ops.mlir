// kiln-convert-util-ops: util.func/call/return become func ops, initializers private
// kiln.initializer functions in order, and indirect global accesses direct ones.
// RUN: kiln-opt %s -kiln-convert-util-ops -split-input-file -verify-diagnostics | FileCheck %s

util.global private mutable @state = dense<0.0> : tensor<f32>

// CHECK-LABEL: func.func private @__kiln_initializer_0() attributes {kiln.initializer}
// CHECK:   util.global.store %{{.*}}, @state : tensor<f32>
// CHECK:   return
util.initializer {
  %c = arith.constant dense<2.0> : tensor<f32>
  util.global.store %c, @state : tensor<f32>
  util.return
}

// CHECK-LABEL: func.func @get(%{{.*}}: tensor<f32> {iree.abi.name = "x"}) -> tensor<f32>
// CHECK-NOT:  util.global.address
// CHECK:      %[[A:.*]] = util.global.load @state : tensor<f32>
// CHECK:      util.global.store %[[A]], @state : tensor<f32>
// CHECK:      %[[R:.*]] = call @twice(%[[A]]) : (tensor<f32>) -> tensor<f32>
// CHECK:      return %[[R]] : tensor<f32>
util.func public @get(%x: tensor<f32> {iree.abi.name = "x"}) -> tensor<f32> {
  %p = util.global.address @state : !util.ptr<tensor<f32>>
  %0 = util.global.load.indirect %p : !util.ptr<tensor<f32>> -> tensor<f32>
  util.global.store.indirect %0, %p : tensor<f32> -> !util.ptr<tensor<f32>>
  %1 = util.call @twice(%0) : (tensor<f32>) -> tensor<f32>
  util.return %1 : tensor<f32>
}

// CHECK-LABEL: func.func private @twice
util.func private @twice(%a: tensor<f32>) -> tensor<f32> {
  %0 = arith.addf %a, %a : tensor<f32>
  util.return %0 : tensor<f32>
}

// CHECK-LABEL: func.func private @__kiln_initializer_1() attributes {kiln.initializer}
util.initializer {
  util.return
}

// -----

util.global private mutable @a = dense<0.0> : tensor<f32>
util.global private mutable @b = dense<0.0> : tensor<f32>
func.func @selected(%c: i1) -> tensor<f32> {
  %pa = util.global.address @a : !util.ptr<tensor<f32>>
  %pb = util.global.address @b : !util.ptr<tensor<f32>>
  %p = arith.select %c, %pa, %pb : !util.ptr<tensor<f32>>
  // expected-error @+1 {{accesses a global through an address that is not a util.global.address in the same function}}
  %0 = util.global.load.indirect %p : !util.ptr<tensor<f32>> -> tensor<f32>
  return %0 : tensor<f32>
}
