// IREE's module state and functions in util (globals, loads and stores, addresses,
// initializers, util.func/call/return) and the parameter attributes parse and print back.
// RUN: kiln-opt %s | FileCheck %s
// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// CHECK: util.global private mutable @counter = dense<2.000000e+00> : tensor<f32>
util.global private mutable @counter = dense<2.0> : tensor<f32>
// CHECK: util.global private @w = #stream.parameter.named<"model"::"blk.0.w"> : tensor<4x8xf16>
util.global private @w = #stream.parameter.named<"model"::"blk.0.w"> : tensor<4x8xf16>
// CHECK: util.global private @unscoped = #flow.parameter.named<"bias"> : tensor<8xf32>
util.global private @unscoped = #flow.parameter.named<"bias"> : tensor<8xf32>
// CHECK: util.global private @configured = #stream.parameter.named<"model"::"x", {mode = "mmap"}> : tensor<2xf32>
util.global private @configured = #stream.parameter.named<"model"::"x", {mode = "mmap"}> : tensor<2xf32>
// CHECK: util.global private mutable @cache = #util.uninitialized : tensor<4x16xf16>
util.global private mutable @cache = #util.uninitialized : tensor<4x16xf16>
// CHECK: util.global private mutable @step : i64
util.global private mutable @step : i64
// CHECK: util.global public @seed {inlining_policy = "never"} = 7 : i32
util.global public @seed {inlining_policy = "never"} = 7 : i32

// CHECK: util.initializer {
// CHECK:   util.global.store %{{.*}}, @step : i64
// CHECK:   util.return
util.initializer {
  %c = arith.constant 3 : i64
  util.global.store %c, @step : i64
  util.return
}

// CHECK-LABEL: util.func public @main(
// CHECK-SAME:    %{{.*}}: tensor<f32> {iree.abi.name = "x"}) -> tensor<f32>
// CHECK:   util.global.load @counter : tensor<f32>
// CHECK:   util.global.load immutable @w : tensor<4x8xf16>
// CHECK:   util.global.address @counter : !util.ptr<tensor<f32>>
// CHECK:   util.global.load.indirect %{{.*}} : !util.ptr<tensor<f32>> -> tensor<f32>
// CHECK:   util.global.store.indirect %{{.*}}, %{{.*}} : tensor<f32> -> !util.ptr<tensor<f32>>
// CHECK:   util.call @helper(%{{.*}}) : (tensor<f32>) -> tensor<f32>
// CHECK:   util.return %{{.*}} : tensor<f32>
util.func public @main(%x: tensor<f32> {iree.abi.name = "x"}) -> tensor<f32> {
  %0 = util.global.load @counter : tensor<f32>
  %1 = util.global.load immutable @w : tensor<4x8xf16>
  %p = util.global.address @counter : !util.ptr<tensor<f32>>
  %2 = util.global.load.indirect %p : !util.ptr<tensor<f32>> -> tensor<f32>
  util.global.store.indirect %x, %p : tensor<f32> -> !util.ptr<tensor<f32>>
  %3 = util.call @helper(%2) : (tensor<f32>) -> tensor<f32>
  util.return %3 : tensor<f32>
}

// CHECK-LABEL: util.func private @helper(
util.func private @helper(%a: tensor<f32>) -> tensor<f32> {
  util.return %a : tensor<f32>
}
