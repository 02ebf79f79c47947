// RUN: kiln-opt %s -kiln-cpu-hoist-input-loads | FileCheck %s

// The row index of a gather is read once per row: the load is of an input binding
// (kiln.input_count) at indices the column loop does not change, and that loop runs.
// CHECK-LABEL: func.func @gather_rows
// CHECK: scf.for %[[I:.*]] = %c0 to %c4
// CHECK-NEXT: %[[ROW:.*]] = memref.load %arg0[%[[I]]]
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %c8
// CHECK-NOT: memref.load %arg0
// CHECK: memref.load %arg1
func.func @gather_rows(%rows: memref<4xindex>, %table: memref<16x8xf32>, %out: memref<4x8xf32>)
    attributes {kiln.input_count = 2 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %row = memref.load %rows[%i] : memref<4xindex>
      %v = memref.load %table[%row, %j] : memref<16x8xf32>
      memref.store %v, %out[%i, %j] : memref<4x8xf32>
    }
  }
  return
}

// Outputs may change inside the loop, and a loop that may not run must not read.
// CHECK-LABEL: func.func @stays
// CHECK: scf.for
// CHECK-NEXT: memref.load %arg1[%c0]
// CHECK: scf.for
// CHECK-NEXT: memref.load %arg0[%c0]
func.func @stays(%in: memref<4xf32>, %out: memref<4xf32>, %n: index) attributes {kiln.input_count = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %out[%c0] : memref<4xf32>
    memref.store %v, %out[%i] : memref<4xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %in[%c0] : memref<4xf32>
    memref.store %v, %out[%i] : memref<4xf32>
  }
  return
}
