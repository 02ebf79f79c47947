// RUN: kiln-opt %s -kiln-cpu-linalg-ext-to-loops=check-indices=true -canonicalize -cse | FileCheck %s

// Checked mode: each scatter index is checked once per batch position against the
// offsets that keep its slice in the original (size - window + 1), enabled by its mask.
// CHECK-LABEL: func.func @scatter_add
// CHECK: scf.for %[[B:.*]] = %c0 to %c2
// CHECK: %[[MASK:.*]] = memref.load %{{.*}}[%[[B]]] : memref<2xi1>
// CHECK: %[[OFF:.*]] = arith.index_cast
// CHECK: kiln.index_check %[[OFF]] below %c8 if %[[MASK]] for "the slice offset into dimension 0 of the original of iree_linalg_ext.scatter ({{.*}}linalg-ext-to-loops-checked.mlir:[[# @LINE + 4]]:3)"
// CHECK: scf.if
// CHECK: scf.for
func.func @scatter_add(%u: memref<2x4xf32>, %i: memref<2x1xi32>, %m: memref<2xi1>, %o: memref<8x4xf32>) {
  iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%u, %i, %m : memref<2x4xf32>, memref<2x1xi32>, memref<2xi1>)
      outs(%o : memref<8x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    iree_linalg_ext.yield %s : f32
  }
  return
}
