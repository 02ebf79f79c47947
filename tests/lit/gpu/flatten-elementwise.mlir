// RUN: kiln-opt %s -split-input-file -kiln-gpu-flatten-elementwise | FileCheck %s

// An elementwise root over 2 static dimensions, reading and writing whole bindings: the same
// body over the bindings' flat views, so the distribution gives it 128-bit vector blocks.
// CHECK-LABEL: func.func @add2d(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<37x41xf32>, %[[B:[a-z0-9]+]]: memref<37x41xf32>, %[[C:[a-z0-9]+]]: memref<37x41xf32>
// CHECK-DAG: %[[FA:.*]] = memref.collapse_shape %[[A]] {{\[\[}}0, 1]] : memref<37x41xf32> into memref<1517xf32>
// CHECK-DAG: %[[FB:.*]] = memref.collapse_shape %[[B]] {{\[\[}}0, 1]]
// CHECK-DAG: %[[TA:.*]] = bufferization.to_tensor %[[FA]] restrict : memref<1517xf32> to tensor<1517xf32>
// CHECK-DAG: %[[TB:.*]] = bufferization.to_tensor %[[FB]] restrict
// CHECK-DAG: %[[E:.*]] = tensor.empty() : tensor<1517xf32>
// CHECK-DAG: %[[FC:.*]] = memref.collapse_shape %[[C]] {{\[\[}}0, 1]] : memref<37x41xf32> into memref<1517xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel"]} ins(%[[TA]], %[[TB]] : tensor<1517xf32>, tensor<1517xf32>) outs(%[[E]] : tensor<1517xf32>) attrs =  {kiln.root}
// CHECK: arith.addf
// CHECK: bufferization.materialize_in_destination %[[R]] in restrict writable %[[FC]] : (tensor<1517xf32>, memref<1517xf32>) -> ()
// CHECK-NOT: tensor<37x41xf32>
func.func @add2d(%arg0: memref<37x41xf32>, %arg1: memref<37x41xf32>, %arg2: memref<37x41xf32>, %arg3: index, %arg4: index)
    attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>]} {
  %0 = bufferization.to_tensor %arg0 restrict : memref<37x41xf32> to tensor<37x41xf32>
  %1 = bufferization.to_tensor %arg1 restrict : memref<37x41xf32> to tensor<37x41xf32>
  %2 = tensor.empty() : tensor<37x41xf32>
  %3 = linalg.add {kiln.root} ins(%0, %1 : tensor<37x41xf32>, tensor<37x41xf32>) outs(%2 : tensor<37x41xf32>) -> tensor<37x41xf32>
  bufferization.materialize_in_destination %3 in restrict writable %arg2 : (tensor<37x41xf32>, memref<37x41xf32>) -> ()
  return
}

// -----

// A broadcast (a non-identity map) and a body that reads its indices are left alone: their
// elements are not the flat ones.
// CHECK-LABEL: func.func @broadcast(
// CHECK-NOT: collapse_shape
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
func.func @broadcast(%arg0: memref<8x16xf32>, %arg1: memref<16xf32>, %arg2: memref<8x16xf32>, %arg3: index, %arg4: index)
    attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1>, array<i64: -1, -1>]} {
  %0 = bufferization.to_tensor %arg0 restrict : memref<8x16xf32> to tensor<8x16xf32>
  %1 = bufferization.to_tensor %arg1 restrict : memref<16xf32> to tensor<16xf32>
  %2 = tensor.empty() : tensor<8x16xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]} ins(%0, %1 : tensor<8x16xf32>, tensor<16xf32>) outs(%2 : tensor<8x16xf32>) attrs = {kiln.root} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  bufferization.materialize_in_destination %3 in restrict writable %arg2 : (tensor<8x16xf32>, memref<8x16xf32>) -> ()
  return
}

// -----

// CHECK-LABEL: func.func @indices(
// CHECK-NOT: collapse_shape
func.func @indices(%arg0: memref<8x16xi32>, %arg1: index, %arg2: index)
    attributes {kiln.binding_dims = [array<i64: -1, -1>]} {
  %0 = tensor.empty() : tensor<8x16xi32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%0 : tensor<8x16xi32>) attrs = {kiln.root} {
  ^bb0(%o: i32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<8x16xi32>
  bufferization.materialize_in_destination %1 in restrict writable %arg0 : (tensor<8x16xi32>, memref<8x16xi32>) -> ()
  return
}

// -----

// A result that something else reads too stays in its shape.
// CHECK-LABEL: func.func @two_uses(
// CHECK-NOT: collapse_shape
func.func @two_uses(%arg0: memref<8x16xf32>, %arg1: memref<8x16xf32>, %arg2: memref<8x16xf32>, %arg3: index, %arg4: index)
    attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>]} {
  %0 = bufferization.to_tensor %arg0 restrict : memref<8x16xf32> to tensor<8x16xf32>
  %2 = tensor.empty() : tensor<8x16xf32>
  %3 = linalg.exp {kiln.root} ins(%0 : tensor<8x16xf32>) outs(%2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  bufferization.materialize_in_destination %3 in restrict writable %arg1 : (tensor<8x16xf32>, memref<8x16xf32>) -> ()
  bufferization.materialize_in_destination %3 in restrict writable %arg2 : (tensor<8x16xf32>, memref<8x16xf32>) -> ()
  return
}
