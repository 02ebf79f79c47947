// RUN: kiln-opt %s -kiln-lower-sub-byte-bindings -split-input-file -verify-diagnostics | FileCheck %s

#map = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
module {
  module @kiln_executable attributes {kiln.executable} {
    // Sub-byte bindings whose rows are not whole bytes (a dynamic or odd innermost
    // dimension) take a byte per element.
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

    // A read f4E2M1FN binding (7 elements: not whole bytes, so one per byte) becomes i8: its reader truncates each byte and bitcasts it.
    // CHECK-LABEL: func.func @read_f4
    // CHECK-SAME: (%[[IN:.*]]: memref<7xi8>
    // CHECK: %[[BYTES:.*]] = bufferization.to_tensor %[[IN]] restrict : memref<7xi8> to tensor<7xi8>
    // CHECK: linalg.generic {{.*}} ins(%[[BYTES]] : tensor<7xi8>) outs(%{{.*}} : tensor<7xf32>) attrs = {kiln.root}
    // CHECK-NEXT: ^bb0(%[[BYTE:.*]]: i8, %{{.*}}: f32):
    // CHECK-NEXT: %[[BITS:.*]] = arith.trunci %[[BYTE]] : i8 to i4
    // CHECK-NEXT: %[[VALUE:.*]] = arith.bitcast %[[BITS]] : i4 to f4E2M1FN
    // CHECK-NEXT: arith.extf %[[VALUE]]
    func.func @read_f4(%arg0: memref<7xf4E2M1FN>, %arg1: memref<7xf32>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<7xf4E2M1FN> to tensor<7xf4E2M1FN>
      %1 = tensor.empty() : tensor<7xf32>
      %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%0 : tensor<7xf4E2M1FN>) outs(%1 : tensor<7xf32>) attrs = {kiln.root} {
      ^bb0(%in: f4E2M1FN, %out: f32):
        %3 = arith.extf %in : f4E2M1FN to f32
        linalg.yield %3 : f32
      } -> tensor<7xf32>
      bufferization.materialize_in_destination %2 in restrict writable %arg1 : (tensor<7xf32>, memref<7xf32>) -> ()
      return
    }

    // A named elementwise op is generalized, reads both operands as bytes, stays the root.
    // CHECK-LABEL: func.func @named_i4
    // CHECK-SAME: (%{{.*}}: memref<5xi8>, %{{.*}}: memref<5xi8>
    // CHECK: linalg.generic {{.*}} ins(%[[A:.*]], %[[A]] : tensor<5xi8>, tensor<5xi8>) outs(%{{.*}} : tensor<5xi8>) attrs = {kiln.root}
    // CHECK: arith.addi {{.*}} : i4
    // CHECK-NEXT: arith.extui {{.*}} : i4 to i8
    func.func @named_i4(%arg0: memref<5xi4>, %arg1: memref<5xi4>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<5xi4> to tensor<5xi4>
      %1 = tensor.empty() : tensor<5xi4>
      %2 = linalg.add {kiln.root} ins(%0, %0 : tensor<5xi4>, tensor<5xi4>) outs(%1 : tensor<5xi4>) -> tensor<5xi4>
      bufferization.materialize_in_destination %2 in restrict writable %arg1 : (tensor<5xi4>, memref<5xi4>) -> ()
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
    func.func @other_use(%arg0: memref<5xi4>, %arg1: memref<5xi8>, %arg2: index, %arg3: index) {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{a dispatch binding of 'i4' elements: used by an op that is not a tensor read or write (kiln stores sub-byte elements one per byte)}}
      %0 = memref.load %arg0[%c0] : memref<5xi4>
      return
    }
  }
}

// -----

module {
  module @kiln_executable attributes {kiln.executable} {
    func.func @matmul_reads_i4(%arg0: memref<5x5xi4>, %arg1: memref<5x5xi32>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<5x5xi4> to tensor<5x5xi4>
      %1 = tensor.empty() : tensor<5x5xi32>
      // expected-error @+1 {{a dispatch binding of 'i4' elements: read by an op that cannot read bytes instead}}
      %2 = linalg.matmul ins(%0, %0 : tensor<5x5xi4>, tensor<5x5xi4>) outs(%1 : tensor<5x5xi32>) -> tensor<5x5xi32>
      bufferization.materialize_in_destination %2 in restrict writable %arg1 : (tensor<5x5xi32>, memref<5x5xi32>) -> ()
      return
    }
  }
}

