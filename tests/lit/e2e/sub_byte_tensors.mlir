// Tensors of sub-byte elements (i2, i4, f4E2M1FN) between dispatches: rows that are not
// whole bytes (37 x 29, a dynamic x 5) are stored one element per byte, the others packed
// (kiln-lower-sub-byte-bindings), and flow.tensor.bitcast between them and bytes is a view
// or an unpacking (kiln-expand-sub-byte-bitcasts), on every device. Each
// optimization_barrier keeps a sub-byte tensor in a buffer between two dispatches.
// packed_sub_byte_tensors.mlir has the packed cases.
// RUN: kiln-check %s --device=cpu
// RUN: kiln-check %s --device=cpu-sync
// RUN: kiln-check %s --device=hip-sim

#map2 = affine_map<(i, j) -> (i, j)>
#rows = affine_map<(i, j) -> (i)>

// (seed * i + j) mod 16 - 8 over 37 x 29 elements, as i32.
func.func private @pattern(%seed: tensor<37x29xi32>) -> tensor<37x29xi32> {
  %init = tensor.empty() : tensor<37x29xi32>
  %r = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%seed : tensor<37x29xi32>) outs(%init : tensor<37x29xi32>) {
  ^bb0(%s: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %p = arith.muli %s, %ii : i32
    %q = arith.addi %p, %jj : i32
    %c16 = arith.constant 16 : i32
    %c8 = arith.constant 8 : i32
    %m = arith.remui %q, %c16 : i32
    %v = arith.subi %m, %c8 : i32
    linalg.yield %v : i32
  } -> tensor<37x29xi32>
  return %r : tensor<37x29xi32>
}

// Signed i4 values through a buffer of 37 x 29 elements (several workgroups), back to i32.
func.func @i4_through_buffers() {
  %seed = util.unfoldable_constant dense<3> : tensor<37x29xi32>
  %expected = call @pattern(%seed) : (tensor<37x29xi32>) -> tensor<37x29xi32>
  %init4 = tensor.empty() : tensor<37x29xi4>
  %narrow = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%expected : tensor<37x29xi32>) outs(%init4 : tensor<37x29xi4>) {
  ^bb0(%v: i32, %o: i4):
    %t = arith.trunci %v : i32 to i4
    linalg.yield %t : i4
  } -> tensor<37x29xi4>
  %kept = util.optimization_barrier %narrow : tensor<37x29xi4>
  %init32 = tensor.empty() : tensor<37x29xi32>
  %wide = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%kept : tensor<37x29xi4>) outs(%init32 : tensor<37x29xi32>) {
  ^bb0(%v: i4, %o: i32):
    %e = arith.extsi %v : i4 to i32
    linalg.yield %e : i32
  } -> tensor<37x29xi32>
  check.expect_eq(%wide, %expected) : tensor<37x29xi32>
  return
}

