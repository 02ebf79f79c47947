// Tensors of sub-byte elements whose rows are whole bytes are stored packed between
// dispatches (two i4 or four i2 a byte, the first in the low bits: compiler/utils/
// SubByteStorage.h): kernels read and write the bytes (kiln-lower-sub-byte-bindings), the
// host packs constants and reads single elements, and reshapes into rows that are not
// whole bytes convert the storage. Each optimization_barrier keeps a tensor in a buffer.
// RUN: kiln-check %s --device=cpu
// RUN: kiln-check %s --device=cpu-sync
// RUN: kiln-check %s --device=hip-sim
// The buffer between the two dispatches of @i4_through_packed_buffers is the packed bytes, and so
// is the result of @i2_packed_row_max.
// RUN: rm -rf %t.dir && kiln-compile %s -o %t.kiln --dump-dispatches=%t.dir && cat %t.dir/* | FileCheck %s --check-prefix=BINDINGS
// BINDINGS-DAG: memref<37x16xi8>
// BINDINGS-DAG: memref<3x1xi8>

#map2 = affine_map<(i, j) -> (i, j)>
#rows = affine_map<(i, j) -> (i)>

// (seed * i + j) mod 16 - 8 over 37 x 32 elements, as i32.
func.func private @pattern(%seed: tensor<37x32xi32>) -> tensor<37x32xi32> {
  %init = tensor.empty() : tensor<37x32xi32>
  %r = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%seed : tensor<37x32xi32>) outs(%init : tensor<37x32xi32>) {
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
  } -> tensor<37x32xi32>
  return %r : tensor<37x32xi32>
}

func.func private @to_i4(%values: tensor<37x32xi32>) -> tensor<37x32xi4> {
  %init4 = tensor.empty() : tensor<37x32xi4>
  %narrow = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%values : tensor<37x32xi32>) outs(%init4 : tensor<37x32xi4>) {
  ^bb0(%v: i32, %o: i4):
    %t = arith.trunci %v : i32 to i4
    linalg.yield %t : i4
  } -> tensor<37x32xi4>
  return %narrow : tensor<37x32xi4>
}

// Signed i4 values written packed by one dispatch and read by the next.
func.func @i4_through_packed_buffers() {
  %seed = util.unfoldable_constant dense<3> : tensor<37x32xi32>
  %expected = call @pattern(%seed) : (tensor<37x32xi32>) -> tensor<37x32xi32>
  %narrow = call @to_i4(%expected) : (tensor<37x32xi32>) -> tensor<37x32xi4>
  %kept = util.optimization_barrier %narrow : tensor<37x32xi4>
  %init32 = tensor.empty() : tensor<37x32xi32>
  %wide = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%kept : tensor<37x32xi4>) outs(%init32 : tensor<37x32xi32>) {
  ^bb0(%v: i4, %o: i32):
    %e = arith.extsi %v : i4 to i32
    linalg.yield %e : i32
  } -> tensor<37x32xi32>
  check.expect_eq(%wide, %expected) : tensor<37x32xi32>
  // The packed bytes are the IREE order: element 2 j in the low nibble of byte j.
  %bytes = flow.tensor.bitcast %kept : tensor<37x32xi4> -> tensor<37x16xi8>
  %first = tensor.extract_slice %bytes[1, 0] [1, 4] [1, 1] : tensor<37x16xi8> to tensor<4xi8>
  // Row 1 of the pattern with seed 3: 3 + j - 8 = -5, -4, ..., as nibbles 0xB, 0xC, ...
  // 0xCB, 0xED, 0x0F, 0x21 as signed bytes.
  check.expect_eq_const(%first, dense<[-53, -19, 15, 33]> : tensor<4xi8>) : tensor<4xi8>
  return
}