// -----

#map = affine_map<(d0) -> (d0)>
module {
  module @kiln_executable attributes {kiln.executable} {
    func.func @destination_from_input(%arg0: memref<5xi4>, %arg1: memref<5xi4>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<5xi4> to tensor<5xi4>
      %1 = arith.constant dense<1> : tensor<5xi4>
      // expected-error @+1 {{computes sub-byte elements for a dispatch result into a destination kiln cannot make bytes (only tensor.empty and linalg.fill are)}}
      %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%0 : tensor<5xi4>) outs(%1 : tensor<5xi4>) {
      ^bb0(%in: i4, %out: i4):
        %3 = arith.addi %in, %out : i4
        linalg.yield %3 : i4
      } -> tensor<5xi4>
      bufferization.materialize_in_destination %2 in restrict writable %arg1 : (tensor<5xi4>, memref<5xi4>) -> ()
      return
    }
  }
}

// -----

module {
  module @kiln_executable attributes {kiln.executable} {
    func.func @written_from_a_read(%arg0: memref<5xi8>, %arg1: memref<5xi4>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<5xi8> to tensor<5xi8>
      %1 = arith.trunci %0 : tensor<5xi8> to tensor<5xi4>
      // expected-error @+1 {{a dispatch binding of 'i4' elements: written from a value that no single generic computes (kiln stores sub-byte elements one per byte)}}
      bufferization.materialize_in_destination %1 in restrict writable %arg1 : (tensor<5xi4>, memref<5xi4>) -> ()
      return
    }
  }
}

// -----

