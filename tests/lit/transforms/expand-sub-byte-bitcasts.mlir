// RUN: kiln-opt %s -kiln-expand-sub-byte-bitcasts -split-input-file -verify-diagnostics | FileCheck %s

// Private functions: their arguments and results are the program's own (a byte per
// element), not packed (see @boundary below).

// Bytes to f4E2M1FN: a 1-D host view of the bytes, a generic that takes each byte's
// nibbles low first, then the result's shape.
// CHECK-LABEL: func.func private @unpack
// CHECK: %[[BYTES:.*]] = flow.tensor.bitcast %{{.*}} : tensor<2x3xi8> -> tensor<6xi8>
// CHECK: %[[NIBBLES:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[BYTES]] : tensor<6xi8>) outs(%{{.*}} : tensor<6x2xf4E2M1FN>)
// CHECK: %[[POSITION:.*]] = linalg.index 1
// CHECK: %[[SHIFT:.*]] = arith.muli %[[POSITION]], %c4
// CHECK: arith.shrui
// CHECK: arith.trunci {{.*}} : i8 to i4
// CHECK: arith.bitcast {{.*}} : i4 to f4E2M1FN
// CHECK: tensor.collapse_shape %[[NIBBLES]] {{\[\[}}0, 1]] : tensor<6x2xf4E2M1FN> into tensor<12xf4E2M1FN>
// CHECK: tensor.expand_shape {{.*}} output_shape [2, 6] : tensor<12xf4E2M1FN> into tensor<2x6xf4E2M1FN>
func.func private @unpack(%b: tensor<2x3xi8>) -> tensor<2x6xf4E2M1FN> {
  %r = flow.tensor.bitcast %b : tensor<2x3xi8> -> tensor<2x6xf4E2M1FN>
  return %r : tensor<2x6xf4E2M1FN>
}

// -----

// i4 to bytes: pairs of elements ORed into a zero-filled byte, the first in the low bits.
// CHECK-LABEL: func.func private @pack
// CHECK: %[[PAIRS:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [4, 2] : tensor<8xi4> into tensor<4x2xi4>
// CHECK: %[[ZEROS:.*]] = linalg.fill
// CHECK: %[[PACKED:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[PAIRS]] : tensor<4x2xi4>) outs(%[[ZEROS]] : tensor<4xi8>)
// CHECK: arith.extui {{.*}} : i4 to i8
// CHECK: arith.shli
// CHECK: arith.ori
// CHECK: return %[[PACKED]] : tensor<4xi8>
func.func private @pack(%x: tensor<8xi4>) -> tensor<4xi8> {
  %r = flow.tensor.bitcast %x : tensor<8xi4> -> tensor<4xi8>
  return %r : tensor<4xi8>
}

// -----

// Dynamic words to i2: the view's byte count is computed from the source's elements.
// CHECK-LABEL: func.func private @words
// CHECK-SAME: (%[[W:.*]]: tensor<?xi32>, %[[N:.*]]: index, %{{.*}}: index)
// CHECK: %[[COUNT:.*]] = arith.muli %{{.*}}, %c4
// CHECK: flow.tensor.bitcast %[[W]] : tensor<?xi32>{%[[N]]} -> tensor<?xi8>{%[[COUNT]]}
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x4xi2>)
// CHECK: tensor.collapse_shape {{.*}} : tensor<?x4xi2> into tensor<?xi2>
func.func private @words(%w: tensor<?xi32>, %n: index, %m: index) -> tensor<?xi2> {
  %r = flow.tensor.bitcast %w : tensor<?xi32>{%n} -> tensor<?xi2>{%m}
  return %r : tensor<?xi2>
}

// -----

// The same width: an elementwise bitcast.
// CHECK-LABEL: func.func private @same_width
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<8xi4>) outs(%{{.*}} : tensor<8xf4E2M1FN>)
// CHECK: arith.bitcast {{.*}} : i4 to f4E2M1FN
// CHECK: tensor.expand_shape {{.*}} : tensor<8xf4E2M1FN> into tensor<2x4xf4E2M1FN>
func.func private @same_width(%x: tensor<8xi4>) -> tensor<2x4xf4E2M1FN> {
  %r = flow.tensor.bitcast %x : tensor<8xi4> -> tensor<2x4xf4E2M1FN>
  return %r : tensor<2x4xf4E2M1FN>
}

// -----

// Bitcasts that do not touch sub-byte elements stay views.
// CHECK-LABEL: func.func private @bytes_to_words
// CHECK-NEXT: flow.tensor.bitcast
// CHECK-NEXT: return
func.func private @bytes_to_words(%b: tensor<8xi8>) -> tensor<2xi32> {
  %r = flow.tensor.bitcast %b : tensor<8xi8> -> tensor<2xi32>
  return %r : tensor<2xi32>
}

