// RUN: kiln-opt %s -kiln-expand-sub-byte-bitcasts -split-input-file -verify-diagnostics | FileCheck %s

// Private functions: their arguments and results are the program's own, in kiln's
// storage (see @boundary below).

// Packed tensors (rows of whole bytes) and their bytes are the same buffer: bitcasts
// between them, and between packed sub-byte types, stay views.
// CHECK-LABEL: func.func private @views
// CHECK-NEXT: flow.tensor.bitcast %{{.*}} : tensor<2x3xi8> -> tensor<2x6xf4E2M1FN>
// CHECK-NEXT: flow.tensor.bitcast %{{.*}} : tensor<2x6xf4E2M1FN> -> tensor<12xi4>
// CHECK-NEXT: flow.tensor.bitcast %{{.*}} : tensor<12xi4> -> tensor<24xi2>
// CHECK-NEXT: flow.tensor.bitcast %{{.*}} : tensor<24xi2> -> tensor<6xi8>
// CHECK-NEXT: return
func.func private @views(%b: tensor<2x3xi8>) -> tensor<6xi8> {
  %f4 = flow.tensor.bitcast %b : tensor<2x3xi8> -> tensor<2x6xf4E2M1FN>
  %i4 = flow.tensor.bitcast %f4 : tensor<2x6xf4E2M1FN> -> tensor<12xi4>
  %i2 = flow.tensor.bitcast %i4 : tensor<12xi4> -> tensor<24xi2>
  %r = flow.tensor.bitcast %i2 : tensor<24xi2> -> tensor<6xi8>
  return %r : tensor<6xi8>
}

// -----

// Bytes to f4E2M1FN in rows of 3 (not whole bytes: one element a byte): a 1-D host view
// of the bytes, a generic that takes each byte's nibbles low first (as bytes), the
// result's shape, and the narrowing.
// CHECK-LABEL: func.func private @unpack
// CHECK: %[[NIBBLES:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<3xi8>) outs(%{{.*}} : tensor<3x2xi8>)
// CHECK: %[[POSITION:.*]] = linalg.index 1
// CHECK: %[[SHIFT:.*]] = arith.muli %[[POSITION]], %c4
// CHECK: arith.shrui
// CHECK: arith.andi {{.*}} %c15_i8
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[NIBBLES]] {{\[\[}}0, 1]] : tensor<3x2xi8> into tensor<6xi8>
// CHECK: %[[ROWS:.*]] = tensor.expand_shape %[[FLAT]] {{.*}} output_shape [2, 3] : tensor<6xi8> into tensor<2x3xi8>
// CHECK: linalg.generic {{.*}} ins(%[[ROWS]] : tensor<2x3xi8>) outs(%{{.*}} : tensor<2x3xf4E2M1FN>)
// CHECK: arith.trunci {{.*}} : i8 to i4
// CHECK: arith.bitcast {{.*}} : i4 to f4E2M1FN
func.func private @unpack(%b: tensor<3xi8>) -> tensor<2x3xf4E2M1FN> {
  %r = flow.tensor.bitcast %b : tensor<3xi8> -> tensor<2x3xf4E2M1FN>
  return %r : tensor<2x3xf4E2M1FN>
}

// -----

// i4 in rows of 3 to bytes: the elements as bytes, in pairs ORed into a zero-filled byte,
// the first in the low bits.
// CHECK-LABEL: func.func private @pack
// CHECK: %[[ELEMENTS:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<2x3xi4>) outs(%{{.*}} : tensor<2x3xi8>)
// CHECK: arith.extui {{.*}} : i4 to i8
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[ELEMENTS]]
// CHECK: %[[PAIRS:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [3, 2] : tensor<6xi8> into tensor<3x2xi8>
// CHECK: %[[ZEROS:.*]] = linalg.fill
// CHECK: %[[PACKED:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[PAIRS]] : tensor<3x2xi8>) outs(%[[ZEROS]] : tensor<3xi8>)
// CHECK: arith.shli
// CHECK: arith.ori
// CHECK: return %[[PACKED]] : tensor<3xi8>
func.func private @pack(%x: tensor<2x3xi4>) -> tensor<3xi8> {
  %r = flow.tensor.bitcast %x : tensor<2x3xi4> -> tensor<3xi8>
  return %r : tensor<3xi8>
}

// -----

