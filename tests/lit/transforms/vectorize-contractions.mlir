// RUN: kiln-opt %s -split-input-file -kiln-cpu-vectorize-contractions | FileCheck %s

// A static register tile becomes a vector.contract whose accumulator is read before the
// k loop, carried through it and written after it; the remainder tile with a dynamic
// size stays a linalg op, unmarked.
// CHECK-LABEL: func.func @tiles
// CHECK: %[[C:.*]] = memref.subview %arg2[%arg4, 0] [8, 32]
// CHECK: %[[INIT:.*]] = vector.transfer_read %[[C]]{{.*}} : memref<8x32xf32, {{.*}}>, vector<8x32xf32>
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} iter_args(%[[ARG:.*]] = %[[INIT]]) -> (vector<8x32xf32>)
// CHECK: %[[A:.*]] = vector.transfer_read {{.*}} vector<8x1xf32>
// CHECK: %[[B:.*]] = vector.transfer_read {{.*}} vector<1x32xf32>
// CHECK: %[[R:.*]] = vector.contract {{.*}} %[[A]], %[[B]], %[[ARG]]
// CHECK: scf.yield %[[R]]
// CHECK: vector.transfer_write %[[ACC]], %[[C]]
// CHECK: linalg.matmul ins({{.*}} : memref<?x1xf32, {{.*}}>
// CHECK-NOT: kiln.register_tile
func.func @tiles(%a: memref<16x64xf32>, %b: memref<64x32xf32>, %c: memref<16x32xf32>, %rows: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c8 step %c8 {
    scf.for %k = %c0 to %c64 step %c1 {
      %av = memref.subview %a[%i, %k] [8, 1] [1, 1] : memref<16x64xf32> to memref<8x1xf32, strided<[64, 1], offset: ?>>
      %bv = memref.subview %b[%k, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
      %cv = memref.subview %c[%i, 0] [8, 32] [1, 1] : memref<16x32xf32> to memref<8x32xf32, strided<[32, 1], offset: ?>>
      linalg.matmul {kiln.register_tile} ins(%av, %bv : memref<8x1xf32, strided<[64, 1], offset: ?>>, memref<1x32xf32, strided<[32, 1], offset: ?>>) outs(%cv : memref<8x32xf32, strided<[32, 1], offset: ?>>)
    }
  }
  scf.for %k = %c0 to %c64 step %c1 {
    %av = memref.subview %a[8, %k] [%rows, 1] [1, 1] : memref<16x64xf32> to memref<?x1xf32, strided<[64, 1], offset: ?>>
    %bv = memref.subview %b[%k, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    %cv = memref.subview %c[8, 0] [%rows, 32] [1, 1] : memref<16x32xf32> to memref<?x32xf32, strided<[32, 1], offset: 256>>
    linalg.matmul {kiln.register_tile} ins(%av, %bv : memref<?x1xf32, strided<[64, 1], offset: ?>>, memref<1x32xf32, strided<[32, 1], offset: ?>>) outs(%cv : memref<?x32xf32, strided<[32, 1], offset: 256>>)
  }
  return
}

// -----

// Another write in the k loop: the accumulator stays in memory, read and written each step.
// CHECK-LABEL: func.func @other_write
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: vector.transfer_read
// CHECK: vector.transfer_read
// CHECK: vector.transfer_read
// CHECK: vector.contract
// CHECK: vector.transfer_write
// CHECK: memref.store
func.func @other_write(%a: memref<8x64xf32>, %b: memref<64x32xf32>, %c: memref<8x32xf32>, %log: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  scf.for %k = %c0 to %c64 step %c1 {
    %av = memref.subview %a[0, %k] [8, 1] [1, 1] : memref<8x64xf32> to memref<8x1xf32, strided<[64, 1], offset: ?>>
    %bv = memref.subview %b[%k, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    linalg.matmul {kiln.register_tile} ins(%av, %bv : memref<8x1xf32, strided<[64, 1], offset: ?>>, memref<1x32xf32, strided<[32, 1], offset: ?>>) outs(%c : memref<8x32xf32>)
    memref.store %one, %log[%k] : memref<64xf32>
  }
  return
}