// -----

func.func private @different_widths(%x: tensor<8xi4>) -> tensor<16xi2> {
  // expected-error @+1 {{cannot reinterpret 'tensor<8xi4>' as 'tensor<16xi2>' (sub-byte elements are stored one per byte): elements of different sub-byte widths}}
  %r = flow.tensor.bitcast %x : tensor<8xi4> -> tensor<16xi2>
  return %r : tensor<16xi2>
}

// -----

// A public function's sub-byte argument is the caller's packed buffer: viewed as bytes
// (marked, so it stays a view) and unpacked; its sub-byte result is packed and viewed.
// CHECK-LABEL: func.func @boundary
// CHECK-SAME: (%[[ARG:.*]]: tensor<?xi4>) -> tensor<?xi4>
// CHECK: %[[N:.*]] = tensor.dim %[[ARG]]
// CHECK: %[[BYTES:.*]] = flow.tensor.bitcast %[[ARG]] : tensor<?xi4>{%[[N]]} -> tensor<?xi8>{%{{.*}}} {kiln.packed_boundary}
// CHECK: %[[UNPACKED:.*]] = linalg.generic {{.*}} ins(%[[BYTES]] : tensor<?xi8>) outs(%{{.*}} : tensor<?x2xi4>)
// CHECK: %[[ELEMENTS:.*]] = tensor.collapse_shape %[[UNPACKED]]
// CHECK: %[[SUM:.*]] = arith.addi %[[ELEMENTS]], %[[ELEMENTS]] : tensor<?xi4>
// CHECK: %[[PACKED:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK: %[[VIEW:.*]] = flow.tensor.bitcast %[[PACKED]] : tensor<?xi8>{%{{.*}}} -> tensor<?xi4>{%{{.*}}} {kiln.packed_boundary}
// CHECK: return %[[VIEW]]
func.func @boundary(%x: tensor<?xi4>) -> tensor<?xi4> {
  %r = arith.addi %x, %x : tensor<?xi4>
  return %r : tensor<?xi4>
}

// -----

// expected-error @+1 {{argument 0 of 'odd' is 'tensor<3xi4>': its sub-byte elements do not fill whole bytes}}
func.func @odd(%x: tensor<3xi4>) -> tensor<3xi8> {
  %r = arith.extui %x : tensor<3xi4> to tensor<3xi8>
  return %r : tensor<3xi8>
}

// -----

// expected-error @+1 {{'called' takes or returns tensors of sub-byte elements, packed as a program's arguments and results are, and is also called inside the program, where they are a byte each: make the called function private}}
func.func @called(%x: tensor<2xi4>) -> tensor<2xi4> {
  return %x : tensor<2xi4>
}
func.func @caller(%x: tensor<2xi8>) -> tensor<2xi8> {
  %n = arith.trunci %x : tensor<2xi8> to tensor<2xi4>
  %r = call @called(%n) : (tensor<2xi4>) -> tensor<2xi4>
  %w = arith.extui %r : tensor<2xi4> to tensor<2xi8>
  return %w : tensor<2xi8>
}

// -----

func.func private @partial_byte(%x: tensor<3xi4>, %n: index) -> tensor<?xi8> {
  // expected-error @+1 {{cannot reinterpret 'tensor<3xi4>' as 'tensor<?xi8>' (sub-byte elements are stored one per byte): the source's elements do not fill whole bytes}}
  %r = flow.tensor.bitcast %x : tensor<3xi4> -> tensor<?xi8>{%n}
  return %r : tensor<?xi8>
}

// -----

// A sub-byte global bound to a parameter: the file's packed bytes go to @w__packed (the
// last dimension in bytes), unpacked into @w by an initializer right after it.
// CHECK-LABEL: util.global private @w__packed = #stream.parameter.named<"model"::"w"> : tensor<4x3xi8>
// CHECK-NEXT: util.global private @w : tensor<4x6xi4>
// CHECK-NEXT: func.func private @__kiln_unpack_w() attributes {kiln.initializer}
// CHECK: util.global.load @w__packed : tensor<4x3xi8>
// CHECK: linalg.generic
// CHECK: util.global.store %{{.*}}, @w : tensor<4x6xi4>
util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<4x6xi4>

// -----

// Elements that do not fill whole bytes: 1-D packed bytes when the total does.
// CHECK-LABEL: util.global private @odd__packed = #stream.parameter.named<"model"::"odd"> : tensor<3xi8>
util.global private @odd = #stream.parameter.named<"model"::"odd"> : tensor<2x3xi4>

// -----

// expected-error @+1 {{binds a parameter to 'tensor<3xi4>', whose sub-byte elements do not fill whole bytes}}
util.global private @bad = #stream.parameter.named<"model"::"bad"> : tensor<3xi4>