// Dynamic words to i2: the view's byte count is computed from the source's elements.
// CHECK-LABEL: func.func private @words
// CHECK-SAME: (%[[W:.*]]: tensor<?xi32>, %[[N:.*]]: index, %{{.*}}: index)
// CHECK: %[[COUNT:.*]] = arith.muli %{{.*}}, %c4
// CHECK: flow.tensor.bitcast %[[W]] : tensor<?xi32>{%[[N]]} -> tensor<?xi8>{%[[COUNT]]}
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x4xi8>)
// CHECK: tensor.collapse_shape {{.*}} : tensor<?x4xi8> into tensor<?xi8>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?xi2>)
func.func private @words(%w: tensor<?xi32>, %n: index, %m: index) -> tensor<?xi2> {
  %r = flow.tensor.bitcast %w : tensor<?xi32>{%n} -> tensor<?xi2>{%m}
  return %r : tensor<?xi2>
}

// -----

// The same width into rows that are not whole bytes: element bytes, reshaped, narrowed.
// CHECK-LABEL: func.func private @same_width
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<6xi4>) outs(%{{.*}} : tensor<6xi8>)
// CHECK: tensor.expand_shape {{.*}} : tensor<6xi8> into tensor<2x3xi8>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<2x3xi8>) outs(%{{.*}} : tensor<2x3xf4E2M1FN>)
// CHECK: arith.bitcast {{.*}} : i4 to f4E2M1FN
func.func private @same_width(%x: tensor<6xi4>) -> tensor<2x3xf4E2M1FN> {
  %r = flow.tensor.bitcast %x : tensor<6xi4> -> tensor<2x3xf4E2M1FN>
  return %r : tensor<2x3xf4E2M1FN>
}

// -----

