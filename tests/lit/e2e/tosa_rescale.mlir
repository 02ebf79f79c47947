// TOSA's fixed-point ops: tosa.mul of i32 with a shift and tosa.rescale (per tensor and
// per channel, 16- and 32-bit multipliers, SINGLE/INEXACT/DOUBLE_ROUND, zero points,
// clamping to the output type), through tosa-to-linalg and kiln-lower-tosa-apply-scale.
// Expected values are worked out by hand from the TOSA 1.0 pseudo-code, in the comments:
//   mul:     (a * b + (1 << (shift - 1))) >> shift, in 64 bits
//   rescale: v = in - input_zp; r = (v * m + round) >> s, round = 1 << (s - 1)
//            (DOUBLE_ROUND with s > 31: round += v >= 0 ? 1 << 30 : -(1 << 30));
//            out = clamp(r + output_zp) to the output type
// (>> is an arithmetic shift: it rounds towards -infinity.)
// RUN: kiln-check %s --device=cpu
// RUN: kiln-check %s --device=cpu-sync
// The same on the AMD GPU path (64-bit integer arithmetic in the kernels), on hip-sim.
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-check %t.gpu.kiln --device=hip-sim

// shift 2: 9+2>>2 = 2; -9+2>>2 = -2; 5+2>>2 = 1; -5+2>>2 = -1; -7+2>>2 = -2;
// 3000000000+2>>2 = 750000000 (the product needs 64 bits); -6+2>>2 = -1;
// 2147483647*2+2>>2 = 1073741824.
func.func @mul_with_shift() {
  %a = util.unfoldable_constant dense<[3, -3, 5, -5, 7, 1000000, -6, 2147483647]> : tensor<8xi32>
  %b = util.unfoldable_constant dense<[3, 3, 1, 1, -1, 3000, 1, 2]> : tensor<8xi32>
  %shift = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.mul %a, %b, %shift : (tensor<8xi32>, tensor<8xi32>, tensor<1xi8>) -> tensor<8xi32>
  check.expect_eq_const(%r, dense<[2, -2, 1, -1, -2, 750000000, -1, 1073741824]> : tensor<8xi32>) : tensor<8xi32>
  return
}

