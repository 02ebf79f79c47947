// RUN: kiln-opt %s -split-input-file -verify-diagnostics -kiln-lower-tosa-apply-scale | FileCheck %s

// SINGLE_ROUND (and INEXACT_ROUND, which computes the same): the 64-bit product of the
// sign-extended operands plus 1 << (shift - 1) (0 for a zero shift), arithmetically
// shifted right, truncated.
// CHECK-LABEL: func.func @single_round
// CHECK-SAME: (%[[V:.*]]: i32, %[[M:.*]]: i32, %[[S:.*]]: i8)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[V64:.*]] = arith.extsi %[[V]] : i32 to i64
// CHECK-DAG: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK-DAG: %[[S64:.*]] = arith.extui %[[S]] : i8 to i64
// CHECK: %[[SM1:.*]] = arith.subi %[[S64]], %[[ONE]] : i64
// CHECK: %[[HALF:.*]] = arith.shli %[[ONE]], %[[SM1]] : i64
// CHECK: %[[POS:.*]] = arith.cmpi sgt, %[[S64]], %[[ZERO]] : i64
// CHECK: %[[ROUND:.*]] = arith.select %[[POS]], %[[HALF]], %[[ZERO]] : i64
// CHECK: %[[PRODUCT:.*]] = arith.muli %[[V64]], %[[M64]] : i64
// CHECK: %[[SUM:.*]] = arith.addi %[[PRODUCT]], %[[ROUND]] : i64
// CHECK: %[[SHIFTED:.*]] = arith.shrsi %[[SUM]], %[[S64]] : i64
// CHECK: %[[R:.*]] = arith.trunci %[[SHIFTED]] : i64 to i32
// CHECK-NOT: tosa.apply_scale
// CHECK: return %[[R]], %{{.*}}
func.func @single_round(%v: i32, %m: i32, %s: i8) -> (i32, i32) {
  %r = tosa.apply_scale %v, %m, %s {rounding_mode = SINGLE_ROUND} : (i32, i32, i8) -> i32
  %i = tosa.apply_scale %v, %m, %s {rounding_mode = INEXACT_ROUND} : (i32, i32, i8) -> i32
  return %r, %i : i32, i32
}

// -----

// DOUBLE_ROUND adds +-(1 << 30) to the rounding constant when the shift exceeds 31.
// CHECK-LABEL: func.func @double_round
// CHECK: %[[ROUND:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i64
// CHECK: %[[C31:.*]] = arith.constant 31 : i64
// CHECK: %[[HIGH:.*]] = arith.cmpi sgt, %{{.*}}, %[[C31]] : i64
// CHECK: %[[NONNEG:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : i64
// CHECK-DAG: %[[DOWN:.*]] = arith.constant -1073741824 : i64
// CHECK-DAG: %[[UP:.*]] = arith.constant 1073741824 : i64
// CHECK: %[[ADJUST:.*]] = arith.select %[[NONNEG]], %[[UP]], %[[DOWN]] : i64
// CHECK: %[[EXTRA:.*]] = arith.select %[[HIGH]], %[[ADJUST]], %{{.*}} : i64
// CHECK: %[[TOTAL:.*]] = arith.addi %[[ROUND]], %[[EXTRA]] : i64
// CHECK: %[[PRODUCT:.*]] = arith.muli
// CHECK: arith.addi %[[PRODUCT]], %[[TOTAL]] : i64
// CHECK: arith.shrsi
func.func @double_round(%v: i32, %m: i32, %s: i8) -> i32 {
  %r = tosa.apply_scale %v, %m, %s {rounding_mode = DOUBLE_ROUND} : (i32, i32, i8) -> i32
  return %r : i32
}

// -----

// A 48-bit value with a 16-bit multiplier (apply_scale_16), on vectors.
// CHECK-LABEL: func.func @i48_vector
// CHECK: arith.extsi %{{.*}} : vector<4xi48> to vector<4xi64>
// CHECK: arith.extsi %{{.*}} : vector<4xi16> to vector<4xi64>
// CHECK: arith.muli %{{.*}}, %{{.*}} : vector<4xi64>
// CHECK: arith.trunci %{{.*}} : vector<4xi64> to vector<4xi32>
func.func @i48_vector(%v: vector<4xi48>, %m: vector<4xi16>, %s: vector<4xi8>) -> vector<4xi32> {
  %r = tosa.apply_scale %v, %m, %s {rounding_mode = SINGLE_ROUND} : (vector<4xi48>, vector<4xi16>, vector<4xi8>) -> vector<4xi32>
  return %r : vector<4xi32>
}

// -----

func.func @too_wide(%v: i64, %m: i32, %s: i8) -> i32 {
  // expected-error @+1 {{tosa.apply_scale of a 'i64' value by a 'i32' multiplier can overflow the 64-bit product TOSA specifies (i32 x i32 and i48 x i16 fit)}}
  %r = tosa.apply_scale %v, %m, %s {rounding_mode = SINGLE_ROUND} : (i64, i32, i8) -> i32
  return %r : i32
}
