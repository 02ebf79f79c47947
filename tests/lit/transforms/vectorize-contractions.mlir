// RUN: kiln-opt %s -split-input-file -kiln-cpu-vectorize-contractions | FileCheck %s

// The last block of columns, 40 of at most 64 (a peeled remainder): vectorised at its
// bound, the next power of two, 64 columns, with the columns out of bounds (masked loads
// and stores of the 40 inside), the rows static; its accumulator is carried through the k
// loop as a static tile's.
// CHECK-LABEL: func.func @bounded_columns
// CHECK: %[[C:.*]] = memref.subview %arg2[0, %{{.*}}] [6, %{{.*}}]
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} -> (vector<6x64xf32>)
// CHECK: vector.transfer_read {{.*}} {in_bounds = [true, true]} : memref<6x1xf32, {{.*}}>, vector<6x1xf32>
// CHECK: vector.transfer_read {{.*}} {in_bounds = [true, false]} : memref<1x?xf32, {{.*}}>, vector<1x64xf32>
// CHECK: vector.contract {{.*}} : vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
// CHECK: %[[OLD:.*]] = vector.transfer_read %[[C]]{{.*}} {in_bounds = [true, false]} : memref<6x?xf32, {{.*}}>, vector<6x64xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %[[ACC]] : vector<6x64xf32>
// CHECK: vector.transfer_write %[[SUM]], %[[C]]{{.*}} {in_bounds = [true, false]} : vector<6x64xf32>, memref<6x?xf32, {{.*}}>
// CHECK-NOT: linalg.matmul
func.func @bounded_columns(%a: memref<6x32xf32>, %b: memref<32x104xf32>, %c: memref<6x104xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c104 = arith.constant 104 : index
  scf.for %j = %c64 to %c104 step %c64 {
    %cols = affine.min affine_map<(d0) -> (64, 104 - d0)>(%j)
    %cv = memref.subview %c[0, %j] [6, %cols] [1, 1] : memref<6x104xf32> to memref<6x?xf32, strided<[104, 1], offset: ?>>
    scf.for %k = %c0 to %c32 step %c1 {
      %av = memref.subview %a[0, %k] [6, 1] [1, 1] : memref<6x32xf32> to memref<6x1xf32, strided<[32, 1], offset: ?>>
      %bv = memref.subview %b[%k, %j] [1, %cols] [1, 1] : memref<32x104xf32> to memref<1x?xf32, strided<[104, 1], offset: ?>>
      linalg.matmul {kiln.register_tile} ins(%av, %bv : memref<6x1xf32, strided<[32, 1], offset: ?>>, memref<1x?xf32, strided<[104, 1], offset: ?>>) outs(%cv : memref<6x?xf32, strided<[104, 1], offset: ?>>)
    }
  }
  return
}

// -----

// A static register tile becomes a vector.contract whose accumulator starts at zero, is
// carried through the k loop and added to the output's tile after it (read and written
// once, the read off the FMAs' path); the remainder tile with a dynamic size that has no
// constant bound (a function argument) stays a linalg op, unmarked. A small output is not
// prefetched.
// CHECK-LABEL: func.func @tiles
// CHECK: %[[C:.*]] = memref.subview %arg2[%arg4, 0] [8, 32]
// CHECK-NOT: memref.prefetch
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} iter_args(%[[ARG:.*]] = %[[ZERO]]) -> (vector<8x32xf32>)
// CHECK: %[[A:.*]] = vector.transfer_read {{.*}} vector<8x1xf32>
// CHECK: %[[B:.*]] = vector.transfer_read {{.*}} vector<1x32xf32>
// CHECK: %[[R:.*]] = vector.contract {{.*}} %[[A]], %[[B]], %[[ARG]]
// CHECK: scf.yield %[[R]]
// CHECK: %[[OLD:.*]] = vector.transfer_read %[[C]]{{.*}} : memref<8x32xf32, {{.*}}>, vector<8x32xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %[[ACC]] : vector<8x32xf32>
// CHECK: vector.transfer_write %[[SUM]], %[[C]]
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

