// RUN: kiln-opt %s -kiln-cpu-copies-to-linalg | FileCheck %s

// A copy between strided views becomes linalg.copy (loops), not a memrefCopy call.
// CHECK-LABEL: func.func @copy
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%{{.*}} : memref<2x2xf32, strided<[4, 1], offset: 5>>) outs(%{{.*}} : memref<2x2xf32>)
func.func @copy(%a: memref<4x4xf32>, %b: memref<2x2xf32>) {
  %s = memref.subview %a[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  memref.copy %s, %b : memref<2x2xf32, strided<[4, 1], offset: 5>> to memref<2x2xf32>
  return
}