// Packed bindings (rows of whole bytes): the binding is the bytes, [4, 8] i4 as [4, 4] i8.
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
module {
  module @kiln_executable attributes {kiln.executable} {
    // A dequantization: the output also indexes k, so k splits into (bytes, nibble): the
    // output is computed as [4, 4, 2], into that view of its binding; the nibble is the new
    // loop's.
    // CHECK-LABEL: func.func @dequant_i4
    // CHECK-SAME: (%[[W:.*]]: memref<4x4xi8>, %{{.*}}: memref<4xf32>, %[[OUT:[^:]*]]: memref<4x8xf32>
    // CHECK: %[[BYTES:.*]] = bufferization.to_tensor %[[W]] restrict : memref<4x4xi8> to tensor<4x4xi8>
    // CHECK: %[[EXPANDED:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [4, 4, 2] : tensor<4x8xf32> into tensor<4x4x2xf32>
    // CHECK: %[[DEQUANT:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[BYTES]], %{{.*}} : tensor<4x4xi8>, tensor<4xf32>) outs(%[[EXPANDED]] : tensor<4x4x2xf32>) attrs = {kiln.root}
    // CHECK-NEXT: ^bb0(%[[BYTE:.*]]: i8, %[[SCALE:.*]]: f32, %{{.*}}: f32):
    // CHECK: %[[POSITION:.*]] = linalg.index 2
    // CHECK: %[[BITS:.*]] = arith.muli %[[POSITION]], %c4
    // CHECK: %[[SHIFT:.*]] = arith.index_cast %[[BITS]] : index to i8
    // CHECK: %[[SHIFTED:.*]] = arith.shrui %[[BYTE]], %[[SHIFT]]
    // CHECK: %[[Q:.*]] = arith.trunci %[[SHIFTED]] : i8 to i4
    // CHECK: arith.extsi %[[Q]] : i4 to i32
    // CHECK: %[[VIEW:.*]] = memref.expand_shape %[[OUT]] {{\[\[}}0], [1, 2]] output_shape [4, 4, 2] : memref<4x8xf32> into memref<4x4x2xf32>
    // CHECK: bufferization.materialize_in_destination %[[DEQUANT]] in restrict writable %[[VIEW]] : (tensor<4x4x2xf32>, memref<4x4x2xf32>)
    func.func @dequant_i4(%arg0: memref<4x8xi4>, %arg1: memref<4xf32>, %arg2: memref<4x8xf32>, %arg3: index, %arg4: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<4x8xi4> to tensor<4x8xi4>
      %1 = bufferization.to_tensor %arg1 restrict : memref<4xf32> to tensor<4xf32>
      %2 = tensor.empty() : tensor<4x8xf32>
      %3 = linalg.generic {indexing_maps = [#map2, #rows, #map2], iterator_types = ["parallel", "parallel"]} ins(%0, %1 : tensor<4x8xi4>, tensor<4xf32>) outs(%2 : tensor<4x8xf32>) attrs = {kiln.root} {
      ^bb0(%q: i4, %s: f32, %o: f32):
        %i = arith.extsi %q : i4 to i32
        %f = arith.sitofp %i : i32 to f32
        %v = arith.mulf %f, %s : f32
        linalg.yield %v : f32
      } -> tensor<4x8xf32>
      bufferization.materialize_in_destination %3 in restrict writable %arg2 : (tensor<4x8xf32>, memref<4x8xf32>) -> ()
      return
    }

    // Row sums: nothing else gives k's extent, so k runs over bytes and the body repeats
    // for each nibble, the sum carried from one repetition to the next.
    // CHECK-LABEL: func.func @row_sums_i4
    // CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x4xi8>) outs(%{{.*}} : tensor<4xi32>)
    // CHECK-NEXT: ^bb0(%[[BYTE:.*]]: i8, %[[ACC:.*]]: i32):
    // CHECK: %[[LOW:.*]] = arith.shrui %[[BYTE]], %c0_i8
    // CHECK: %[[Q0:.*]] = arith.trunci %[[LOW]] : i8 to i4
    // CHECK: %[[E0:.*]] = arith.extsi %[[Q0]]
    // CHECK: %[[S0:.*]] = arith.addi %[[ACC]], %[[E0]]
    // CHECK: %[[HIGH:.*]] = arith.shrui %[[BYTE]], %c4_i8
    // CHECK: %[[Q1:.*]] = arith.trunci %[[HIGH]] : i8 to i4
    // CHECK: %[[E1:.*]] = arith.extsi %[[Q1]]
    // CHECK: %[[S1:.*]] = arith.addi %[[S0]], %[[E1]]
    // CHECK: linalg.yield %[[S1]]
    func.func @row_sums_i4(%arg0: memref<4x8xi4>, %arg1: memref<4xi32>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<4x8xi4> to tensor<4x8xi4>
      %zero = arith.constant 0 : i32
      %1 = tensor.empty() : tensor<4xi32>
      %2 = linalg.fill ins(%zero : i32) outs(%1 : tensor<4xi32>) -> tensor<4xi32>
      %3 = linalg.generic {indexing_maps = [#map2, #rows], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<4x8xi4>) outs(%2 : tensor<4xi32>) attrs = {kiln.root} {
      ^bb0(%q: i4, %acc: i32):
        %e = arith.extsi %q : i4 to i32
        %s = arith.addi %acc, %e : i32
        linalg.yield %s : i32
      } -> tensor<4xi32>
      bufferization.materialize_in_destination %3 in restrict writable %arg1 : (tensor<4xi32>, memref<4xi32>) -> ()
      return
    }

    // A packed result: the generic runs over its bytes and, in a reduction loop, the nibbles
    // of each (the input expanded to [4, 4, 2]), each iteration replacing its nibble.
    // CHECK-LABEL: func.func @quantize_i4
    // CHECK-SAME: %[[OUT:[^:]*]]: memref<4x4xi8>
    // CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x4xi8>
    // CHECK: %[[IN:.*]] = tensor.expand_shape %{{.*}} output_shape [4, 4, 2] : tensor<4x8xf32> into tensor<4x4x2xf32>
    // CHECK: %[[BYTES:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[IN]] : tensor<4x4x2xf32>) outs(%[[EMPTY]] : tensor<4x4xi8>) attrs = {kiln.root}
    // CHECK-NEXT: ^bb0(%{{.*}}: f32, %[[ACC:.*]]: i8):
    // CHECK: %[[SHIFT:.*]] = arith.index_cast %{{.*}} : index to i8
    // CHECK: %[[N:.*]] = arith.trunci %{{.*}} : i32 to i4
    // CHECK: %[[B:.*]] = arith.extui %[[N]] : i4 to i8
    // CHECK: %[[PLACED:.*]] = arith.shli %[[B]], %[[SHIFT]] : i8
    // CHECK: %[[MASK:.*]] = arith.shli %c15_i8, %[[SHIFT]] : i8
    // CHECK: %[[KEEP:.*]] = arith.xori %[[MASK]], %c-1_i8 : i8
    // CHECK: %[[REST:.*]] = arith.andi %[[ACC]], %[[KEEP]] : i8
    // CHECK: %[[BYTE:.*]] = arith.ori %[[REST]], %[[PLACED]] : i8
    // CHECK: linalg.yield %[[BYTE]] : i8
    // CHECK: bufferization.materialize_in_destination %[[BYTES]] in restrict writable %[[OUT]] : (tensor<4x4xi8>, memref<4x4xi8>)
    func.func @quantize_i4(%arg0: memref<4x8xf32>, %arg1: memref<4x8xi4>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<4x8xf32> to tensor<4x8xf32>
      %1 = tensor.empty() : tensor<4x8xi4>
      %2 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%1 : tensor<4x8xi4>) attrs = {kiln.root} {
      ^bb0(%v: f32, %o: i4):
        %i = arith.fptosi %v : f32 to i32
        %t = arith.trunci %i : i32 to i4
        linalg.yield %t : i4
      } -> tensor<4x8xi4>
      bufferization.materialize_in_destination %2 in restrict writable %arg1 : (tensor<4x8xi4>, memref<4x8xi4>) -> ()
      return
    }

    // A reduction into packed i4 (row maxima of [4, 6] into [4]): the fill becomes the byte
    // of two copies, and each iteration reduces into its own nibble of the byte.
    // CHECK-LABEL: func.func @row_max_into_packed
    // CHECK: %[[LOW:.*]] = arith.extui %{{.*}} : i4 to i8
    // CHECK: %[[HIGH:.*]] = arith.shli %[[LOW]], %c4_i8
    // CHECK: %[[SPLAT:.*]] = arith.ori %[[LOW]], %[[HIGH]]
    // CHECK: %[[INIT:.*]] = linalg.fill ins(%[[SPLAT]] : i8) outs(%{{.*}} : tensor<2xi8>)
    // CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<2x2x6xi32>) outs(%[[INIT]] : tensor<2xi8>)
    // CHECK-NEXT: ^bb0(%{{.*}}: i32, %[[ACC:.*]]: i8):
    // CHECK: %[[NIBBLE:.*]] = arith.shrui %[[ACC]], %{{.*}} : i8
    // CHECK: %[[OLD:.*]] = arith.trunci %[[NIBBLE]] : i8 to i4
    // CHECK: arith.maxsi %[[OLD]]
    func.func @row_max_into_packed(%arg0: memref<4x6xi32>, %arg1: memref<4xi4>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<4x6xi32> to tensor<4x6xi32>
      %lowest = arith.constant -8 : i4
      %1 = tensor.empty() : tensor<4xi4>
      %2 = linalg.fill ins(%lowest : i4) outs(%1 : tensor<4xi4>) -> tensor<4xi4>
      %3 = linalg.generic {indexing_maps = [#map2, #rows], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<4x6xi32>) outs(%2 : tensor<4xi4>) attrs = {kiln.root} {
      ^bb0(%v: i32, %acc: i4):
        %t = arith.trunci %v : i32 to i4
        %m = arith.maxsi %acc, %t : i4
        linalg.yield %m : i4
      } -> tensor<4xi4>
      bufferization.materialize_in_destination %3 in restrict writable %arg1 : (tensor<4xi4>, memref<4xi4>) -> ()
      return
    }

    // A slice of whole bytes (one layer of stacked weights), reshaped, slices and reshapes
    // the bytes; a tensor.extract reads a byte and shifts.
    // CHECK-LABEL: func.func @layer_slice
    // CHECK-SAME: (%[[W:.*]]: memref<3x4x8xi8>
    // CHECK: %[[ALL:.*]] = bufferization.to_tensor %[[W]]
    // CHECK: %[[LAYER:.*]] = tensor.extract_slice %[[ALL]][1, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<3x4x8xi8> to tensor<1x4x8xi8>
    // CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[LAYER]] {{\[\[}}0, 1], [2]] : tensor<1x4x8xi8> into tensor<4x8xi8>
    // CHECK: linalg.generic {{.*}} ins(%[[ROWS]] : tensor<4x8xi8>)
    // CHECK: %[[BYTE:.*]] = tensor.extract %[[ALL]][%{{.*}}, %{{.*}}, %{{.*}}] : tensor<3x4x8xi8>
    // CHECK: arith.shrui %[[BYTE]]
    func.func @layer_slice(%arg0: memref<3x4x16xi4>, %arg1: memref<4x16xi32>, %arg2: memref<i32>, %arg3: index, %arg4: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<3x4x16xi4> to tensor<3x4x16xi4>
      %1 = tensor.extract_slice %0[1, 0, 0] [1, 4, 16] [1, 1, 1] : tensor<3x4x16xi4> to tensor<1x4x16xi4>
      %2 = tensor.collapse_shape %1 [[0, 1], [2]] : tensor<1x4x16xi4> into tensor<4x16xi4>
      %3 = tensor.empty() : tensor<4x16xi32>
      %4 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<4x16xi4>) outs(%3 : tensor<4x16xi32>) attrs = {kiln.root} {
      ^bb0(%q: i4, %o: i32):
        %e = arith.extsi %q : i4 to i32
        linalg.yield %e : i32
      } -> tensor<4x16xi32>
      bufferization.materialize_in_destination %4 in restrict writable %arg1 : (tensor<4x16xi32>, memref<4x16xi32>) -> ()
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      %e = tensor.extract %0[%c2, %c3, %c5] : tensor<3x4x16xi4>
      %w = arith.extsi %e : i4 to i32
      %t = tensor.from_elements %w : tensor<i32>
      bufferization.materialize_in_destination %t in restrict writable %arg2 : (tensor<i32>, memref<i32>) -> ()
      return
    }
  }
}

// -----

module {
  module @kiln_executable attributes {kiln.executable} {
    func.func @odd_slice(%arg0: memref<4x8xi4>, %arg1: memref<4x3xi32>, %arg2: index, %arg3: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<4x8xi4> to tensor<4x8xi4>
      // expected-error @+1 {{a dispatch binding of packed 'i4' elements: sliced in its innermost dimension at other than whole bytes}}
      %1 = tensor.extract_slice %0[0, 1] [4, 3] [1, 1] : tensor<4x8xi4> to tensor<4x3xi4>
      %2 = tensor.empty() : tensor<4x3xi32>
      %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x3xi4>) outs(%2 : tensor<4x3xi32>) {
      ^bb0(%q: i4, %o: i32):
        %e = arith.extsi %q : i4 to i32
        linalg.yield %e : i32
      } -> tensor<4x3xi32>
      bufferization.materialize_in_destination %3 in restrict writable %arg1 : (tensor<4x3xi32>, memref<4x3xi32>) -> ()
      return
    }
  }
}