// A prefetch in the k loop (of the next packed block) is a hint: the accumulator is still
// carried in registers, the prefetch stays in the loop.
// CHECK-LABEL: func.func @prefetch_in_k_loop
// CHECK: scf.for %[[K:.*]] = {{.*}} iter_args(%[[ARG:.*]] = %{{.*}}) -> (vector<8x32xf32>)
// CHECK: memref.prefetch %arg3[%[[K]], %c0], read, locality<3>, data
// CHECK: vector.contract {{.*}} %[[ARG]]
// CHECK: scf.yield
// CHECK: vector.transfer_write
func.func @prefetch_in_k_loop(%a: memref<16x64xf32>, %b: memref<64x32xf32>, %c: memref<16x32xf32>, %next: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c64 step %c1 {
    memref.prefetch %next[%k, %c0], read, locality<3>, data : memref<64x64xf32>
    %av = memref.subview %a[0, %k] [8, 1] [1, 1] : memref<16x64xf32> to memref<8x1xf32, strided<[64, 1], offset: ?>>
    %bv = memref.subview %b[%k, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    %cv = memref.subview %c[0, 0] [8, 32] [1, 1] : memref<16x32xf32> to memref<8x32xf32, strided<[32, 1]>>
    linalg.matmul {kiln.register_tile} ins(%av, %bv : memref<8x1xf32, strided<[64, 1], offset: ?>>, memref<1x32xf32, strided<[32, 1], offset: ?>>) outs(%cv : memref<8x32xf32, strided<[32, 1]>>)
  }
  return
}

// -----

// A prefetch marked as new for the first 8 steps only (kiln.prefetch_steps, as the
// output's write prefetches are): the k loop splits after 8 steps, the accumulator
// passing from the first loop to the second, which has no prefetch. A loop of dynamic
// length splits after min(8, its length) steps.
// CHECK-LABEL: func.func @marked_prefetch
// CHECK: %[[FIRST:.*]] = scf.for %[[K:.*]] = %c0 to %[[SPLIT:.*]] step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<8x32xf32>)
// CHECK: memref.prefetch %arg3[%[[K]], %c0], read, locality<3>, data :
// CHECK: vector.contract
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to %c64 step %c1 iter_args(%{{.*}} = %[[FIRST]]) -> (vector<8x32xf32>)
// CHECK-NOT: memref.prefetch
// CHECK: vector.contract
// CHECK: scf.yield
// CHECK: vector.transfer_write
// CHECK: %[[SPLIT2:.*]] = arith.minsi %{{.*}}, %arg4 : index
// CHECK: %[[FIRST2:.*]] = scf.for %[[K2:.*]] = %c0 to %[[SPLIT2]] step %c1 iter_args
// CHECK: memref.prefetch %arg3[%[[K2]], %c0], read, locality<3>, data :
// CHECK: scf.for %{{.*}} = %[[SPLIT2]] to %arg4 step %c1 iter_args(%{{.*}} = %[[FIRST2]])
// CHECK-NOT: memref.prefetch
// CHECK: vector.contract
// CHECK-NOT: kiln.prefetch_steps
func.func @marked_prefetch(%a: memref<16x64xf32>, %b: memref<64x32xf32>, %c: memref<16x32xf32>, %next: memref<64x64xf32>, %depth: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c64 step %c1 {
    "memref.prefetch"(%next, %k, %c0) <{isDataCache = true, isWrite = false, localityHint = 3 : i32}> {kiln.prefetch_steps = 8 : i64} : (memref<64x64xf32>, index, index) -> ()
    %av = memref.subview %a[0, %k] [8, 1] [1, 1] : memref<16x64xf32> to memref<8x1xf32, strided<[64, 1], offset: ?>>
    %bv = memref.subview %b[%k, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    %cv = memref.subview %c[0, 0] [8, 32] [1, 1] : memref<16x32xf32> to memref<8x32xf32, strided<[32, 1]>>
    linalg.matmul {kiln.register_tile} ins(%av, %bv : memref<8x1xf32, strided<[64, 1], offset: ?>>, memref<1x32xf32, strided<[32, 1], offset: ?>>) outs(%cv : memref<8x32xf32, strided<[32, 1]>>)
  }
  scf.for %k = %c0 to %depth step %c1 {
    "memref.prefetch"(%next, %k, %c0) <{isDataCache = true, isWrite = false, localityHint = 3 : i32}> {kiln.prefetch_steps = 8 : i64} : (memref<64x64xf32>, index, index) -> ()
    %av = memref.subview %a[8, %k] [8, 1] [1, 1] : memref<16x64xf32> to memref<8x1xf32, strided<[64, 1], offset: ?>>
    %bv = memref.subview %b[%k, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    %cv = memref.subview %c[8, 0] [8, 32] [1, 1] : memref<16x32xf32> to memref<8x32xf32, strided<[32, 1], offset: 256>>
    linalg.matmul {kiln.register_tile} ins(%av, %bv : memref<8x1xf32, strided<[64, 1], offset: ?>>, memref<1x32xf32, strided<[32, 1], offset: ?>>) outs(%cv : memref<8x32xf32, strided<[32, 1], offset: 256>>)
  }
  return
}

// -----

// An output of 64 MiB (beyond the last-level cache): each register tile prefetches its
// output's 16 lines (8 rows x 2 lines of 64 bytes) for writing, one per step of the k loop
// (64 steps): step k takes line min(k, 15), row min(k, 15) / 2, column (min(k, 15) % 2) x 16.
// The loop splits after the 16 steps that prefetch: the other 48 run without.
// CHECK-LABEL: func.func @large_output
// CHECK-NOT: memref.prefetch
// CHECK: %[[FIRST:.*]] = scf.for %[[K:.*]] = %c0 to %[[SPLIT:.*]] step %c1 iter_args
// CHECK: %[[LINE:.*]] = arith.minui %[[K]], %c15
// CHECK: %[[ROW:.*]] = arith.divui %[[LINE]], %c2
// CHECK: %[[PAIR:.*]] = arith.remui %[[LINE]], %c2
// CHECK: %[[COLUMN:.*]] = arith.muli %[[PAIR]], %c16
// CHECK: memref.prefetch %{{.*}}[%{{.*}}, %{{.*}}], write, locality<3>, data :
// CHECK-NOT: memref.prefetch
// CHECK: vector.contract
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to %c64 step %c1 iter_args(%{{.*}} = %[[FIRST]])
// CHECK-NOT: memref.prefetch
// CHECK: vector.contract
// CHECK: scf.yield
// CHECK: arith.addf
func.func @large_output(%a: memref<4096x64xf32>, %b: memref<64x4096xf32>, %c: memref<4096x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c8 step %c8 {
    scf.for %k = %c0 to %c64 step %c1 {
      %av = memref.subview %a[%i, %k] [8, 1] [1, 1] : memref<4096x64xf32> to memref<8x1xf32, strided<[64, 1], offset: ?>>
      %bv = memref.subview %b[%k, 0] [1, 32] [1, 1] : memref<64x4096xf32> to memref<1x32xf32, strided<[4096, 1], offset: ?>>
      %cv = memref.subview %c[%i, 0] [8, 32] [1, 1] : memref<4096x4096xf32> to memref<8x32xf32, strided<[4096, 1], offset: ?>>
      linalg.matmul {kiln.register_tile} ins(%av, %bv : memref<8x1xf32, strided<[64, 1], offset: ?>>, memref<1x32xf32, strided<[4096, 1], offset: ?>>) outs(%cv : memref<8x32xf32, strided<[4096, 1], offset: ?>>)
    }
  }
  return
}

// -----

// A k loop shorter than the tile's lines (8 steps for 16 lines): the tile prefetches all of
// them at its start.
// CHECK-LABEL: func.func @large_output_short_loop
// CHECK-COUNT-16: memref.prefetch %{{.*}}[%{{.*}}, %{{.*}}], write, locality<3>, data
// CHECK-NOT: memref.prefetch
// CHECK: scf.for
// CHECK: vector.contract
// CHECK: arith.addf
func.func @large_output_short_loop(%a: memref<4096x8xf32>, %b: memref<8x4096xf32>, %c: memref<4096x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c8 {
    scf.for %k = %c0 to %c8 step %c1 {
      %av = memref.subview %a[%i, %k] [8, 1] [1, 1] : memref<4096x8xf32> to memref<8x1xf32, strided<[8, 1], offset: ?>>
      %bv = memref.subview %b[%k, 0] [1, 32] [1, 1] : memref<8x4096xf32> to memref<1x32xf32, strided<[4096, 1], offset: ?>>
      %cv = memref.subview %c[%i, 0] [8, 32] [1, 1] : memref<4096x4096xf32> to memref<8x32xf32, strided<[4096, 1], offset: ?>>
      linalg.matmul {kiln.register_tile} ins(%av, %bv : memref<8x1xf32, strided<[8, 1], offset: ?>>, memref<1x32xf32, strided<[4096, 1], offset: ?>>) outs(%cv : memref<8x32xf32, strided<[4096, 1], offset: ?>>)
    }
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

// -----

// A dot-product tile of 2 rows by 2 columns over k = 20 with 16 lanes: a loop over the
// first 16 elements of k carrying 4 vectors of partial sums (loads of both rows and
// columns, FMAs), the last 4 elements through masked loads, then the 4 vectors' sums as
// one vector (SumEachVector: pairs of vectors fold their halves, then the groups of lanes
// fold down to one lane each), each row's two totals added to the row as a vector. A tile
// with a dynamic column count stays a linalg op.
// CHECK-LABEL: func.func @dot_product
// CHECK: %[[SUMS:.*]]:4 = scf.for %[[K:.*]] = %c0 to %{{.*}} step %c16 iter_args(
// CHECK-COUNT-4: vector.load {{.*}} : memref<{{.*}}>, vector<16xf32>
// CHECK-COUNT-4: vector.fma {{.*}} : vector<16xf32>
// CHECK: scf.yield
// CHECK: %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<16xi1>
// CHECK-COUNT-4: vector.maskedload {{.*}}, %[[MASK]], %{{.*}} : memref<{{.*}}>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: %[[S00:.*]] = vector.fma
// CHECK: %[[S01:.*]] = vector.fma
// CHECK: %[[S10:.*]] = vector.fma
// CHECK: %[[S11:.*]] = vector.fma
// CHECK: %[[LO0:.*]] = vector.shuffle %[[S00]], %[[S10]] [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]
// CHECK: %[[HI0:.*]] = vector.shuffle %[[S00]], %[[S10]] [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31]
// CHECK: %[[P0:.*]] = arith.addf %[[LO0]], %[[HI0]] fastmath<reassoc> : vector<16xf32>
// CHECK: %[[LO1:.*]] = vector.shuffle %[[S01]], %[[S11]] [0, 1, 2, 3, 4, 5, 6, 7, 16,
// CHECK: %[[HI1:.*]] = vector.shuffle %[[S01]], %[[S11]] [8, 9, 10, 11, 12, 13, 14, 15, 24,
// CHECK: %[[P1:.*]] = arith.addf %[[LO1]], %[[HI1]]
// CHECK: %[[LO:.*]] = vector.shuffle %[[P0]], %[[P1]] [0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27]
// CHECK: %[[HI:.*]] = vector.shuffle %[[P0]], %[[P1]] [4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31]
// CHECK: %[[Q:.*]] = arith.addf %[[LO]], %[[HI]]
// CHECK: vector.shuffle %[[Q]], %[[Q]] [0, 1, 4, 5, 8, 9, 12, 13] : vector<16xf32>, vector<16xf32>
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: vector.shuffle {{.*}} [0, 2, 4, 6] : vector<8xf32>, vector<8xf32>
// CHECK: vector.shuffle {{.*}} [1, 3, 5, 7] : vector<8xf32>, vector<8xf32>
// CHECK: %[[TOTALS:.*]] = arith.addf {{.*}} : vector<4xf32>
// CHECK: %[[ROW0:.*]] = vector.extract_strided_slice %[[TOTALS]] {offsets = [0], sizes = [2], strides = [1]}
// CHECK: %[[Y0:.*]] = vector.load %arg2[%[[R0:.*]], %[[C0:.*]]] : memref<2x2xf32>, vector<2xf32>
// CHECK: %[[NEW0:.*]] = arith.addf %[[Y0]], %[[ROW0]] fastmath<reassoc> : vector<2xf32>
// CHECK: vector.store %[[NEW0]], %arg2[%[[R0]], %[[C0]]]
// CHECK: %[[ROW1:.*]] = vector.extract_strided_slice %[[TOTALS]] {offsets = [2], sizes = [2], strides = [1]}
// CHECK: %[[Y1:.*]] = vector.load %arg2[%c1{{.*}}, %[[C0]]]
// CHECK: arith.addf %[[Y1]], %[[ROW1]]
// CHECK: vector.store
// CHECK-NOT: vector.reduction
// CHECK: linalg.matmul indexing_maps
// CHECK-NOT: kiln.dot_product_tile
func.func @dot_product(%x: memref<2x20xf32>, %w: memref<2x20xf32>, %y: memref<2x2xf32>,
                       %wd: memref<?x20xf32>, %yd: memref<2x?xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {kiln.dot_product_tile = 16 : i64} ins(%x, %w : memref<2x20xf32>, memref<2x20xf32>) outs(%y : memref<2x2xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {kiln.dot_product_tile = 16 : i64} ins(%x, %wd : memref<2x20xf32>, memref<?x20xf32>) outs(%yd : memref<2x?xf32>)
  return
}

// -----

// Tiles whose vectors SumEachVector does not take (3 outputs: not a power of two) or whose
// outputs are not contiguous in a row (y^T[n, m]; a row of y with a stride of 2) reduce
// each vector into its output. Their depth (32) is static and a multiple of the lanes: no
// masked tail after the k loop.
// CHECK-LABEL: func.func @dot_product_each_output
// CHECK: scf.for
// CHECK-NOT: vector.maskedload
// CHECK-NOT: vector.shuffle
// CHECK-COUNT-3: vector.reduction <add>, %{{.*}}, %{{.*}} fastmath<reassoc> : vector<16xf32> into f32
// CHECK-NOT: vector.shuffle
// CHECK: scf.for
// CHECK-NOT: vector.maskedload
// CHECK-NOT: vector.shuffle
// CHECK-COUNT-4: vector.reduction <add>
// CHECK-NOT: vector.shuffle
// CHECK: scf.for
// CHECK-NOT: vector.maskedload
// CHECK-NOT: vector.shuffle
// CHECK-COUNT-4: vector.reduction <add>
// CHECK-NOT: vector.shuffle
// CHECK: return
func.func @dot_product_each_output(%x: memref<1x32xf32>, %w: memref<3x32xf32>, %y: memref<1x3xf32>,
                                   %x2: memref<2x32xf32>, %w2: memref<2x32xf32>, %yt: memref<2x2xf32>,
                                   %ys: memref<2x2xf32, strided<[1, 2]>>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {kiln.dot_product_tile = 16 : i64} ins(%x, %w : memref<1x32xf32>, memref<3x32xf32>) outs(%y : memref<1x3xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n, m)>]
      {kiln.dot_product_tile = 16 : i64} ins(%x2, %w2 : memref<2x32xf32>, memref<2x32xf32>) outs(%yt : memref<2x2xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {kiln.dot_product_tile = 16 : i64} ins(%x2, %w2 : memref<2x32xf32>, memref<2x32xf32>) outs(%ys : memref<2x2xf32, strided<[1, 2]>>)
  return
}

// -----

// A square transpose register tile (behind the casts to dynamic sizes that
// canonicalisation leaves): one vector read of its rows, a vector.transpose and one vector
// write.
// CHECK-LABEL: func.func @transpose_tile
// CHECK: %[[R:.*]] = vector.transfer_read %arg0[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true, true]} : memref<8x8xf32, strided<[300, 1], offset: ?>>, vector<8x8xf32>
// CHECK: %[[T:.*]] = vector.transpose %[[R]], [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK: vector.transfer_write %[[T]], %arg1[%{{.*}}, %{{.*}}] {in_bounds = [true, true]} : vector<8x8xf32>, memref<8x8xf32, strided<[32, 1], offset: ?>>
// CHECK-NOT: linalg.transpose
func.func @transpose_tile(%w: memref<8x8xf32, strided<[300, 1], offset: ?>>, %p: memref<8x8xf32, strided<[32, 1], offset: ?>>) {
  %wc = memref.cast %w : memref<8x8xf32, strided<[300, 1], offset: ?>> to memref<?x?xf32, strided<[300, 1], offset: ?>>
  %pc = memref.cast %p : memref<8x8xf32, strided<[32, 1], offset: ?>> to memref<?x?xf32, strided<[32, 1], offset: ?>>
  linalg.transpose ins(%wc : memref<?x?xf32, strided<[300, 1], offset: ?>>) outs(%pc : memref<?x?xf32, strided<[32, 1], offset: ?>>) permutation = [1, 0] {kiln.register_tile}
  return
}

// -----

// A dot-product tile on a view of W with kiln.prefetch_rows: each step of the k loop
// prefetches into L2 (locality 2: prefetcht1), for each of its 2 rows of W, the line at
// the same k 8 rows further on in the viewed buffer (clamped to its last row).
// CHECK-LABEL: func.func @dot_product_prefetch
// CHECK: %[[DIM:.*]] = memref.dim %arg1
// CHECK: %[[LAST:.*]] = arith.subi %[[DIM]], %{{.*}} : index
// CHECK: %[[ROW0:.*]] = arith.minui %{{.*}}, %[[LAST]] : index
// CHECK: %[[ROW1:.*]] = arith.minui %{{.*}}, %[[LAST]] : index
// CHECK: scf.for %[[K:.*]] = %c0 to %{{.*}} step %c16 iter_args(
// CHECK: %[[AT:.*]] = arith.addi %{{.*}}, %[[K]] : index
// CHECK: memref.prefetch %arg1[%[[ROW0]], %[[AT]]], read, locality<2>, data : memref<32x100xf32>
// CHECK: memref.prefetch %arg1[%[[ROW1]], %[[AT]]], read, locality<2>, data : memref<32x100xf32>
// CHECK: scf.yield
// CHECK-NOT: memref.prefetch
func.func @dot_product_prefetch(%x: memref<2x100xf32>, %w: memref<32x100xf32>, %y: memref<2x2xf32>, %j: index) {
  %wv = memref.subview %w[%j, 0] [2, 100] [1, 1] : memref<32x100xf32> to memref<2x100xf32, strided<[100, 1], offset: ?>>
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {kiln.dot_product_tile = 16 : i64, kiln.prefetch_rows = 8 : i64}
      ins(%x, %wv : memref<2x100xf32>, memref<2x100xf32, strided<[100, 1], offset: ?>>) outs(%y : memref<2x2xf32>)
  return
}
