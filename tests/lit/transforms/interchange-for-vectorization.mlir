// RUN: kiln-opt %s -split-input-file -kiln-cpu-interchange-for-vectorization | FileCheck %s

// A matmul becomes a generic with loops (i, k, j): j walks C and B contiguously.
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.generic {indexing_maps = [#[[A:.*]], #[[B:.*]], #[[C:.*]]], iterator_types = ["parallel", "reduction", "parallel"]}
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// Row sums keep their order: no input is contiguous along the output's last loop.
// CHECK-LABEL: func.func @row_sums
// CHECK: linalg.reduce
func.func @row_sums(%a: memref<4x8xf32>, %out: memref<4xf32>) {
  linalg.reduce ins(%a : memref<4x8xf32>) outs(%out : memref<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}
