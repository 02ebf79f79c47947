// RUN: kiln-opt %s -kiln-check-extract-indices | FileCheck %s

// A data-dependent coordinate is checked against its dimension and clamped into it; a
// constant inside a static dimension is left alone; extracts outside generics too.
// CHECK-LABEL: func.func @embedding
// CHECK-SAME: (%[[TABLE:.*]]: tensor<?x4xf32>, %[[IDS:.*]]: tensor<3xi32>)
// CHECK: %[[ROWS:.*]] = tensor.dim %[[TABLE]], %c0
// CHECK: %[[LAST:.*]] = arith.subi %[[ROWS]], %c1
// CHECK: linalg.generic
// CHECK: %[[ROW:.*]] = arith.index_cast
// CHECK: %[[COL:.*]] = linalg.index 1
// CHECK: kiln.index_check %[[ROW]] below %[[ROWS]] for "dimension 0 of the tensor of tensor.extract ({{.*}}check-extract-indices.mlir:[[# @LINE + 16]]:10)"
// CHECK: %[[LO:.*]] = arith.maxsi %[[ROW]], %c0
// CHECK: %[[IN:.*]] = arith.minsi %[[LO]], %[[LAST]]
// CHECK: kiln.index_check %[[COL]] below
// CHECK: tensor.extract %[[TABLE]][%[[IN]], %{{.*}}] : tensor<?x4xf32>
// CHECK: tensor.extract %[[TABLE]][%{{.*}}, %c2] : tensor<?x4xf32>
// CHECK-NOT: kiln.index_check
// CHECK: return
func.func @embedding(%table: tensor<?x4xf32>, %ids: tensor<3xi32>) -> (tensor<3x4xf32>, f32) {
  %e = tensor.empty() : tensor<3x4xf32>
  %c2 = arith.constant 2 : index
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<3xi32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%id: i32, %out: f32):
    %row = arith.index_cast %id : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<?x4xf32>
    %w = tensor.extract %table[%row, %c2] : tensor<?x4xf32>
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<3x4xf32>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %table[%c0, %c0] : tensor<?x4xf32>
  return %r, %x : tensor<3x4xf32>, f32
}

// A tensor made inside the body has its size read inside the body too.
// CHECK-LABEL: func.func @made_inside
// CHECK: linalg.generic
// CHECK: %[[T:.*]] = tensor.from_elements
// CHECK: %[[N:.*]] = tensor.dim %[[T]], %c0
// CHECK: kiln.index_check %{{.*}} below %[[N]]
func.func @made_inside(%ids: tensor<3xindex>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]} ins(%ids : tensor<3xindex>) outs(%e : tensor<3xf32>) {
  ^bb0(%id: index, %out: f32):
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %t = tensor.from_elements %one, %two : tensor<2xf32>
    %v = tensor.extract %t[%id] : tensor<2xf32>
    linalg.yield %v : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
