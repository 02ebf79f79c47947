// IREE's util, flow.tensor and check ops parse in IREE's syntax and print back the same.
// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @util
// CHECK: util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
// CHECK: util.unfoldable_constant 16 : index
// CHECK: util.optimization_barrier %{{.*}}, %{{.*}} : tensor<2xi32>, index
func.func @util() -> (tensor<2xi32>, index) {
  %0 = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %n = util.unfoldable_constant 16 : index
  %1, %2 = util.optimization_barrier %0, %n : tensor<2xi32>, index
  return %1, %2 : tensor<2xi32>, index
}

// -----

// CHECK-LABEL: func.func @flow
// CHECK: flow.tensor.dynamic_constant dense<1.000000e+00> : tensor<2x3xf32> -> tensor<?x3xf32>
// CHECK: flow.tensor.tie_shape %{{.*}} : tensor<?x3xf32>{%{{.*}}}
// CHECK: flow.tensor.reshape %{{.*}} : tensor<?x3xf32>{%{{.*}}} -> tensor<6xf32>
// CHECK: flow.tensor.bitcast %{{.*}} : tensor<6xf32> -> tensor<24xi8>
func.func @flow(%n: index) -> tensor<24xi8> {
  %0 = flow.tensor.dynamic_constant dense<1.0> : tensor<2x3xf32> -> tensor<?x3xf32>
  %1 = flow.tensor.tie_shape %0 : tensor<?x3xf32>{%n}
  %2 = flow.tensor.reshape %1 : tensor<?x3xf32>{%n} -> tensor<6xf32>
  %3 = flow.tensor.bitcast %2 : tensor<6xf32> -> tensor<24xi8>
  return %3 : tensor<24xi8>
}

// -----

// CHECK-LABEL: func.func @checks
// CHECK: check.expect_true(%{{.*}}) : i32
// CHECK: check.expect_false(%{{.*}}) : i32
// CHECK: check.expect_all_true(%{{.*}}) : tensor<2xi1>
// CHECK: check.expect_eq(%{{.*}}, %{{.*}}) : tensor<2xf32>
// CHECK: check.expect_eq_const(%{{.*}}, dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : tensor<2xf32>
// CHECK: check.expect_almost_eq(%{{.*}}, %{{.*}}) : tensor<2xf32>
// CHECK: check.expect_almost_eq(%{{.*}}, %{{.*}}, atol 0.00999999977, rtol 1.000000e-03) : tensor<2xf32>
// CHECK: check.expect_almost_eq_const(%{{.*}}, dense<2.000000e+00> : tensor<2xf32>, atol 0.000000e+00, rtol 5.000000e-01) : tensor<2xf32>
func.func @checks(%i: i32, %b: tensor<2xi1>, %x: tensor<2xf32>) {
  check.expect_true(%i) : i32
  check.expect_false(%i) : i32
  check.expect_all_true(%b) : tensor<2xi1>
  check.expect_eq(%x, %x) : tensor<2xf32>
  check.expect_eq_const(%x, dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
  check.expect_almost_eq(%x, %x) : tensor<2xf32>
  check.expect_almost_eq (%x, %x, atol 1.0e-02, rtol 1.0e-03) : tensor<2xf32>
  check.expect_almost_eq_const(%x, dense<2.0> : tensor<2xf32>, atol 0.0, rtol 0.5) : tensor<2xf32>
  return
}