// -----

module {
  module @kiln_executable attributes {kiln.executable} {
    func.func @two_results(%arg0: memref<4x8xf32>, %arg1: memref<4x8xi4>, %arg2: memref<4x8xi32>, %arg3: index, %arg4: index) {
      %0 = bufferization.to_tensor %arg0 restrict : memref<4x8xf32> to tensor<4x8xf32>
      %1 = tensor.empty() : tensor<4x8xi4>
      %2 = tensor.empty() : tensor<4x8xi32>
      // expected-error @+1 {{cannot compute on packed sub-byte elements (kiln stores them packed when rows are whole bytes): a result that is not packed is indexed by the loop over the packed elements' bytes}}
      %3:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%1, %2 : tensor<4x8xi4>, tensor<4x8xi32>) {
      ^bb0(%v: f32, %o: i4, %p: i32):
        %i = arith.fptosi %v : f32 to i32
        %t = arith.trunci %i : i32 to i4
        linalg.yield %t, %i : i4, i32
      } -> (tensor<4x8xi4>, tensor<4x8xi32>)
      bufferization.materialize_in_destination %3#0 in restrict writable %arg1 : (tensor<4x8xi4>, memref<4x8xi4>) -> ()
      bufferization.materialize_in_destination %3#1 in restrict writable %arg2 : (tensor<4x8xi32>, memref<4x8xi32>) -> ()
      return
    }
  }
}