// Row sums of i4 elements read from a buffer: the read fuses into a reduction.
func.func @i4_row_sums() {
  %seed = util.unfoldable_constant dense<5> : tensor<37x29xi32>
  %values = call @pattern(%seed) : (tensor<37x29xi32>) -> tensor<37x29xi32>
  %init4 = tensor.empty() : tensor<37x29xi4>
  %narrow = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%values : tensor<37x29xi32>) outs(%init4 : tensor<37x29xi4>) {
  ^bb0(%v: i32, %o: i4):
    %t = arith.trunci %v : i32 to i4
    linalg.yield %t : i4
  } -> tensor<37x29xi4>
  %kept = util.optimization_barrier %narrow : tensor<37x29xi4>
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<37xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<37xi32>) -> tensor<37xi32>
  %sums = linalg.generic {indexing_maps = [#map2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%kept : tensor<37x29xi4>) outs(%init : tensor<37xi32>) {
  ^bb0(%v: i4, %acc: i32):
    %e = arith.extsi %v : i4 to i32
    %s = arith.addi %acc, %e : i32
    linalg.yield %s : i32
  } -> tensor<37xi32>
  %expected = linalg.generic {indexing_maps = [#map2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%values : tensor<37x29xi32>) outs(%init : tensor<37xi32>) {
  ^bb0(%v: i32, %acc: i32):
    %s = arith.addi %acc, %v : i32
    linalg.yield %s : i32
  } -> tensor<37xi32>
  check.expect_eq(%sums, %expected) : tensor<37xi32>
  return
}

// Unsigned i2 elements of a tensor with a dynamic dimension.
func.func @i2_dynamic_rows() {
  %values = flow.tensor.dynamic_constant dense<[[0, 1, 2, 3, 3], [2, 1, 0, 1, 2]]> : tensor<2x5xi32> -> tensor<?x5xi32>
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %values, %c0 : tensor<?x5xi32>
  %init2 = tensor.empty(%rows) : tensor<?x5xi2>
  %narrow = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%values : tensor<?x5xi32>) outs(%init2 : tensor<?x5xi2>) {
  ^bb0(%v: i32, %o: i2):
    %t = arith.trunci %v : i32 to i2
    linalg.yield %t : i2
  } -> tensor<?x5xi2>
  %kept = util.optimization_barrier %narrow : tensor<?x5xi2>
  %init8 = tensor.empty(%rows) : tensor<?x5xi8>
  %wide = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%kept : tensor<?x5xi2>) outs(%init8 : tensor<?x5xi8>) {
  ^bb0(%v: i2, %o: i8):
    %e = arith.extui %v : i2 to i8
    linalg.yield %e : i8
  } -> tensor<?x5xi8>
  %static = tensor.cast %wide : tensor<?x5xi8> to tensor<2x5xi8>
  check.expect_eq_const(%static, dense<[[0, 1, 2, 3, 3], [2, 1, 0, 1, 2]]> : tensor<2x5xi8>) : tensor<2x5xi8>
  return
}

// Packed f4E2M1FN pairs in bytes, negated element by element: each nibble's sign bit
// (bit 3) flips. 0x21 holds 0.5 (0x1, low nibble first) and 1.0 (0x2).
func.func @f4_bytes_negated() {
  %bytes = util.unfoldable_constant dense<[[0x21, 0x43, 0x65], [0x17, 0x32, 0x54]]> : tensor<2x3xi8>
  %f4 = flow.tensor.bitcast %bytes : tensor<2x3xi8> -> tensor<2x6xf4E2M1FN>
  %init = tensor.empty() : tensor<2x6xf4E2M1FN>
  %neg = linalg.negf ins(%f4 : tensor<2x6xf4E2M1FN>) outs(%init : tensor<2x6xf4E2M1FN>) -> tensor<2x6xf4E2M1FN>
  %kept = util.optimization_barrier %neg : tensor<2x6xf4E2M1FN>
  %result = flow.tensor.bitcast %kept : tensor<2x6xf4E2M1FN> -> tensor<2x3xi8>
  // 0xA9 0xCB 0xED, 0x9F 0xBA 0xDC as signed bytes.
  check.expect_eq_const(%result, dense<[[-87, -53, -19], [-97, -70, -36]]> : tensor<2x3xi8>) : tensor<2x3xi8>
  return
}

// Words to nibbles (the words' bytes in memory order, each low nibble first) and back.
func.func @i4_from_and_to_words() {
  // 0x76543210 and 0xFEDCBA98.
  %words = util.unfoldable_constant dense<[1985229328, -19088744]> : tensor<2xi32>
  %nibbles = flow.tensor.bitcast %words : tensor<2xi32> -> tensor<4x4xi4>
  %init = tensor.empty() : tensor<4x4xi8>
  %wide = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%nibbles : tensor<4x4xi4>) outs(%init : tensor<4x4xi8>) {
  ^bb0(%v: i4, %o: i8):
    %e = arith.extui %v : i4 to i8
    linalg.yield %e : i8
  } -> tensor<4x4xi8>
  check.expect_eq_const(%wide, dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi8>) : tensor<4x4xi8>
  %halves = flow.tensor.bitcast %nibbles : tensor<4x4xi4> -> tensor<4xi16>
  // 0x3210, 0x7654, 0xBA98, 0xFEDC as signed 16-bit values.
  check.expect_eq_const(%halves, dense<[12816, 30292, -17768, -292]> : tensor<4xi16>) : tensor<4xi16>
  return
}

