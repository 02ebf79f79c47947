// topk's vector filter (VectorTopk.h) against the sequential insertions it must
// reproduce: remainders and rows shorter than a vector, ties, NaN, infinities, integer,
// f16, bf16, f64 and i8 lines, kept outputs out of order, comparators with constants, k from 2
// to 20 and dynamic, topk_v2. The expected values come from a plain model of the op's
// loop (insert an element that beats the k-th after its equals), computed off-line; the
// GPU (hip-sim) runs the scalar loops, the CPU the vector filter.
// RUN: kiln-check %s --device=cpu
// RUN: kiln-check %s --device=cpu-sync
// RUN: kiln-check %s --device=hip-sim

// Rows of 37 (two vectors of 16 and a scalar tail of 5), many ties, infinities in
// row 2; the largest of row 0 in its tail.
func.func @ties_remainder() {
  %x = util.unfoldable_constant dense<[[-2.5, 2.0, 0.0, -2.0, 3.5, 1.0, -1.0, -3.0, 2.5, 0.0, -2.0, 3.0, 1.5, -1.0, -3.0, 2.0, 0.5, -2.0, 3.0, 1.0, -0.5, -3.0, 2.0, 0.0, -1.5, 3.0, 1.0, -1.0, -2.5, 2.0, 0.0, -2.0, 3.5, 1.0, -1.0, -3.0, 9.0], [0.0, -2.0, 3.0, 1.5, -1.0, -3.0, 2.0, 0.5, -2.0, 3.0, 1.0, -0.5, -3.0, 2.0, 0.0, -1.5, 3.0, 1.0, -1.0, -2.5, 2.0, 0.0, -2.0, 3.5, 1.0, -1.0, -3.0, 2.5, 0.0, -2.0, 3.0, 1.5, -1.0, -3.0, 2.0, 0.5, -2.0], [3.0, 1.0, -0.5, 0x7F800000, 2.0, 0.0, -1.5, 3.0, 1.0, -1.0, -2.5, 2.0, 0.0, -2.0, 3.5, 1.0, -1.0, -3.0, 2.5, 0.0, -2.0, 3.0, 1.5, -1.0, -3.0, 2.0, 0.5, -2.0, 3.0, 1.0, 0xFF800000, -3.0, 2.0, 0.0, -1.5, 3.0, 1.0]]> : tensor<3x37xf32>
  %v0 = util.unfoldable_constant dense<[[0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000]]> : tensor<3x5xf32>
  %i0 = util.unfoldable_constant dense<[[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]> : tensor<3x5xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<3x37xf32>)
      outs(%v0, %i0 : tensor<3x5xf32>, tensor<3x5xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<3x5xf32>, tensor<3x5xi32>
  check.expect_eq_const(%t#0, dense<[[9.0, 3.5, 3.5, 3.0, 3.0], [3.5, 3.0, 3.0, 3.0, 3.0], [0x7F800000, 3.5, 3.0, 3.0, 3.0]]> : tensor<3x5xf32>) : tensor<3x5xf32>
  check.expect_eq_const(%t#1, dense<[[36, 4, 32, 11, 18], [23, 2, 9, 16, 30], [3, 14, 0, 7, 21]]> : tensor<3x5xi32>) : tensor<3x5xi32>
  return
}

// Rows shorter than one vector: the scalar loop alone.
func.func @shorter_than_a_vector() {
  %x = util.unfoldable_constant dense<[[-1.0, 2.0, 0.0, 3.0, 1.0], [0.0, 3.0, 1.0, -1.0, 2.0]]> : tensor<2x5xf32>
  %v0 = util.unfoldable_constant dense<[[0xFF800000, 0xFF800000, 0xFF800000], [0xFF800000, 0xFF800000, 0xFF800000]]> : tensor<2x3xf32>
  %i0 = util.unfoldable_constant dense<[[0, 0, 0], [0, 0, 0]]> : tensor<2x3xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x5xf32>)
      outs(%v0, %i0 : tensor<2x3xf32>, tensor<2x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x3xf32>, tensor<2x3xi32>
  check.expect_eq_const(%t#0, dense<[[3.0, 2.0, 1.0], [3.0, 2.0, 1.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  check.expect_eq_const(%t#1, dense<[[3, 1, 4], [1, 4, 2]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// The 4 smallest i32 of rows of 70 (ties), from a fill of INT32_MAX.
func.func @smallest_i32() {
  %x = util.unfoldable_constant dense<[[-11, 2, -8, 5, -5, 8, -2, 11, 1, -9, 4, -6, 7, -3, 10, 0, -10, 3, -7, 6, -4, 9, -1, -11, 2, -8, 5, -5, 8, -2, 11, 1, -9, 4, -6, 7, -3, 10, 0, -10, 3, -7, 6, -4, 9, -1, -11, 2, -8, 5, -5, 8, -2, 11, 1, -9, 4, -6, 7, -3, 10, 0, -10, 3, -7, 6, -4, 9, -1, -11], [-4, 9, -1, -11, 2, -8, 5, -5, 8, -2, 11, 1, -9, 4, -6, 7, -3, 10, 0, -10, 3, -7, 6, -4, 9, -1, -11, 2, -8, 5, -5, 8, -2, 11, 1, -9, 4, -6, 7, -3, 10, 0, -10, 3, -7, 6, -4, 9, -1, -11, 2, -8, 5, -5, 8, -2, 11, 1, -9, 4, -6, 7, -3, 10, 0, -10, 3, -7, 6, -4]]> : tensor<2x70xi32>
  %v0 = util.unfoldable_constant dense<[[2147483647, 2147483647, 2147483647, 2147483647], [2147483647, 2147483647, 2147483647, 2147483647]]> : tensor<2x4xi32>
  %i0 = util.unfoldable_constant dense<[[0, 0, 0, 0], [0, 0, 0, 0]]> : tensor<2x4xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x70xi32>)
      outs(%v0, %i0 : tensor<2x4xi32>, tensor<2x4xi32>) {
  ^bb0(%a: i32, %b: i32):
    %r = arith.cmpi slt, %a, %b : i32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x4xi32>, tensor<2x4xi32>
  check.expect_eq_const(%t#0, dense<[[-11, -11, -11, -11], [-11, -11, -11, -10]]> : tensor<2x4xi32>) : tensor<2x4xi32>
  check.expect_eq_const(%t#1, dense<[[0, 23, 46, 69], [3, 26, 49, 19]]> : tensor<2x4xi32>) : tensor<2x4xi32>
  return
}

// Initial outputs out of order: no bound; the result is still the sequential
// insertions' (an element can beat the k-th after an insertion that it did not before).
func.func @kept_out_of_order() {
  %x = util.unfoldable_constant dense<[[-8.0, 3.0, -3.0, 8.0, 2.0, -4.0, 7.0, 1.0, -5.0, 6.0, 0.0, -6.0, 5.0, -1.0, -7.0, 4.0, -2.0, -8.0, 3.0, -3.0, 8.0, 2.0, -4.0, 7.0, 1.0, -5.0, 6.0, 0.0, -6.0, 5.0, -1.0, -7.0, 4.0, -2.0, -8.0, 3.0, -3.0, 8.0, 2.0, -4.0], [-7.0, 4.0, -2.0, -8.0, 3.0, -3.0, 8.0, 2.0, -4.0, 7.0, 1.0, -5.0, 6.0, 0.0, -6.0, 5.0, -1.0, -7.0, 4.0, -2.0, -8.0, 3.0, -3.0, 8.0, 2.0, -4.0, 7.0, 1.0, -5.0, 6.0, 0.0, -6.0, 5.0, -1.0, -7.0, 4.0, -2.0, -8.0, 3.0, -3.0]]> : tensor<2x40xf32>
  %v0 = util.unfoldable_constant dense<[[1.0, 5.0, 2.0], [0xFF800000, 3.0, 3.0]]> : tensor<2x3xf32>
  %i0 = util.unfoldable_constant dense<[[-1, -2, -3], [-4, -5, -6]]> : tensor<2x3xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x40xf32>)
      outs(%v0, %i0 : tensor<2x3xf32>, tensor<2x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x3xf32>, tensor<2x3xi32>
  check.expect_eq_const(%t#0, dense<[[8.0, 8.0, 8.0], [8.0, 8.0, 7.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  check.expect_eq_const(%t#1, dense<[[3, 20, 37], [6, 23, 9]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// f16 rows of 100 (32 lanes with AVX-512, 16 with AVX2).
func.func @f16_rows() {
  %x = util.unfoldable_constant dense<[[-10.0, 4.5, -1.5, -7.5, 7.0, 1.0, -5.0, 9.5, 3.5, -2.5, -8.5, 6.0, 0.0, -6.0, 8.5, 2.5, -3.5, -9.5, 5.0, -1.0, -7.0, 7.5, 1.5, -4.5, 10.0, 4.0, -2.0, -8.0, 6.5, 0.5, -5.5, 9.0, 3.0, -3.0, -9.0, 5.5, -0.5, -6.5, 8.0, 2.0, -4.0, -10.0, 4.5, -1.5, -7.5, 7.0, 1.0, -5.0, 9.5, 3.5, -2.5, -8.5, 6.0, 0.0, -6.0, 8.5, 2.5, -3.5, -9.5, 5.0, -1.0, -7.0, 7.5, 1.5, -4.5, 10.0, 4.0, -2.0, -8.0, 6.5, 0.5, -5.5, 9.0, 3.0, -3.0, -9.0, 5.5, -0.5, -6.5, 8.0, 2.0, -4.0, -10.0, 4.5, -1.5, -7.5, 7.0, 1.0, -5.0, 9.5, 3.5, -2.5, -8.5, 6.0, 0.0, -6.0, 8.5, 2.5, -3.5, -9.5], [-7.5, 7.0, 1.0, -5.0, 9.5, 3.5, -2.5, -8.5, 6.0, 0.0, -6.0, 8.5, 2.5, -3.5, -9.5, 5.0, -1.0, -7.0, 7.5, 1.5, -4.5, 10.0, 4.0, -2.0, -8.0, 6.5, 0.5, -5.5, 9.0, 3.0, -3.0, -9.0, 5.5, -0.5, -6.5, 8.0, 2.0, -4.0, -10.0, 4.5, -1.5, -7.5, 7.0, 1.0, -5.0, 9.5, 3.5, -2.5, -8.5, 6.0, 0.0, -6.0, 8.5, 2.5, -3.5, -9.5, 5.0, -1.0, -7.0, 7.5, 1.5, -4.5, 10.0, 4.0, -2.0, -8.0, 6.5, 0.5, -5.5, 9.0, 3.0, -3.0, -9.0, 5.5, -0.5, -6.5, 8.0, 2.0, -4.0, -10.0, 4.5, -1.5, -7.5, 7.0, 1.0, -5.0, 9.5, 3.5, -2.5, -8.5, 6.0, 0.0, -6.0, 8.5, 2.5, -3.5, -9.5, 5.0, -1.0, -7.0]]> : tensor<2x100xf16>
  %v0 = util.unfoldable_constant dense<[[0xFC00, 0xFC00, 0xFC00], [0xFC00, 0xFC00, 0xFC00]]> : tensor<2x3xf16>
  %i0 = util.unfoldable_constant dense<[[0, 0, 0], [0, 0, 0]]> : tensor<2x3xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x100xf16>)
      outs(%v0, %i0 : tensor<2x3xf16>, tensor<2x3xi32>) {
  ^bb0(%a: f16, %b: f16):
    %r = arith.cmpf ogt, %a, %b : f16
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x3xf16>, tensor<2x3xi32>
  check.expect_eq_const(%t#0, dense<[[10.0, 10.0, 9.5], [10.0, 10.0, 9.5]]> : tensor<2x3xf16>) : tensor<2x3xf16>
  check.expect_eq_const(%t#1, dense<[[24, 65, 7], [21, 62, 4]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// bf16 rows of 70 (compared in f32 on x86).
func.func @bf16_rows() {
  %x = util.unfoldable_constant dense<[[-18.0, 13.0, 7.0, 1.0, -5.0, -11.0, -17.0, 14.0, 8.0, 2.0, -4.0, -10.0, -16.0, 15.0, 9.0, 3.0, -3.0, -9.0, -15.0, 16.0, 10.0, 4.0, -2.0, -8.0, -14.0, 17.0, 11.0, 5.0, -1.0, -7.0, -13.0, 18.0, 12.0, 6.0, 0.0, -6.0, -12.0, -18.0, 13.0, 7.0, 1.0, -5.0, -11.0, -17.0, 14.0, 8.0, 2.0, -4.0, -10.0, -16.0, 15.0, 9.0, 3.0, -3.0, -9.0, -15.0, 16.0, 10.0, 4.0, -2.0, -8.0, -14.0, 17.0, 11.0, 5.0, -1.0, -7.0, -13.0, 18.0, 12.0], [-11.0, -17.0, 14.0, 8.0, 2.0, -4.0, -10.0, -16.0, 15.0, 9.0, 3.0, -3.0, -9.0, -15.0, 16.0, 10.0, 4.0, -2.0, -8.0, -14.0, 17.0, 11.0, 5.0, -1.0, -7.0, -13.0, 18.0, 12.0, 6.0, 0.0, -6.0, -12.0, -18.0, 13.0, 7.0, 1.0, -5.0, -11.0, -17.0, 14.0, 8.0, 2.0, -4.0, -10.0, -16.0, 15.0, 9.0, 3.0, -3.0, -9.0, -15.0, 16.0, 10.0, 4.0, -2.0, -8.0, -14.0, 17.0, 11.0, 5.0, -1.0, -7.0, -13.0, 18.0, 12.0, 6.0, 0.0, -6.0, -12.0, -18.0]]> : tensor<2x70xbf16>
  %v0 = util.unfoldable_constant dense<[[0xFF80, 0xFF80, 0xFF80], [0xFF80, 0xFF80, 0xFF80]]> : tensor<2x3xbf16>
  %i0 = util.unfoldable_constant dense<[[0, 0, 0], [0, 0, 0]]> : tensor<2x3xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x70xbf16>)
      outs(%v0, %i0 : tensor<2x3xbf16>, tensor<2x3xi32>) {
  ^bb0(%a: bf16, %b: bf16):
    %r = arith.cmpf ogt, %a, %b : bf16
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x3xbf16>, tensor<2x3xi32>
  check.expect_eq_const(%t#0, dense<[[18.0, 18.0, 17.0], [18.0, 18.0, 17.0]]> : tensor<2x3xbf16>) : tensor<2x3xbf16>
  check.expect_eq_const(%t#1, dense<[[31, 68, 25], [26, 63, 20]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// f64 (8 lanes with AVX-512; no bound).
func.func @f64_row() {
  %x = util.unfoldable_constant dense<[[-1.0, 0.75, 0.25, -0.25, -0.75, 1.0, 0.5, 0.0, -0.5, -1.0, 0.75, 0.25, -0.25, -0.75, 1.0, 0.5, 0.0, -0.5, -1.0, 0.75, 0.25]]> : tensor<1x21xf64>
  %v0 = util.unfoldable_constant dense<[[0xFFF0000000000000, 0xFFF0000000000000]]> : tensor<1x2xf64>
  %i0 = util.unfoldable_constant dense<[[0, 0]]> : tensor<1x2xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<1x21xf64>)
      outs(%v0, %i0 : tensor<1x2xf64>, tensor<1x2xi32>) {
  ^bb0(%a: f64, %b: f64):
    %r = arith.cmpf ogt, %a, %b : f64
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x2xf64>, tensor<1x2xi32>
  check.expect_eq_const(%t#0, dense<[[1.0, 1.0]]> : tensor<1x2xf64>) : tensor<1x2xf64>
  check.expect_eq_const(%t#1, dense<[[5, 14]]> : tensor<1x2xi32>) : tensor<1x2xi32>
  return
}

// i8 rows of 130 (64 lanes with AVX-512): the best element is lane 63 of the first
// vector, an equal one lane 0 of the next.
func.func @i8_last_lane() {
  %x = util.unfoldable_constant dense<[[-50, -13, 24, -40, -3, 34, -30, 7, 44, -20, 17, -47, -10, 27, -37, 0, 37, -27, 10, 47, -17, 20, -44, -7, 30, -34, 3, 40, -24, 13, 50, -14, 23, -41, -4, 33, -31, 6, 43, -21, 16, -48, -11, 26, -38, -1, 36, -28, 9, 46, -18, 19, -45, -8, 29, -35, 2, 39, -25, 12, 49, -15, 22, 127, 127, 32, -32, 5, 42, -22, 15, -49, -12, 25, -39, -2, 35, -29, 8, 45, -19, 18, -46, -9, 28, -36, 1, 38, -26, 11, 48, -16, 21, -43, -6, 31, -33, 4, 41, -23, 14, -50, -13, 24, -40, -3, 34, -30, 7, 44, -20, 17, -47, -10, 27, -37, 0, 37, -27, 10, 47, -17, 20, -44, -7, 30, -34, 126, 40, -24]]> : tensor<1x130xi8>
  %v0 = util.unfoldable_constant dense<[[-128, -128, -128]]> : tensor<1x3xi8>
  %i0 = util.unfoldable_constant dense<[[0, 0, 0]]> : tensor<1x3xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<1x130xi8>)
      outs(%v0, %i0 : tensor<1x3xi8>, tensor<1x3xi32>) {
  ^bb0(%a: i8, %b: i8):
    %r = arith.cmpi sgt, %a, %b : i8
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x3xi8>, tensor<1x3xi32>
  check.expect_eq_const(%t#0, dense<[[127, 127, 126]]> : tensor<1x3xi8>) : tensor<1x3xi8>
  check.expect_eq_const(%t#1, dense<[[63, 64, 127]]> : tensor<1x3xi32>) : tensor<1x3xi32>
  return
}

// A comparator with a constant and several ops (the smallest, through negation):
// vectorised as splats, no bound.
func.func @comparator_with_constant() {
  %x = util.unfoldable_constant dense<[[-9.0, 8.0, 6.0, 4.0, 2.0, 0.0, -2.0, -4.0, -6.0, -8.0, 9.0, 7.0, 5.0, 3.0, 1.0, -1.0, -3.0, -5.0, -7.0, -9.0, 8.0, 6.0, 4.0, 2.0, 0.0, -2.0, -4.0, -6.0, -8.0, 9.0, 7.0, 5.0, 3.0, 1.0, -1.0, -3.0, -5.0, -7.0, -9.0, 8.0, 6.0, 4.0, 2.0, 0.0, -2.0, -4.0, -6.0, -8.0, 9.0, 7.0], [-6.0, -8.0, 9.0, 7.0, 5.0, 3.0, 1.0, -1.0, -3.0, -5.0, -7.0, -9.0, 8.0, 6.0, 4.0, 2.0, 0.0, -2.0, -4.0, -6.0, -8.0, 9.0, 7.0, 5.0, 3.0, 1.0, -1.0, -3.0, -5.0, -7.0, -9.0, 8.0, 6.0, 4.0, 2.0, 0.0, -2.0, -4.0, -6.0, -8.0, 9.0, 7.0, 5.0, 3.0, 1.0, -1.0, -3.0, -5.0, -7.0, -9.0]]> : tensor<2x50xf32>
  %v0 = util.unfoldable_constant dense<[[0x7F800000, 0x7F800000, 0x7F800000, 0x7F800000], [0x7F800000, 0x7F800000, 0x7F800000, 0x7F800000]]> : tensor<2x4xf32>
  %i0 = util.unfoldable_constant dense<[[0, 0, 0, 0], [0, 0, 0, 0]]> : tensor<2x4xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<2x50xf32>)
      outs(%v0, %i0 : tensor<2x4xf32>, tensor<2x4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.constant -1.0 : f32
    %na = arith.mulf %a, %m : f32
    %nb = arith.mulf %b, %m : f32
    %r = arith.cmpf ogt, %na, %nb : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x4xf32>, tensor<2x4xi32>
  check.expect_eq_const(%t#0, dense<[[-9.0, -9.0, -9.0, -8.0], [-9.0, -9.0, -9.0, -8.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  check.expect_eq_const(%t#1, dense<[[0, 19, 38, 9], [11, 30, 49, 1]]> : tensor<2x4xi32>) : tensor<2x4xi32>
  return
}

// Indices from an input instead of the positions.
func.func @indices_input() {
  %x = util.unfoldable_constant dense<[[0.0, 5.0, 2.0, 7.0, 4.0, 1.0, 6.0, 3.0, 0.0, 5.0, 2.0, 7.0, 4.0, 1.0, 6.0, 3.0, 0.0, 5.0, 2.0, 7.0, 4.0, 1.0, 6.0, 3.0, 0.0, 5.0, 2.0, 7.0, 4.0, 1.0, 6.0, 3.0, 0.0], [1.0, 6.0, 3.0, 0.0, 5.0, 2.0, 7.0, 4.0, 1.0, 6.0, 3.0, 0.0, 5.0, 2.0, 7.0, 4.0, 1.0, 6.0, 3.0, 0.0, 5.0, 2.0, 7.0, 4.0, 1.0, 6.0, 3.0, 0.0, 5.0, 2.0, 7.0, 4.0, 1.0]]> : tensor<2x33xf32>
  %ix = util.unfoldable_constant dense<[[100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122, 124, 126, 128, 130, 132, 134, 136, 138, 140, 142, 144, 146, 148, 150, 152, 154, 156, 158, 160, 162, 164], [101, 103, 105, 107, 109, 111, 113, 115, 117, 119, 121, 123, 125, 127, 129, 131, 133, 135, 137, 139, 141, 143, 145, 147, 149, 151, 153, 155, 157, 159, 161, 163, 165]]> : tensor<2x33xi32>
  %v0 = util.unfoldable_constant dense<[[0xFF800000, 0xFF800000], [0xFF800000, 0xFF800000]]> : tensor<2x2xf32>
  %i0 = util.unfoldable_constant dense<[[0, 0], [0, 0]]> : tensor<2x2xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x, %ix : tensor<2x33xf32>, tensor<2x33xi32>)
      outs(%v0, %i0 : tensor<2x2xf32>, tensor<2x2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x2xf32>, tensor<2x2xi32>
  check.expect_eq_const(%t#0, dense<[[7.0, 7.0], [7.0, 7.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  check.expect_eq_const(%t#1, dense<[[106, 122], [113, 129]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

// k = 16: as many as the f32 lanes of AVX-512 (the bound's k-th best is the worst lane).
func.func @k_is_16() {
  %x = util.unfoldable_constant dense<[[0.0, 41.0, 82.0, 26.0, 67.0, 11.0, 52.0, 93.0, 37.0, 78.0, 22.0, 63.0, 7.0, 48.0, 89.0, 33.0, 74.0, 18.0, 59.0, 3.0, 44.0, 85.0, 29.0, 70.0, 14.0, 55.0, 96.0, 40.0, 81.0, 25.0, 66.0, 10.0, 51.0, 92.0, 36.0, 77.0, 21.0, 62.0, 6.0, 47.0, 88.0, 32.0, 73.0, 17.0, 58.0, 2.0, 43.0, 84.0, 28.0, 69.0, 13.0, 54.0, 95.0, 39.0, 80.0, 24.0, 65.0, 9.0, 50.0, 91.0, 35.0, 76.0, 20.0, 61.0, 5.0, 46.0, 87.0, 31.0, 72.0, 16.0, 57.0, 1.0, 42.0, 83.0, 27.0, 68.0, 12.0, 53.0, 94.0, 38.0, 79.0, 23.0, 64.0, 8.0, 49.0, 90.0, 34.0, 75.0, 19.0, 60.0, 4.0, 45.0, 86.0, 30.0, 71.0, 15.0, 56.0, 0.0, 41.0, 82.0]]> : tensor<1x100xf32>
  %v0 = util.unfoldable_constant dense<[[0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000]]> : tensor<1x16xf32>
  %i0 = util.unfoldable_constant dense<[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]> : tensor<1x16xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<1x100xf32>)
      outs(%v0, %i0 : tensor<1x16xf32>, tensor<1x16xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x16xf32>, tensor<1x16xi32>
  check.expect_eq_const(%t#0, dense<[[96.0, 95.0, 94.0, 93.0, 92.0, 91.0, 90.0, 89.0, 88.0, 87.0, 86.0, 85.0, 84.0, 83.0, 82.0, 82.0]]> : tensor<1x16xf32>) : tensor<1x16xf32>
  check.expect_eq_const(%t#1, dense<[[26, 52, 78, 7, 33, 59, 85, 14, 40, 66, 92, 21, 47, 73, 2, 99]]> : tensor<1x16xi32>) : tensor<1x16xi32>
  return
}

// k = 12.
func.func @k_is_12() {
  %x = util.unfoldable_constant dense<[[0.0, 23.0, 15.0, 7.0, 30.0, 22.0, 14.0, 6.0, 29.0, 21.0, 13.0, 5.0, 28.0, 20.0, 12.0, 4.0, 27.0, 19.0, 11.0, 3.0, 26.0, 18.0, 10.0, 2.0, 25.0, 17.0, 9.0, 1.0, 24.0, 16.0, 8.0, 0.0, 23.0, 15.0, 7.0, 30.0, 22.0, 14.0, 6.0, 29.0, 21.0, 13.0, 5.0, 28.0, 20.0, 12.0, 4.0, 27.0, 19.0, 11.0, 3.0, 26.0, 18.0, 10.0, 2.0, 25.0, 17.0, 9.0, 1.0, 24.0, 16.0, 8.0, 0.0, 23.0, 15.0, 7.0, 30.0, 22.0, 14.0, 6.0, 29.0, 21.0, 13.0, 5.0, 28.0, 20.0, 12.0]]> : tensor<1x77xf32>
  %v0 = util.unfoldable_constant dense<[[0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000]]> : tensor<1x12xf32>
  %i0 = util.unfoldable_constant dense<[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]> : tensor<1x12xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<1x77xf32>)
      outs(%v0, %i0 : tensor<1x12xf32>, tensor<1x12xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x12xf32>, tensor<1x12xi32>
  check.expect_eq_const(%t#0, dense<[[30.0, 30.0, 30.0, 29.0, 29.0, 29.0, 28.0, 28.0, 28.0, 27.0, 27.0, 26.0]]> : tensor<1x12xf32>) : tensor<1x12xf32>
  check.expect_eq_const(%t#1, dense<[[4, 35, 66, 8, 39, 70, 12, 43, 74, 16, 47, 20]]> : tensor<1x12xi32>) : tensor<1x12xi32>
  return
}

// k = 20: the k kept stay in memory (more than kiln keeps in registers).
func.func @k_is_20() {
  %x = util.unfoldable_constant dense<[[0.0, 23.0, 15.0, 7.0, 30.0, 22.0, 14.0, 6.0, 29.0, 21.0, 13.0, 5.0, 28.0, 20.0, 12.0, 4.0, 27.0, 19.0, 11.0, 3.0, 26.0, 18.0, 10.0, 2.0, 25.0, 17.0, 9.0, 1.0, 24.0, 16.0, 8.0, 0.0, 23.0, 15.0, 7.0, 30.0, 22.0, 14.0, 6.0, 29.0, 21.0, 13.0, 5.0, 28.0, 20.0, 12.0, 4.0, 27.0, 19.0, 11.0, 3.0, 26.0, 18.0, 10.0, 2.0, 25.0, 17.0, 9.0, 1.0, 24.0, 16.0, 8.0, 0.0, 23.0, 15.0, 7.0, 30.0, 22.0, 14.0, 6.0, 29.0, 21.0, 13.0, 5.0, 28.0, 20.0, 12.0]]> : tensor<1x77xf32>
  %v0 = util.unfoldable_constant dense<[[0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000]]> : tensor<1x20xf32>
  %i0 = util.unfoldable_constant dense<[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]> : tensor<1x20xi32>
  %t:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<1x77xf32>)
      outs(%v0, %i0 : tensor<1x20xf32>, tensor<1x20xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<1x20xf32>, tensor<1x20xi32>
  check.expect_eq_const(%t#0, dense<[[30.0, 30.0, 30.0, 29.0, 29.0, 29.0, 28.0, 28.0, 28.0, 27.0, 27.0, 26.0, 26.0, 25.0, 25.0, 24.0, 24.0, 23.0, 23.0, 23.0]]> : tensor<1x20xf32>) : tensor<1x20xf32>
  check.expect_eq_const(%t#1, dense<[[4, 35, 66, 8, 39, 70, 12, 43, 74, 16, 47, 20, 51, 24, 55, 28, 59, 1, 32, 63]]> : tensor<1x20xi32>) : tensor<1x20xi32>
  return
}

// topk_v2 (a heap) through the same vector filter, ties included: the heap's order of
// equal elements.
func.func @topk_v2_ties() {
  %x = util.unfoldable_constant dense<[[-5.0, 2.0, -2.0, 5.0, 1.0, -3.0, 4.0, 0.0, -4.0, 3.0, -1.0, -5.0, 2.0, -2.0, 5.0, 1.0, -3.0, 4.0, 0.0, -4.0, 3.0, -1.0, -5.0, 2.0, -2.0, 5.0, 1.0, -3.0, 4.0, 0.0, -4.0, 3.0, -1.0, -5.0, 2.0, -2.0, 5.0, 1.0, -3.0, 4.0, 0.0, -4.0, 3.0, -1.0, -5.0], [-4.0, 3.0, -1.0, -5.0, 2.0, -2.0, 5.0, 1.0, -3.0, 4.0, 0.0, -4.0, 3.0, -1.0, -5.0, 2.0, -2.0, 5.0, 1.0, -3.0, 4.0, 0.0, -4.0, 3.0, -1.0, -5.0, 2.0, -2.0, 5.0, 1.0, -3.0, 4.0, 0.0, -4.0, 3.0, -1.0, -5.0, 2.0, -2.0, 5.0, 1.0, -3.0, 4.0, 0.0, -4.0]]> : tensor<2x45xf32>
  %v0 = util.unfoldable_constant dense<[[0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000]]> : tensor<2x4xf32>
  %i0 = util.unfoldable_constant dense<0> : tensor<2x4xi32>
  %t:2 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%x : tensor<2x45xf32>)
      outs(%v0, %i0 : tensor<2x4xf32>, tensor<2x4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %r : i1
  } -> tensor<2x4xf32>, tensor<2x4xi32>
  check.expect_eq_const(%t#0, dense<[[5.0, 5.0, 5.0, 5.0], [5.0, 5.0, 5.0, 5.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  check.expect_eq_const(%t#1, dense<[[14, 25, 3, 36], [28, 6, 17, 39]]> : tensor<2x4xi32>) : tensor<2x4xi32>
  return
}
