// RUN: kiln-opt %s -kiln-widen-sub-byte-bindings -split-input-file -verify-diagnostics | FileCheck %s

#map = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
module {
  module @kiln_executable attributes {kiln.executable} {
    // A written i4 binding becomes i8: its writer computes bytes (the i4 value zero-
    // extended) into a byte destination.
    // CHECK-LABEL: func.func @write_i4
    // CHECK-SAME: (%{{.*}}: memref<?xf32>, %[[OUT:.*]]: memref<?xi8>
    // CHECK: %[[EMPTY:.*]] = tensor.empty(%{{.*}}) : tensor<?xi8>
    // CHECK: %[[BYTES:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<?xi8>) attrs = {kiln.root}
    // CHECK: %[[VALUE:.*]] = arith.trunci {{.*}} : i32 to i4
    // CHECK-NEXT: %[[BYTE:.*]] = arith.extui %[[VALUE]] : i4 to i8
    // CHECK-NEXT: linalg.yield %[[BYTE]] : i8
    // CHECK: bufferization.materialize_in_destination %[[BYTES]] in restrict writable %[[OUT]] : (tensor<?xi8>, memref<?xi8>)
    func.func @write_i4(%arg0: memref<?xf32>, %arg1: memref<?xi4>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<?xf32> to tensor<?xf32>
      %c0 = arith.constant 0 : index
      %n = tensor.dim %0, %c0 : tensor<?xf32>
      %1 = tensor.empty(%n) : tensor<?xi4>
      %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%0 : tensor<?xf32>) outs(%1 : tensor<?xi4>) attrs = {kiln.root} {
      ^bb0(%in: f32, %out: i4):
        %3 = arith.fptosi %in : f32 to i32
        %4 = arith.trunci %3 : i32 to i4
        linalg.yield %4 : i4
      } -> tensor<?xi4>
      bufferization.materialize_in_destination %2 in restrict writable %arg1 : (tensor<?xi4>, memref<?xi4>) -> ()
      return
    }

    // A read f4E2M1FN binding becomes i8: its reader truncates each byte and bitcasts it.
    // CHECK-LABEL: func.func @read_f4
    // CHECK-SAME: (%[[IN:.*]]: memref<8xi8>
    // CHECK: %[[BYTES:.*]] = bufferization.to_tensor %[[IN]] restrict : memref<8xi8> to tensor<8xi8>
    // CHECK: linalg.generic {{.*}} ins(%[[BYTES]] : tensor<8xi8>) outs(%{{.*}} : tensor<8xf32>) attrs = {kiln.root}
    // CHECK-NEXT: ^bb0(%[[BYTE:.*]]: i8, %{{.*}}: f32):
    // CHECK-NEXT: %[[BITS:.*]] = arith.trunci %[[BYTE]] : i8 to i4
    // CHECK-NEXT: %[[VALUE:.*]] = arith.bitcast %[[BITS]] : i4 to f4E2M1FN
    // CHECK-NEXT: arith.extf %[[VALUE]]
    func.func @read_f4(%arg0: memref<8xf4E2M1FN>, %arg1: memref<8xf32>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<8xf4E2M1FN> to tensor<8xf4E2M1FN>
      %1 = tensor.empty() : tensor<8xf32>
      %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%0 : tensor<8xf4E2M1FN>) outs(%1 : tensor<8xf32>) attrs = {kiln.root} {
      ^bb0(%in: f4E2M1FN, %out: f32):
        %3 = arith.extf %in : f4E2M1FN to f32
        linalg.yield %3 : f32
      } -> tensor<8xf32>
      bufferization.materialize_in_destination %2 in restrict writable %arg1 : (tensor<8xf32>, memref<8xf32>) -> ()
      return
    }

    // A named elementwise op is generalized, reads both operands as bytes, stays the root.
    // CHECK-LABEL: func.func @named_i4
    // CHECK-SAME: (%{{.*}}: memref<4xi8>, %{{.*}}: memref<4xi8>
    // CHECK: linalg.generic {{.*}} ins(%[[A:.*]], %[[A]] : tensor<4xi8>, tensor<4xi8>) outs(%{{.*}} : tensor<4xi8>) attrs = {kiln.root}
    // CHECK: arith.addi {{.*}} : i4
    // CHECK-NEXT: arith.extui {{.*}} : i4 to i8
    func.func @named_i4(%arg0: memref<4xi4>, %arg1: memref<4xi4>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<4xi4> to tensor<4xi4>
      %1 = tensor.empty() : tensor<4xi4>
      %2 = linalg.add {kiln.root} ins(%0, %0 : tensor<4xi4>, tensor<4xi4>) outs(%1 : tensor<4xi4>) -> tensor<4xi4>
      bufferization.materialize_in_destination %2 in restrict writable %arg1 : (tensor<4xi4>, memref<4xi4>) -> ()
      return
    }

    // A reduction into i4: its filled destination becomes bytes holding the widened value,
    // and the accumulator is narrowed at each step.
    // CHECK-LABEL: func.func @row_max_i4
    // CHECK: %[[LOWEST:.*]] = arith.extui %{{.*}} : i4 to i8
    // CHECK: %[[INIT:.*]] = linalg.fill ins(%[[LOWEST]] : i8) outs(%{{.*}} : tensor<3xi8>)
    // CHECK: linalg.generic {{.*}} outs(%[[INIT]] : tensor<3xi8>) attrs = {kiln.root}
    // CHECK-NEXT: ^bb0(%{{.*}}: i32, %[[ACC_BYTE:.*]]: i8):
    // CHECK-NEXT: %[[ACC:.*]] = arith.trunci %[[ACC_BYTE]] : i8 to i4
    // CHECK: arith.maxsi %[[ACC]]
    func.func @row_max_i4(%arg0: memref<3x5xi32>, %arg1: memref<3xi4>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<3x5xi32> to tensor<3x5xi32>
      %lowest = arith.constant -8 : i4
      %1 = tensor.empty() : tensor<3xi4>
      %2 = linalg.fill ins(%lowest : i4) outs(%1 : tensor<3xi4>) -> tensor<3xi4>
      %3 = linalg.generic {indexing_maps = [#map2, #rows], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<3x5xi32>) outs(%2 : tensor<3xi4>) attrs = {kiln.root} {
      ^bb0(%v: i32, %acc: i4):
        %t = arith.trunci %v : i32 to i4
        %m = arith.maxsi %acc, %t : i4
        linalg.yield %m : i4
      } -> tensor<3xi4>
      bufferization.materialize_in_destination %3 in restrict writable %arg1 : (tensor<3xi4>, memref<3xi4>) -> ()
      return
    }
  }
}

