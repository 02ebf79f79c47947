// RUN: kiln-opt %s -split-input-file -kiln-form-dispatches -cse | FileCheck %s

// A fill feeding a matmul is cloned into the matmul's dispatch and not dispatched alone;
// the dynamic row count reaches the kernel as a push constant and sizes the result.
// CHECK-LABEL: func.func @matmul_relu
// CHECK-SAME: (%[[A:.*]]: tensor<?x8xf32>, %[[B:.*]]: tensor<8x16xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %c0
// CHECK: %[[MM:.*]] = kiln.dispatch @kiln_executable::@matmul_relu_dispatch_1_matmul(%[[A]], %[[B]]) constants(%[[N]], %[[N]] : index, index) result_dims(%[[N]])
// CHECK: %[[R:.*]] = kiln.dispatch @kiln_executable::@matmul_relu_dispatch_2_generic(%[[MM]]) constants(%[[N]] : index) result_dims(%[[N]])
// CHECK: return %[[R]]
// CHECK-NOT: linalg.fill
// CHECK: module @kiln_executable attributes {kiln.executable}
// CHECK: func.func @matmul_relu_dispatch_2_generic(%{{.*}}: memref<?x16xf32>, %[[OUT:.*]]: memref<?x16xf32>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index)
// CHECK-SAME: kiln.binding_dims = [array<i64: 0, -1>, array<i64: 0, -1>], kiln.input_count = 1
// CHECK: linalg.generic {{.*}} attrs = {kiln.root}
// CHECK: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[OUT]]
// CHECK: func.func @matmul_relu_dispatch_1_matmul(%[[IA:.*]]: memref<?x8xf32>, %[[IB:.*]]: memref<8x16xf32>, %[[MOUT:.*]]: memref<?x16xf32>, %[[ROWS:[a-z0-9]+]]: index
// CHECK-DAG: bufferization.to_tensor %[[IA]] restrict
// CHECK-DAG: tensor.empty(%[[ROWS]])
// CHECK: linalg.fill
// CHECK: linalg.matmul {kiln.root}
// CHECK: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[MOUT]]
func.func @matmul_relu(%a: tensor<?x8xf32>, %b: tensor<8x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x16xf32>) outs(%f : tensor<?x16xf32>) -> tensor<?x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// A slice feeding a consumer is read through the view inside the consumer's kernel: the
// whole source is the binding, and the slice offset is a push constant.
// CHECK-LABEL: func.func @slice_then_negate
// CHECK-SAME: (%[[SRC:.*]]: tensor<16x4xf32>, %[[OFF:.*]]: index)
// CHECK: kiln.dispatch @kiln_executable::@slice_then_negate_dispatch_1_negf(%[[SRC]]) constants(%[[OFF]] : index) : (tensor<16x4xf32>) -> tensor<8x4xf32>
// CHECK-NOT: kiln.dispatch
// CHECK: func.func @slice_then_negate_dispatch_1_negf
// CHECK: tensor.extract_slice
// CHECK: linalg.negf {kiln.root}
func.func @slice_then_negate(%src: tensor<16x4xf32>, %off: index) -> tensor<8x4xf32> {
  %s = tensor.extract_slice %src[%off, 0] [8, 4] [1, 1] : tensor<16x4xf32> to tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %n = linalg.negf ins(%s : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %n : tensor<8x4xf32>
}

// -----

// Host-only code (shapes, reshapes) stays on the host.
// CHECK-LABEL: func.func @reshape_only
// CHECK-NOT: kiln.dispatch
// CHECK: tensor.collapse_shape
func.func @reshape_only(%a: tensor<2x3xf32>) -> tensor<6xf32> {
  %r = tensor.collapse_shape %a [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  return %r : tensor<6xf32>
}
