// chlo ops end to end on the CPU: the elementwise functions in f32 and f64 against Python's
// math (erf_inv by bisection, digamma by its series), the class tests, broadcasting with and
// without broadcast_dimensions, broadcast_select, top_k of floats and integers.
// RUN: kiln-check %s | FileCheck %s
// CHECK: 33 passed, 0 failed

func.func @asin_f32() {
  %x = util.unfoldable_constant dense<[-0.5, 0.0, 0.7]> : tensor<3xf32>
  %r = chlo.asin %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[-0.523598776, 0.0, 0.775397497]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @asin_f64() {
  %x = util.unfoldable_constant dense<[-0.5, 0.0, 0.7]> : tensor<3xf64>
  %r = chlo.asin %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const(%r, dense<[-0.523598776, 0.0, 0.775397497]> : tensor<3xf64>) : tensor<3xf64>
  return
}

func.func @acos_f32() {
  %x = util.unfoldable_constant dense<[-0.5, 0.0, 0.7]> : tensor<3xf32>
  %r = chlo.acos %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[2.0943951, 1.57079633, 0.79539883]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @acos_f64() {
  %x = util.unfoldable_constant dense<[-0.5, 0.0, 0.7]> : tensor<3xf64>
  %r = chlo.acos %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const(%r, dense<[2.0943951, 1.57079633, 0.79539883]> : tensor<3xf64>) : tensor<3xf64>
  return
}

func.func @atan_f32() {
  %x = util.unfoldable_constant dense<[-2.0, 0.0, 0.7]> : tensor<3xf32>
  %r = chlo.atan %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[-1.10714872, 0.0, 0.610725964]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @atan_f64() {
  %x = util.unfoldable_constant dense<[-2.0, 0.0, 0.7]> : tensor<3xf64>
  %r = chlo.atan %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const(%r, dense<[-1.10714872, 0.0, 0.610725964]> : tensor<3xf64>) : tensor<3xf64>
  return
}

func.func @sinh_f32() {
  %x = util.unfoldable_constant dense<[-2.0, 0.0, 0.7]> : tensor<3xf32>
  %r = chlo.sinh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[-3.62686041, 0.0, 0.758583702]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @sinh_f64() {
  %x = util.unfoldable_constant dense<[-2.0, 0.0, 0.7]> : tensor<3xf64>
  %r = chlo.sinh %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const(%r, dense<[-3.62686041, 0.0, 0.758583702]> : tensor<3xf64>) : tensor<3xf64>
  return
}

func.func @cosh_f32() {
  %x = util.unfoldable_constant dense<[-2.0, 0.0, 0.7]> : tensor<3xf32>
  %r = chlo.cosh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[3.76219569, 1.0, 1.25516901]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @cosh_f64() {
  %x = util.unfoldable_constant dense<[-2.0, 0.0, 0.7]> : tensor<3xf64>
  %r = chlo.cosh %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const(%r, dense<[3.76219569, 1.0, 1.25516901]> : tensor<3xf64>) : tensor<3xf64>
  return
}

func.func @tan_f32() {
  %x = util.unfoldable_constant dense<[-1.0, 0.0, 0.7]> : tensor<3xf32>
  %r = chlo.tan %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[-1.55740772, 0.0, 0.84228838]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @tan_f64() {
  %x = util.unfoldable_constant dense<[-1.0, 0.0, 0.7]> : tensor<3xf64>
  %r = chlo.tan %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const(%r, dense<[-1.55740772, 0.0, 0.84228838]> : tensor<3xf64>) : tensor<3xf64>
  return
}

func.func @asinh_f32() {
  %x = util.unfoldable_constant dense<[-2.0, 0.0, 0.7]> : tensor<3xf32>
  %r = chlo.asinh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[-1.44363548, 0.0, 0.652666566]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @asinh_f64() {
  %x = util.unfoldable_constant dense<[-2.0, 0.0, 0.7]> : tensor<3xf64>
  %r = chlo.asinh %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const(%r, dense<[-1.44363548, 0.0, 0.652666566]> : tensor<3xf64>) : tensor<3xf64>
  return
}

func.func @acosh_f32() {
  %x = util.unfoldable_constant dense<[1.0, 2.0, 7.0]> : tensor<3xf32>
  %r = chlo.acosh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[0.0, 1.3169579, 2.63391579]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @acosh_f64() {
  %x = util.unfoldable_constant dense<[1.0, 2.0, 7.0]> : tensor<3xf64>
  %r = chlo.acosh %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const(%r, dense<[0.0, 1.3169579, 2.63391579]> : tensor<3xf64>) : tensor<3xf64>
  return
}

func.func @atanh_f32() {
  %x = util.unfoldable_constant dense<[-0.5, 0.0, 0.7]> : tensor<3xf32>
  %r = chlo.atanh %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[-0.549306144, 0.0, 0.867300528]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @atanh_f64() {
  %x = util.unfoldable_constant dense<[-0.5, 0.0, 0.7]> : tensor<3xf64>
  %r = chlo.atanh %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const(%r, dense<[-0.549306144, 0.0, 0.867300528]> : tensor<3xf64>) : tensor<3xf64>
  return
}

func.func @erf_f32() {
  %x = util.unfoldable_constant dense<[-1.0, 0.0, 0.7]> : tensor<3xf32>
  %r = chlo.erf %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[-0.842700793, 0.0, 0.677801194]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @erf_f64() {
  %x = util.unfoldable_constant dense<[-1.0, 0.0, 0.7]> : tensor<3xf64>
  %r = chlo.erf %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const(%r, dense<[-0.842700793, 0.0, 0.677801194]> : tensor<3xf64>) : tensor<3xf64>
  return
}

func.func @erfc_f32() {
  %x = util.unfoldable_constant dense<[-1.0, 0.0, 0.7]> : tensor<3xf32>
  %r = chlo.erfc %x : tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const(%r, dense<[1.84270079, 1.0, 0.322198806]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @erfc_f64() {
  %x = util.unfoldable_constant dense<[-1.0, 0.0, 0.7]> : tensor<3xf64>
  %r = chlo.erfc %x : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const(%r, dense<[1.84270079, 1.0, 0.322198806]> : tensor<3xf64>) : tensor<3xf64>
  return
}

func.func @erf_inv_f32() {
  %x = util.unfoldable_constant dense<[-0.9, -0.5, 0.0, 0.3, 0.99]> : tensor<5xf32>
  %r = chlo.erf_inv %x : tensor<5xf32> -> tensor<5xf32>
  check.expect_almost_eq_const(%r, dense<[-1.16308715, -0.476936276, -6.22301528e-60, 0.272462715, 1.82138637]> : tensor<5xf32>) : tensor<5xf32>
  return
}

func.func @erf_inv_f64() {
  %x = util.unfoldable_constant dense<[-0.9, -0.5, 0.0, 0.3, 0.99]> : tensor<5xf64>
  %r = chlo.erf_inv %x : tensor<5xf64> -> tensor<5xf64>
  check.expect_almost_eq_const(%r, dense<[-1.16308715, -0.476936276, -6.22301528e-60, 0.272462715, 1.82138637]> : tensor<5xf64>) : tensor<5xf64>
  return
}

func.func @lgamma_f32() {
  %x = util.unfoldable_constant dense<[-2.5, -0.5, 0.2, 0.5, 1.0, 3.7, 10.0, 100.0]> : tensor<8xf32>
  %r = chlo.lgamma %x : tensor<8xf32> -> tensor<8xf32>
  check.expect_almost_eq_const(%r, dense<[-0.0562437165, 1.26551212, 1.52406382, 0.572364943, 0.0, 1.42807233, 12.8018275, 359.134205]> : tensor<8xf32>) : tensor<8xf32>
  return
}

func.func @lgamma_f64() {
  %x = util.unfoldable_constant dense<[-2.5, -0.5, 0.2, 0.5, 1.0, 3.7, 10.0, 100.0]> : tensor<8xf64>
  %r = chlo.lgamma %x : tensor<8xf64> -> tensor<8xf64>
  check.expect_almost_eq_const(%r, dense<[-0.0562437165, 1.26551212, 1.52406382, 0.572364943, 0.0, 1.42807233, 12.8018275, 359.134205]> : tensor<8xf64>) : tensor<8xf64>
  return
}

func.func @digamma_f32() {
  %x = util.unfoldable_constant dense<[-2.5, -0.5, 0.2, 0.5, 1.0, 3.7, 10.0, 100.0]> : tensor<8xf32>
  %r = chlo.digamma %x : tensor<8xf32> -> tensor<8xf32>
  check.expect_almost_eq_const(%r, dense<[1.10315664, 0.036489974, -5.2890399, -1.96351003, -0.577215665, 1.16715354, 2.25175259, 4.60016185]> : tensor<8xf32>) : tensor<8xf32>
  return
}

func.func @digamma_f64() {
  %x = util.unfoldable_constant dense<[-2.5, -0.5, 0.2, 0.5, 1.0, 3.7, 10.0, 100.0]> : tensor<8xf64>
  %r = chlo.digamma %x : tensor<8xf64> -> tensor<8xf64>
  check.expect_almost_eq_const(%r, dense<[1.10315664, 0.036489974, -5.2890399, -1.96351003, -0.577215665, 1.16715354, 2.25175259, 4.60016185]> : tensor<8xf64>) : tensor<8xf64>
  return
}

func.func @classes() {
  %x = util.unfoldable_constant dense<[0x7F800000, 0xFF800000, 1.0, 0x7FC00000]> : tensor<4xf32>
  %a = chlo.is_inf %x : tensor<4xf32> -> tensor<4xi1>
  %b = chlo.is_pos_inf %x : tensor<4xf32> -> tensor<4xi1>
  %c = chlo.is_neg_inf %x : tensor<4xf32> -> tensor<4xi1>
  check.expect_eq_const(%a, dense<[true, true, false, false]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_eq_const(%b, dense<[true, false, false, false]> : tensor<4xi1>) : tensor<4xi1>
  check.expect_eq_const(%c, dense<[false, true, false, false]> : tensor<4xi1>) : tensor<4xi1>
  return
}
func.func @dims() {
  %a = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = util.unfoldable_constant dense<[[10, 20], [30, 40], [50, 60]]> : tensor<3x2xi32>
  %r = chlo.broadcast_multiply %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<3xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const(%r, dense<[[10, 20], [60, 80], [150, 180]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  %c = util.unfoldable_constant dense<[[1], [2]]> : tensor<2x1xi32>
  %d = util.unfoldable_constant dense<[5, 6, 7]> : tensor<3xi32>
  %s = chlo.broadcast_subtract %c, %d : (tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const(%s, dense<[[-4, -5, -6], [-3, -4, -5]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  %q = chlo.broadcast_compare %c, %d {comparison_direction = #chlo<comparison_direction LT>} : (tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %z = util.unfoldable_constant dense<0> : tensor<i32>
  %sel = chlo.broadcast_select %q, %s, %z : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  check.expect_eq_const(%sel, dense<[[-4, -5, -6], [-3, -4, -5]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  %m = chlo.broadcast_maximum %c, %d : (tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const(%m, dense<[[5, 6, 7], [5, 6, 7]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}
func.func @topk() {
  %x = util.unfoldable_constant dense<[[3.0, 1.0, 4.0, 1.0, 5.0, 9.0], [2.0, 6.0, 5.0, 3.0, 5.0, 8.0]]> : tensor<2x6xf32>
  %v, %i = chlo.top_k(%x, k = 3) : tensor<2x6xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  check.expect_almost_eq_const(%v, dense<[[9.0, 5.0, 4.0], [8.0, 6.0, 5.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  check.expect_eq_const(%i, dense<[[5, 4, 2], [5, 1, 2]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}
func.func @topk_int() {
  %x = util.unfoldable_constant dense<[7, -3, 12, 0]> : tensor<4xi32>
  %v, %i = "chlo.top_k"(%x) {k = 2 : i64} : (tensor<4xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const(%v, dense<[12, 7]> : tensor<2xi32>) : tensor<2xi32>
  check.expect_eq_const(%i, dense<[2, 0]> : tensor<2xi32>) : tensor<2xi32>
  return
}
func.func @half() {
  %x = util.unfoldable_constant dense<[0.5, 3.0]> : tensor<2xf16>
  %r = chlo.lgamma %x : tensor<2xf16> -> tensor<2xf16>
  check.expect_almost_eq_const(%r, dense<[0.5723649, 0.6931472]> : tensor<2xf16>) : tensor<2xf16>
  return
}
