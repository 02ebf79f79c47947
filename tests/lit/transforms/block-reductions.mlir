// RUN: kiln-opt %s -kiln-cpu-block-reductions -canonicalize | FileCheck %s

// A sum along the innermost loop: blocks of 4096 inside blocks of 65536, each summed into
// its own zeroed accumulator on the stack and then added to the level above.
// CHECK-LABEL: func.func @sum_100000
// CHECK-SAME: (%[[X:.*]]: memref<100000xf32>, %[[OUT:.*]]: memref<f32>)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[INNER:.*]] = memref.alloca() {alignment = 64 : i64} : memref<f32>
// CHECK-DAG: %[[OUTER:.*]] = memref.alloca() {alignment = 64 : i64} : memref<f32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c65536
// CHECK:   %[[OUTER_X:.*]] = memref.subview %[[X]][%[[I]]]
// CHECK:   linalg.fill ins(%[[ZERO]] : f32) outs(%[[OUTER]] : memref<f32>)
// CHECK:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c4096
// CHECK:     %[[INNER_X:.*]] = memref.subview %[[OUTER_X]][%[[J]]]
// CHECK:     linalg.fill ins(%[[ZERO]] : f32) outs(%[[INNER]] : memref<f32>)
// CHECK:     linalg.reduce ins(%[[INNER_X]] : {{.*}}) outs(%[[INNER]] : memref<f32>)
// CHECK:     linalg.generic {{.*}} ins(%[[INNER]] : memref<f32>) outs(%[[OUTER]] : memref<f32>)
// CHECK:       arith.addf
// CHECK:   }
// CHECK:   linalg.generic {{.*}} ins(%[[OUTER]] : memref<f32>) outs(%[[OUT]] : memref<f32>)
// CHECK:     arith.addf
func.func @sum_100000(%x: memref<100000xf32>, %out: memref<f32>) {
  linalg.reduce ins(%x : memref<100000xf32>) outs(%out : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// Row sums: each row is its own sum (rows tiled by one), blocked along the row.
// CHECK-LABEL: func.func @row_sums
// CHECK: %[[ACC:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %c3 step %c1
// CHECK:   scf.for %{{.*}} = %{{.*}} to %c5000 step %c4096
// CHECK:     linalg.generic {{.*}} outs(%[[ACC]]
// CHECK:       arith.mulf
// CHECK:       arith.addf
// CHECK:     linalg.generic {{.*}} ins(%[[ACC]]
func.func @row_sums(%x: memref<3x5000xf32>, %out: memref<3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<3x5000xf32>) outs(%out : memref<3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  }
  return
}

// A sum over rows, vectorised across the columns: blocks of 64 rows inside blocks of
// 1024, the columns 1024 at a time so that each accumulator holds at most 1024 floats.
// CHECK-LABEL: func.func @column_sums
// CHECK-DAG: %[[INNER:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
// CHECK-DAG: %[[OUTER:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1500 step %c1024
// CHECK:   scf.for %{{.*}} = %{{.*}} to %c5000 step %c1024
// CHECK:     memref.subview %[[OUTER]][0] [%{{.*}}] [1]
// CHECK:     scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c64
// CHECK:       memref.subview %[[INNER]][0] [%{{.*}}] [1]
// CHECK:       linalg.reduce
func.func @column_sums(%x: memref<5000x1500xf32>, %out: memref<1500xf32>) {
  linalg.reduce ins(%x : memref<5000x1500xf32>) outs(%out : memref<1500xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// A dynamic extent gets every level, up to blocks of 2^24 (4096 * 16^3).
// CHECK-LABEL: func.func @dynamic_sum
// CHECK: scf.for {{.*}} step %c16777216
// CHECK:   scf.for {{.*}} step %c1048576
// CHECK:     scf.for {{.*}} step %c65536
// CHECK:       scf.for {{.*}} step %c4096
// CHECK:         linalg.reduce
func.func @dynamic_sum(%x: memref<?xf32>, %out: memref<f32>) {
  linalg.reduce ins(%x : memref<?xf32>) outs(%out : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// Left alone: a sum that fits one block, a max, and a sum over two reduction loops.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: scf.for
// CHECK-NOT: memref.alloca
// CHECK: return
func.func @left_alone(%x: memref<4096xf32>, %y: memref<8192xf32>, %z: memref<100x100xf32>, %out: memref<f32>) {
  linalg.reduce ins(%x : memref<4096xf32>) outs(%out : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%y : memref<8192xf32>) outs(%out : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  linalg.reduce ins(%z : memref<100x100xf32>) outs(%out : memref<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}
