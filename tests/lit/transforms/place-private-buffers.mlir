// RUN: kiln-opt %s -allow-unregistered-dialect -kiln-cpu-place-private-buffers | FileCheck %s

// A static temporary moves to the stack, at the function's entry.
// CHECK-LABEL: func.func @static_tile
// CHECK-NEXT: %[[S:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4x1024xf32>
// CHECK-NOT: memref.alloc(
// CHECK-NOT: memref.dealloc
// CHECK: "test.use"(%[[S]])
func.func @static_tile(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() {alignment = 64 : i64} : memref<4x1024xf32>
    "test.use"(%t) : (memref<4x1024xf32>) -> ()
    memref.dealloc %t : memref<4x1024xf32>
  }
  return
}

// A tile whose size is bounded by its tile size: a stack buffer of the bound's bytes,
// viewed with the actual size.
// CHECK-LABEL: func.func @bounded_tile
// CHECK-NEXT: %[[S:.*]] = memref.alloca() {alignment = 64 : i64} : memref<16384xi8>
// CHECK: %[[ROWS:.*]] = affine.min
// CHECK: %[[V:.*]] = memref.view %[[S]][%{{.*}}][%[[ROWS]]] : memref<16384xi8> to memref<?x1024xf32>
// CHECK: "test.use"(%[[V]])
func.func @bounded_tile(%n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c4 {
    %rows = affine.min affine_map<(d0)[s0] -> (4, s0 - d0)>(%i)[%n]
    %t = memref.alloc(%rows) {alignment = 64 : i64} : memref<?x1024xf32>
    "test.use"(%t) : (memref<?x1024xf32>) -> ()
  }
  return
}

// Unbounded sizes and temporaries over 64 KiB stay on the heap.
// CHECK-LABEL: func.func @stays_on_heap
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.alloc() : memref<128x1024xf32>
// CHECK-NOT: memref.alloca
func.func @stays_on_heap(%n: index) {
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc() : memref<128x1024xf32>
  "test.use"(%a, %b) : (memref<?xf32>, memref<128x1024xf32>) -> ()
  return
}