// Row sums of packed i4: the reduction runs over bytes, both nibbles of each.
func.func @i4_packed_row_sums() {
  %seed = util.unfoldable_constant dense<5> : tensor<37x32xi32>
  %values = call @pattern(%seed) : (tensor<37x32xi32>) -> tensor<37x32xi32>
  %narrow = call @to_i4(%values) : (tensor<37x32xi32>) -> tensor<37x32xi4>
  %kept = util.optimization_barrier %narrow : tensor<37x32xi4>
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<37xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<37xi32>) -> tensor<37xi32>
  %sums = linalg.generic {indexing_maps = [#map2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%kept : tensor<37x32xi4>) outs(%init : tensor<37xi32>) {
  ^bb0(%v: i4, %acc: i32):
    %e = arith.extsi %v : i4 to i32
    %s = arith.addi %acc, %e : i32
    linalg.yield %s : i32
  } -> tensor<37xi32>
  %expected = linalg.generic {indexing_maps = [#map2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%values : tensor<37x32xi32>) outs(%init : tensor<37xi32>) {
  ^bb0(%v: i32, %acc: i32):
    %s = arith.addi %acc, %v : i32
    linalg.yield %s : i32
  } -> tensor<37xi32>
  check.expect_eq(%sums, %expected) : tensor<37xi32>
  return
}

// Row maxima computed into a packed [3, 4] of i2 (a reduction whose four accumulators
// share a byte), with unsigned values 0..3.
func.func @i2_packed_row_max() {
  %values = util.unfoldable_constant dense<[[0, 1, 2], [3, 0, 0], [1, 1, 0], [2, 0, 2], [0, 0, 0], [1, 3, 2],
                                            [2, 2, 1], [0, 3, 0], [1, 0, 0], [3, 3, 3], [0, 1, 0], [2, 1, 0]]> : tensor<12x3xi32>
  %as_rows = tensor.expand_shape %values [[0, 1], [2]] output_shape [3, 4, 3] : tensor<12x3xi32> into tensor<3x4x3xi32>
  %zero = arith.constant 0 : i2
  %empty = tensor.empty() : tensor<3x4xi2>
  %init = linalg.fill ins(%zero : i2) outs(%empty : tensor<3x4xi2>) -> tensor<3x4xi2>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%as_rows : tensor<3x4x3xi32>) outs(%init : tensor<3x4xi2>) {
  ^bb0(%v: i32, %acc: i2):
    %t = arith.trunci %v : i32 to i2
    %m = arith.maxui %acc, %t : i2
    linalg.yield %m : i2
  } -> tensor<3x4xi2>
  %kept = util.optimization_barrier %max : tensor<3x4xi2>
  %empty8 = tensor.empty() : tensor<3x4xi8>
  %wide = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%kept : tensor<3x4xi2>) outs(%empty8 : tensor<3x4xi8>) {
  ^bb0(%v: i2, %o: i8):
    %e = arith.extui %v : i2 to i8
    linalg.yield %e : i8
  } -> tensor<3x4xi8>
  check.expect_eq_const(%wide, dense<[[2, 3, 1, 2], [0, 3, 2, 3], [1, 3, 1, 2]]> : tensor<3x4xi8>) : tensor<3x4xi8>
  return
}

// Packed constants in the host program (non-splat and splat), read by dispatches and one
// element read on the host.
func.func @packed_constants() {
  %c = util.unfoldable_constant dense<[1, -2, 3, 7, -8, 0, 5, -1]> : tensor<8xi4>
  %e = tensor.empty() : tensor<8xi32>
  %w = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%c : tensor<8xi4>) outs(%e : tensor<8xi32>) {
  ^bb0(%v: i4, %o: i32):
    %x = arith.extsi %v : i4 to i32
    linalg.yield %x : i32
  } -> tensor<8xi32>
  check.expect_eq_const(%w, dense<[1, -2, 3, 7, -8, 0, 5, -1]> : tensor<8xi32>) : tensor<8xi32>
  %bytes = flow.tensor.bitcast %c : tensor<8xi4> -> tensor<4xi8>
  // 0xE1, 0x73, 0x08, 0xF5.
  check.expect_eq_const(%bytes, dense<[-31, 115, 8, -11]> : tensor<4xi8>) : tensor<4xi8>
  %s = util.unfoldable_constant dense<-3> : tensor<6xi4>
  %s_bytes = flow.tensor.bitcast %s : tensor<6xi4> -> tensor<3xi8>
  // 0xDD three times.
  check.expect_eq_const(%s_bytes, dense<-35> : tensor<3xi8>) : tensor<3xi8>
  %c7 = arith.constant 7 : index
  %last = tensor.extract %c[%c7] : tensor<8xi4>
  %last32 = arith.extsi %last : i4 to i32
  %minus_one = arith.constant -1 : i32
  %same = arith.cmpi eq, %last32, %minus_one : i32
  %flag = arith.extui %same : i1 to i32
  check.expect_true(%flag) : i32
  return
}

// A packed [6] of i4 reshaped into rows of 3 (not whole bytes, so one element a byte)
// and back: the storage changes, the values do not.
func.func @reshape_between_storages() {
  %c = util.unfoldable_constant dense<[1, -2, 3, 7, -8, 0]> : tensor<6xi4>
  %kept = util.optimization_barrier %c : tensor<6xi4>
  %rows = flow.tensor.reshape %kept : tensor<6xi4> -> tensor<2x3xi4>
  %e = tensor.empty() : tensor<2x3xi32>
  %w = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]}
      ins(%rows : tensor<2x3xi4>) outs(%e : tensor<2x3xi32>) {
  ^bb0(%v: i4, %o: i32):
    %x = arith.extsi %v : i4 to i32
    linalg.yield %x : i32
  } -> tensor<2x3xi32>
  check.expect_eq_const(%w, dense<[[1, -2, 3], [7, -8, 0]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  %kept_rows = util.optimization_barrier %rows : tensor<2x3xi4>
  %flat = flow.tensor.reshape %kept_rows : tensor<2x3xi4> -> tensor<6xi4>
  %bytes = flow.tensor.bitcast %flat : tensor<6xi4> -> tensor<3xi8>
  // 0xE1, 0x73, 0x08.
  check.expect_eq_const(%bytes, dense<[-31, 115, 8]> : tensor<3xi8>) : tensor<3xi8>
  return
}