// A reshape from a packed [6] into rows of 3 (one element a byte), and a cast to a
// dynamic shape: the same reshape of the element bytes between conversions.
// CHECK-LABEL: func.func private @reshapes
// CHECK: %[[BYTES:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<6xi4>) outs(%{{.*}} : tensor<6xi8>)
// CHECK: %[[ROWS:.*]] = flow.tensor.reshape %[[BYTES]] : tensor<6xi8> -> tensor<2x3xi8>
// CHECK: linalg.generic {{.*}} ins(%[[ROWS]] : tensor<2x3xi8>) outs(%{{.*}} : tensor<2x3xi4>)
// CHECK: %[[BYTES2:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<6xi4>) outs(%{{.*}} : tensor<6xi8>)
// CHECK: %[[CAST:.*]] = tensor.cast %[[BYTES2]] : tensor<6xi8> to tensor<?xi8>
// CHECK: linalg.generic {{.*}} ins(%[[CAST]] : tensor<?xi8>) outs(%{{.*}} : tensor<?xi4>)
func.func private @reshapes(%x: tensor<6xi4>) -> (tensor<2x3xi4>, tensor<?xi4>) {
  %r = flow.tensor.reshape %x : tensor<6xi4> -> tensor<2x3xi4>
  %c = tensor.cast %x : tensor<6xi4> to tensor<?xi4>
  return %r, %c : tensor<2x3xi4>, tensor<?xi4>
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

func.func private @different_widths(%x: tensor<3xi4>) -> tensor<6xi2> {
  // expected-error @+1 {{cannot reinterpret 'tensor<3xi4>' as 'tensor<6xi2>' (sub-byte elements in rows that are not whole bytes are stored one per byte): elements of different sub-byte widths}}
  %r = flow.tensor.bitcast %x : tensor<3xi4> -> tensor<6xi2>
  return %r : tensor<6xi2>
}

// -----

// A public function's sub-byte argument is the caller's packed buffer: stored one element
// a byte inside kiln (a dynamic length), it is viewed as bytes (marked, so it stays a
// view) and unpacked; its sub-byte result is packed and viewed.
// CHECK-LABEL: func.func @boundary
// CHECK-SAME: (%[[ARG:.*]]: tensor<?xi4>) -> tensor<?xi4>
// CHECK: %[[N:.*]] = tensor.dim %[[ARG]]
// CHECK: %[[BYTES:.*]] = flow.tensor.bitcast %[[ARG]] : tensor<?xi4>{%[[N]]} -> tensor<?xi8>{%{{.*}}} {kiln.packed_boundary}
// CHECK: %[[UNPACKED:.*]] = linalg.generic {{.*}} ins(%[[BYTES]] : tensor<?xi8>) outs(%{{.*}} : tensor<?x2xi8>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[UNPACKED]]
// CHECK: %[[ELEMENTS:.*]] = linalg.generic {{.*}} ins(%[[FLAT]] : tensor<?xi8>) outs(%{{.*}} : tensor<?xi4>)
// CHECK: %[[SUM:.*]] = arith.addi %[[ELEMENTS]], %[[ELEMENTS]] : tensor<?xi4>
// CHECK: %[[PACKED:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK: %[[VIEW:.*]] = flow.tensor.bitcast %[[PACKED]] : tensor<?xi8>{%{{.*}}} -> tensor<?xi4>{%{{.*}}} {kiln.packed_boundary}
// CHECK: return %[[VIEW]]
func.func @boundary(%x: tensor<?xi4>) -> tensor<?xi4> {
  %r = arith.addi %x, %x : tensor<?xi4>
  return %r : tensor<?xi4>
}

// -----

// A packed argument and result are kiln's storage already: nothing changes.
// CHECK-LABEL: func.func @packed_boundary
// CHECK-NEXT: arith.addi
// CHECK-NEXT: return
func.func @packed_boundary(%x: tensor<4x8xi4>) -> tensor<4x8xi4> {
  %r = arith.addi %x, %x : tensor<4x8xi4>
  return %r : tensor<4x8xi4>
}

// -----

// expected-error @+1 {{argument 0 of 'odd' is 'tensor<3xi4>': its sub-byte elements do not fill whole bytes}}
func.func @odd(%x: tensor<3xi4>) -> tensor<3xi8> {
  %r = arith.extui %x : tensor<3xi4> to tensor<3xi8>
  return %r : tensor<3xi8>
}

// -----

// expected-error @+1 {{'called' takes or returns tensors of sub-byte elements whose rows are not whole bytes, packed as a program's arguments and results are, and is also called inside the program, where they are a byte each: make the called function private}}
func.func @called(%x: tensor<?xi4>) -> tensor<?xi4> {
  return %x : tensor<?xi4>
}
func.func @caller(%x: tensor<?xi8>) -> tensor<?xi8> {
  %n = arith.trunci %x : tensor<?xi8> to tensor<?xi4>
  %r = call @called(%n) : (tensor<?xi4>) -> tensor<?xi4>
  %w = arith.extui %r : tensor<?xi4> to tensor<?xi8>
  return %w : tensor<?xi8>
}

// -----

func.func private @partial_byte(%x: tensor<3xi4>, %n: index) -> tensor<?xi8> {
  // expected-error @+1 {{cannot reinterpret 'tensor<3xi4>' as 'tensor<?xi8>' (sub-byte elements in rows that are not whole bytes are stored one per byte): the source's elements do not fill whole bytes}}
  %r = flow.tensor.bitcast %x : tensor<3xi4> -> tensor<?xi8>{%n}
  return %r : tensor<?xi8>
}

// -----

// A packed sub-byte global bound to a parameter: the file's packed bytes go to @w__packed
// (the last dimension in bytes), and an initializer right after it gives them to @w as a
// view.
// CHECK-LABEL: util.global private @w__packed = #stream.parameter.named<"model"::"w"> : tensor<4x3xi8>
// CHECK-NEXT: util.global private @w : tensor<4x6xi4>
// CHECK-NEXT: func.func private @__kiln_unpack_w() attributes {kiln.initializer}
// CHECK-NEXT: %[[BYTES:.*]] = util.global.load @w__packed : tensor<4x3xi8>
// CHECK-NEXT: %[[VIEW:.*]] = flow.tensor.bitcast %[[BYTES]] : tensor<4x3xi8> -> tensor<4x6xi4>
// CHECK-NEXT: util.global.store %[[VIEW]], @w : tensor<4x6xi4>
util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<4x6xi4>

// -----

// Rows that are not whole bytes: 1-D packed bytes when the total fills them, unpacked to
// one element a byte by the initializer.
// CHECK-LABEL: util.global private @odd__packed = #stream.parameter.named<"model"::"odd"> : tensor<3xi8>
// CHECK: func.func private @__kiln_unpack_odd()
// CHECK: linalg.generic
util.global private @odd = #stream.parameter.named<"model"::"odd"> : tensor<2x3xi4>

// -----

// expected-error @+1 {{binds a parameter to 'tensor<3xi4>', whose sub-byte elements do not fill whole bytes}}
util.global private @bad = #stream.parameter.named<"model"::"bad"> : tensor<3xi4>