// -----

module {
  module @kiln_executable attributes {kiln.executable} {
    func.func @other_use(%arg0: memref<4xi4>, %arg1: memref<4xi8>, %arg2: index, %arg3: index) {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{a dispatch binding of 'i4' elements: used by an op that is not a tensor read or write (kiln stores sub-byte elements one per byte)}}
      %0 = memref.load %arg0[%c0] : memref<4xi4>
      return
    }
  }
}

// -----

module {
  module @kiln_executable attributes {kiln.executable} {
    func.func @matmul_reads_i4(%arg0: memref<4x4xi4>, %arg1: memref<4x4xi32>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<4x4xi4> to tensor<4x4xi4>
      %1 = tensor.empty() : tensor<4x4xi32>
      // expected-error @+1 {{a dispatch binding of 'i4' elements: read by an op that cannot read bytes instead}}
      %2 = linalg.matmul ins(%0, %0 : tensor<4x4xi4>, tensor<4x4xi4>) outs(%1 : tensor<4x4xi32>) -> tensor<4x4xi32>
      bufferization.materialize_in_destination %2 in restrict writable %arg1 : (tensor<4x4xi32>, memref<4x4xi32>) -> ()
      return
    }
  }
}

// -----

#map = affine_map<(d0) -> (d0)>
module {
  module @kiln_executable attributes {kiln.executable} {
    func.func @destination_from_input(%arg0: memref<4xi4>, %arg1: memref<4xi4>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<4xi4> to tensor<4xi4>
      %1 = arith.constant dense<1> : tensor<4xi4>
      // expected-error @+1 {{computes sub-byte elements for a dispatch result into a destination kiln cannot make bytes (only tensor.empty and linalg.fill are)}}
      %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%0 : tensor<4xi4>) outs(%1 : tensor<4xi4>) {
      ^bb0(%in: i4, %out: i4):
        %3 = arith.addi %in, %out : i4
        linalg.yield %3 : i4
      } -> tensor<4xi4>
      bufferization.materialize_in_destination %2 in restrict writable %arg1 : (tensor<4xi4>, memref<4xi4>) -> ()
      return
    }
  }
}

// -----

module {
  module @kiln_executable attributes {kiln.executable} {
    func.func @written_from_a_read(%arg0: memref<4xi8>, %arg1: memref<4xi4>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<4xi8> to tensor<4xi8>
      %1 = arith.trunci %0 : tensor<4xi8> to tensor<4xi4>
      // expected-error @+1 {{a dispatch binding of 'i4' elements: written from a value that no single generic computes (kiln stores sub-byte elements one per byte)}}
      bufferization.materialize_in_destination %1 in restrict writable %arg1 : (tensor<4xi4>, memref<4xi4>) -> ()
      return
    }
  }
}
