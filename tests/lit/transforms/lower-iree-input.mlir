// RUN: kiln-opt %s -kiln-lower-iree-input | FileCheck %s

// Constants go behind barriers (cast to the dynamic type first for dynamic_constant),
// tie_shape disappears, and checks against constants compare with a constant.
// CHECK-LABEL: func.func @lower
// CHECK: %[[C:.*]] = arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK: %[[U:.*]] = util.optimization_barrier %[[C]] : tensor<2xi32>
// CHECK: %[[D:.*]] = arith.constant dense<1.000000e+00> : tensor<2x3xf32>
// CHECK: %[[CAST:.*]] = tensor.cast %[[D]] : tensor<2x3xf32> to tensor<?x3xf32>
// CHECK: %[[B:.*]] = util.optimization_barrier %[[CAST]] : tensor<?x3xf32>
// CHECK-NOT: flow.tensor.tie_shape
// CHECK: %[[E:.*]] = arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK: check.expect_eq(%[[U]], %[[E]]) : tensor<2xi32>
// CHECK: %[[F:.*]] = arith.constant dense<2.000000e+00> : tensor<2x3xf32>
// CHECK: check.expect_almost_eq(%{{.*}}, %[[F]], atol 1.000000e-03) : tensor<2x3xf32>
// CHECK: return %[[B]]
func.func @lower(%n: index) -> tensor<?x3xf32> {
  %0 = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %1 = flow.tensor.dynamic_constant dense<1.0> : tensor<2x3xf32> -> tensor<?x3xf32>
  %2 = flow.tensor.tie_shape %1 : tensor<?x3xf32>{%n}
  check.expect_eq_const(%0, dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>
  %3 = tensor.cast %2 : tensor<?x3xf32> to tensor<2x3xf32>
  check.expect_almost_eq_const(%3, dense<2.0> : tensor<2x3xf32>, atol 1.0e-3) : tensor<2x3xf32>
  return %2 : tensor<?x3xf32>
}