// Broadcast second operand, shift 1: (a * 3 + 1) >> 1 over [[1, 2], [-1, -2]].
// 4>>1 = 2; 7>>1 = 3; -2>>1 = -1; -5>>1 = -3.
func.func @mul_with_shift_broadcast() {
  %a = util.unfoldable_constant dense<[[1, 2], [-1, -2]]> : tensor<2x2xi32>
  %b = util.unfoldable_constant dense<[[3]]> : tensor<1x1xi32>
  %shift = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.mul %a, %b, %shift : (tensor<2x2xi32>, tensor<1x1xi32>, tensor<1xi8>) -> tensor<2x2xi32>
  check.expect_eq_const(%r, dense<[[2, 3], [-1, -3]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

// i8 -> i8, scale32, m = 2^30, s = 31 (x 0.5), input_zp 3, output_zp -2:
// v = [0, 1, 2, -131, 124, 3, -3, -2]; (v * 2^30 + 2^30) >> 31 = floor((v + 1) / 2)
//   = [0, 1, 1, -65, 62, 2, -1, -1]; + -2 = [-2, -1, -1, -67, 60, 0, -3, -3].
func.func @rescale_i8_single_round() {
  %x = util.unfoldable_constant dense<[3, 4, 5, -128, 127, 6, 0, 1]> : tensor<8xi8>
  %multiplier = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %shift = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %input_zp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %output_zp = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.rescale %x, %multiplier, %shift, %input_zp, %output_zp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<8xi8>
  check.expect_eq_const(%r, dense<[-2, -1, -1, -67, 60, 0, -3, -3]> : tensor<8xi8>) : tensor<8xi8>
  // INEXACT_ROUND gives SINGLE_ROUND's exact result.
  %i = tosa.rescale %x, %multiplier, %shift, %input_zp, %output_zp {scale32 = true, rounding_mode = INEXACT_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<8xi8>
  check.expect_eq_const(%i, dense<[-2, -1, -1, -67, 60, 0, -3, -3]> : tensor<8xi8>) : tensor<8xi8>
  return
}

// i32 -> i32, m = 2^30, s = 33 (x 1/8). SINGLE_ROUND: (v * 2^30 + 2^32) >> 33 =
// floor((v + 4) / 8); DOUBLE_ROUND adds +-2^30 more: floor((v + 5) / 8) for v >= 0,
// floor((v + 3) / 8) for v < 0.
//   v      =  4  3  12  -4  -5  -12  11  -11
//   single =  1  0   2   0  -1   -1   1   -1
//   double =  1  1   2  -1  -1   -2   2   -1
func.func @rescale_i32_double_round() {
  %x = util.unfoldable_constant dense<[4, 3, 12, -4, -5, -12, 11, -11]> : tensor<8xi32>
  %multiplier = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %shift = "tosa.const"() <{values = dense<33> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = tosa.rescale %x, %multiplier, %shift, %zp, %zp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi32>) -> tensor<8xi32>
  check.expect_eq_const(%s, dense<[1, 0, 2, 0, -1, -1, 1, -1]> : tensor<8xi32>) : tensor<8xi32>
  %d = tosa.rescale %x, %multiplier, %shift, %zp, %zp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi32>) -> tensor<8xi32>
  check.expect_eq_const(%d, dense<[1, 1, 2, -1, -1, -2, 2, -1]> : tensor<8xi32>) : tensor<8xi32>
  return
}

// Per channel (the last dimension), 16-bit multipliers, output_zp 5, clamped to i8:
//   channel 0: m = 16384, s = 15 (x 0.5): floor((v + 1) / 2): 10 -> 5, -3 -> -1
//   channel 1: m = 3, s = 2 (x 0.75): (3v + 2) >> 2: -10 -> -7, 100 -> 75
//   channel 2: m = 24576, s = 13 (x 3): exact: 7 -> 21, -50 -> -150
// + 5: [[10, -2, 26], [4, 80, -145 -> -128]].
func.func @rescale_per_channel() {
  %x = util.unfoldable_constant dense<[[10, -10, 7], [-3, 100, -50]]> : tensor<2x3xi8>
  %multiplier = "tosa.const"() <{values = dense<[16384, 3, 24576]> : tensor<3xi16>}> : () -> tensor<3xi16>
  %shift = "tosa.const"() <{values = dense<[15, 2, 13]> : tensor<3xi8>}> : () -> tensor<3xi8>
  %input_zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %output_zp = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.rescale %x, %multiplier, %shift, %input_zp, %output_zp {scale32 = false, rounding_mode = SINGLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<2x3xi8>, tensor<3xi16>, tensor<3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x3xi8>
  check.expect_eq_const(%r, dense<[[10, -2, 26], [4, 80, -128]]> : tensor<2x3xi8>) : tensor<2x3xi8>
  return
}

// Unsigned 8-bit storage (i8 tensors read as uint8 through input_unsigned/output_unsigned),
// x 1 (m = 2^30, s = 30): uint8 [200, 128, 0, 255] (stored as i8 [-56, -128, 0, -1])
// minus input_zp 128 (stored -128) = [72, 0, -128, 127] in int8; back to uint8 with
// output_zp 128: [200, 128, 0, 255] again.
func.func @rescale_unsigned() {
  %x = util.unfoldable_constant dense<[-56, -128, 0, -1]> : tensor<4xi8>
  %multiplier = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %shift = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp128 = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.rescale %x, %multiplier, %shift, %zp128, %zp0 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = true, output_unsigned = false} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  check.expect_eq_const(%r, dense<[72, 0, -128, 127]> : tensor<4xi8>) : tensor<4xi8>
  %u = tosa.rescale %r, %multiplier, %shift, %zp0, %zp128 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = true} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  check.expect_eq_const(%u, dense<[-56, -128, 0, -1]> : tensor<4xi8>) : tensor<4xi8>
  return
}

// A shift known only at run time (the rounding constant must then be 0 for shift 0):
// shift 0: the plain products [9, -9, 5, -5]; shift 3: (p + 4) >> 3 = [13, -5, 9, -1] >> 3
// = [1, -1, 1, -1].
func.func @mul_with_runtime_shift() {
  %a = util.unfoldable_constant dense<[3, -3, 5, -5]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[3, 3, 1, 1]> : tensor<4xi32>
  %zero = util.unfoldable_constant dense<0> : tensor<1xi8>
  %three = util.unfoldable_constant dense<3> : tensor<1xi8>
  %p = tosa.mul %a, %b, %zero : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  check.expect_eq_const(%p, dense<[9, -9, 5, -5]> : tensor<4xi32>) : tensor<4xi32>
  %r = tosa.mul %a, %b, %three : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  check.expect_eq_const(%r, dense<[1, -1, 1, -1]> : tensor<4xi32>) : tensor<4xi32>
  return
}
