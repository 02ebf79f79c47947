// RUN: kiln-opt %s -split-input-file -kiln-cpu-lower-index-checks -verify-diagnostics | FileCheck %s

// Each check becomes: outside [0, bound) and no site recorded yet -> store 1 + the site's
// position in kiln.index_check_sites, the index and the bound.
// CHECK-LABEL: func.func @checked
// CHECK-SAME: (%[[I:.*]]: index, %[[N:.*]]: index, %[[REC:.*]]: memref<3xi64> {kiln.index_check_record})
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[I]], %c0
// CHECK: %[[HIGH:.*]] = arith.cmpi sge, %[[I]], %[[N]]
// CHECK: %[[OUT:.*]] = arith.ori %[[NEG]], %[[HIGH]]
// CHECK: scf.if %[[OUT]] {
// CHECK: %[[SITE:.*]] = memref.load %[[REC]][%c0{{.*}}]
// CHECK: %[[UNSET:.*]] = arith.cmpi eq, %[[SITE]], %c0_i64
// CHECK: scf.if %[[UNSET]] {
// CHECK: memref.store %c2_i64, %[[REC]]
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: memref.store %[[I64]], %[[REC]]
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: memref.store %[[N64]], %[[REC]]
// CHECK-NOT: kiln.index_check
func.func @checked(%i: index, %n: index, %record: memref<3xi64> {kiln.index_check_record})
    attributes {kiln.index_check_sites = ["a", "b"]} {
  kiln.index_check %i below %n for "b"
  return
}

// -----

// An enabled check is taken only where its condition holds.
// CHECK-LABEL: func.func @masked
// CHECK-SAME: (%[[I:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: i1,
// CHECK: %[[OUT:.*]] = arith.ori
// CHECK: %[[TAKEN:.*]] = arith.andi %[[OUT]], %[[M]]
// CHECK: scf.if %[[TAKEN]] {
func.func @masked(%i: index, %n: index, %m: i1, %record: memref<3xi64> {kiln.index_check_record})
    attributes {kiln.index_check_sites = ["a"]} {
  kiln.index_check %i below %n if %m for "a"
  return
}

// -----

func.func @no_record(%i: index, %n: index) {
  // expected-error @below {{'kiln.index_check' op is in a function without an index check record; kiln-cpu-wrap-entry-points adds it to executable functions}}
  kiln.index_check %i below %n for "a"
  return
}

// -----

func.func @unknown_site(%i: index, %n: index, %record: memref<3xi64> {kiln.index_check_record})
    attributes {kiln.index_check_sites = ["a"]} {
  // expected-error @below {{'kiln.index_check' op has a site missing from the function's kiln.index_check_sites}}
  kiln.index_check %i below %n for "b"
  return
}
