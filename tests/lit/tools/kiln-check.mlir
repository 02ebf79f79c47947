// kiln-check: one line per test function, failures with their location and first
// differing element, a closing count, and exit 1 when anything failed.
// RUN: not kiln-check %s > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// CHECK-DAG: [  PASSED  ] all_good
// CHECK-DAG: [  FAILED  ] wrong_element
// CHECK-DAG: kiln-check.mlir:[[# @LINE + 33]]:3: check.expect_eq failed: element [1] is 3, expected 4
// CHECK-DAG: [  FAILED  ] not_close_and_false
// CHECK-DAG: kiln-check.mlir:[[# @LINE + 37]]:3: check.expect_almost_eq failed: element [0] is 1.5, expected 1
// CHECK-DAG: kiln-check.mlir:[[# @LINE + 38]]:3: check.expect_false failed: the value is 1
// CHECK: 1 passed, 2 failed
// One test at a time; a passing run exits 0, on cpu-sync as well.
// RUN: kiln-check %s --function=all_good --device=cpu-sync | FileCheck %s --check-prefix=ONE
// ONE: [  PASSED  ] all_good
// ONE-NEXT: 1 passed, 0 failed
// A compiled module works as well as source.
// RUN: kiln-compile %s -o %t.kiln && not kiln-check %t.kiln | FileCheck %s --check-prefix=KILN
// KILN: 1 passed, 2 failed
// Bad input: a one-line error and exit 1.
// RUN: not kiln-check %s --function=nope 2>&1 | FileCheck %s --check-prefix=NOFN
// NOFN: kiln-check: NOT_FOUND: module '{{.*}}' has no test function 'nope'
// RUN: not kiln-check %t.missing.kiln 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: kiln-check: {{.*}}missing.kiln
// RUN: not kiln-check %s --bogus 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: kiln-check: INVALID_ARGUMENT: unknown flag '--bogus'; see kiln-check --help for the flags
// RUN: not kiln-check %s --device=warp 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: kiln-check: {{.*}}warp

func.func @all_good() {
  %x = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %y = arith.addi %x, %x : tensor<3xi32>
  check.expect_eq_const(%y, dense<[2, 4, 6]> : tensor<3xi32>) : tensor<3xi32>
  %t = arith.constant 1 : i32
  check.expect_true(%t) : i32
  return
}

func.func @wrong_element() {
  %x = util.unfoldable_constant dense<[1, 3]> : tensor<2xi32>
  check.expect_eq_const(%x, dense<[1, 4]> : tensor<2xi32>) : tensor<2xi32>
  return
}

func.func @not_close_and_false() {
  %x = util.unfoldable_constant dense<[1.5, 2.0]> : tensor<2xf32>
  check.expect_almost_eq_const(%x, dense<[1.0, 2.0]> : tensor<2xf32>, atol 0.1) : tensor<2xf32>
  %one = util.unfoldable_constant 1 : i32
  check.expect_false(%one) : i32
  return
}