// i4 bits read as f4E2M1FN (the same width: element for element).
func.func @i4_as_f4() {
  %bytes = util.unfoldable_constant dense<[0x21, 0x43, 0x65, 0xA7]> : tensor<4xi8>
  %i4 = flow.tensor.bitcast %bytes : tensor<4xi8> -> tensor<8xi4>
  %f4 = flow.tensor.bitcast %i4 : tensor<8xi4> -> tensor<8xf4E2M1FN>
  %init = tensor.empty() : tensor<8xf32>
  %f32 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%f4 : tensor<8xf4E2M1FN>) outs(%init : tensor<8xf32>) {
  ^bb0(%v: f4E2M1FN, %o: f32):
    %e = arith.extf %v : f4E2M1FN to f32
    linalg.yield %e : f32
  } -> tensor<8xf32>
  check.expect_almost_eq_const(%f32, dense<[0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -1.0]> : tensor<8xf32>) : tensor<8xf32>
  return
}

// Row maxima computed in i4 (a reduction whose accumulator is i4) through a buffer.
func.func @i4_row_max() {
  %seed = util.unfoldable_constant dense<7> : tensor<37x29xi32>
  %values = call @pattern(%seed) : (tensor<37x29xi32>) -> tensor<37x29xi32>
  %lowest = arith.constant -8 : i4
  %empty4 = tensor.empty() : tensor<37xi4>
  %init4 = linalg.fill ins(%lowest : i4) outs(%empty4 : tensor<37xi4>) -> tensor<37xi4>
  %max4 = linalg.generic {indexing_maps = [#map2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%values : tensor<37x29xi32>) outs(%init4 : tensor<37xi4>) {
  ^bb0(%v: i32, %acc: i4):
    %t = arith.trunci %v : i32 to i4
    %m = arith.maxsi %acc, %t : i4
    linalg.yield %m : i4
  } -> tensor<37xi4>
  %kept = util.optimization_barrier %max4 : tensor<37xi4>
  %empty32 = tensor.empty() : tensor<37xi32>
  %wide = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%kept : tensor<37xi4>) outs(%empty32 : tensor<37xi32>) {
  ^bb0(%v: i4, %o: i32):
    %e = arith.extsi %v : i4 to i32
    linalg.yield %e : i32
  } -> tensor<37xi32>
  %lowest32 = arith.constant -8 : i32
  %init32 = linalg.fill ins(%lowest32 : i32) outs(%empty32 : tensor<37xi32>) -> tensor<37xi32>
  %expected = linalg.generic {indexing_maps = [#map2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%values : tensor<37x29xi32>) outs(%init32 : tensor<37xi32>) {
  ^bb0(%v: i32, %acc: i32):
    %m = arith.maxsi %acc, %v : i32
    linalg.yield %m : i32
  } -> tensor<37xi32>
  check.expect_eq(%wide, %expected) : tensor<37xi32>
  return
}

// i4 constants in the host program (odd lengths: a byte per element, splat or not) read
// by a dispatch.
func.func @constant_i4() {
  %c = util.unfoldable_constant dense<[1, -2, 3, 7, -8, 0, 5, -1, 2]> : tensor<9xi4>
  %e = tensor.empty() : tensor<9xi32>
  %w = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%c : tensor<9xi4>) outs(%e : tensor<9xi32>) {
  ^bb0(%v: i4, %o: i32):
    %x = arith.extsi %v : i4 to i32
    linalg.yield %x : i32
  } -> tensor<9xi32>
  check.expect_eq_const(%w, dense<[1, -2, 3, 7, -8, 0, 5, -1, 2]> : tensor<9xi32>) : tensor<9xi32>
  %s = util.unfoldable_constant dense<-3> : tensor<5xi4>
  %e5 = tensor.empty() : tensor<5xi32>
  %w5 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%s : tensor<5xi4>) outs(%e5 : tensor<5xi32>) {
  ^bb0(%v: i4, %o: i32):
    %x = arith.extsi %v : i4 to i32
    linalg.yield %x : i32
  } -> tensor<5xi32>
  check.expect_eq_const(%w5, dense<-3> : tensor<5xi32>) : tensor<5xi32>
  return
}
