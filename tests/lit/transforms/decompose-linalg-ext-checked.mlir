// RUN: kiln-opt %s -kiln-decompose-linalg-ext=check-indices=true | FileCheck %s
// RUN: kiln-opt %s -kiln-decompose-linalg-ext | FileCheck %s --check-prefix=UNCHECKED

// Checked mode: each slice offset is checked against the offsets that keep its window in
// the source (rows - window + 1) before it is clamped.
// CHECK-LABEL: func.func @gather
// CHECK: %[[DIM:.*]] = tensor.dim %{{.*}}, %c0
// CHECK: %[[LAST:.*]] = arith.subi %[[DIM]], %c2
// CHECK: %[[COUNT:.*]] = arith.addi %[[LAST]], %c1
// CHECK: linalg.generic
// CHECK: %[[R:.*]] = arith.index_cast
// CHECK: kiln.index_check %[[R]] below %[[COUNT]] for "the slice offset into dimension 0 of the source of iree_linalg_ext.gather ({{.*}}decompose-linalg-ext-checked.mlir:[[# @LINE + 5]]:8)"
// CHECK: arith.maxsi %[[R]]
// UNCHECKED-NOT: kiln.index_check
func.func @gather(%s: tensor<?x8xf32>, %i: tensor<4x1xi32>) -> tensor<4x2x8xf32> {
  %e = tensor.empty() : tensor<4x2x8xf32>
  %r = iree_linalg_ext.gather dimension_map = [0] ins(%s, %i : tensor<?x8xf32>, tensor<4x1xi32>) outs(%e : tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
  return %r : tensor<4x2x8xf32>
}

// The check is enabled by the position's mask: a masked-out position is never reported,
// even when no slice fits the source.
// CHECK-LABEL: func.func @masked_gather
// CHECK: %[[COUNT:.*]] = arith.addi
// CHECK: ^bb0(%{{.*}}: i32, %[[M:.*]]: i1, %{{.*}}: f32):
// CHECK: %[[R:.*]] = arith.index_cast
// CHECK: kiln.index_check %[[R]] below %[[COUNT]] if %[[M]] for
func.func @masked_gather(%s: tensor<16xf32>, %i: tensor<4xi32>, %m: tensor<4xi1>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = iree_linalg_ext.gather dimension_map = [0] ins(%s, %i, %m : tensor<16xf32>, tensor<4xi32>, tensor<4xi1>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
