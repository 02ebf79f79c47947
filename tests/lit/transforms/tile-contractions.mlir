// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions -canonicalize | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions=vector-bits=256 -canonicalize | FileCheck %s --check-prefix=AVX2
// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions -canonicalize -kiln-cpu-vectorize-contractions | FileCheck %s --check-prefix=VECTOR
// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions=f16-vectors=true -canonicalize | FileCheck %s --check-prefix=F16
// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions=l1-data-bytes=49152 -canonicalize | FileCheck %s --check-prefix=L1-48K

// 20 rows: cache blocks of one register tile's columns x 128 deep with AVX-512 (32 KiB of
// f32), 256 with AVX2 (iterated k, n, then rows in blocks of 60, a multiple of the 6-row
// tiles). Each block of the right-hand operand is first copied (in 16 x 16 register tiles,
// the edges apart) into a contiguous buffer on the stack, allocated once; the block becomes
// a matmul of that buffer, tiled into register tiles of 6 x 64 (AVX-512) or 6 x 16 (AVX2)
// with k = 1, the m and n loops peeled: 80 columns are a tile of 64 and one of the 16 that
// remain. The rows that remain (2) are a tile of 2 rows. All are marked.
// With AVX-512 the whole groups of 6 rows of each block of k of the left-hand operand are
// first copied to a heap buffer [3, 128, 6] (each k's 6 rows contiguous) that the 6-row
// tiles read, through a transposed view of their group; the last 2 rows read A in place.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[PACK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<128x64xf32>
// CHECK: %[[LHS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x128x6xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c300 step %c128
// CHECK: %[[LHS_BLOCK:.*]] = memref.subview %[[LHS]][0, 0, 0] [3, %{{.*}}, 6]
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<18x?xf32, {{.*}}>) outs(%[[LHS_BLOCK]] : memref<3x?x6xf32, {{.*}}>)
// CHECK: scf.for %{{.*}} = %c0 to %c80 step %c64
// CHECK: memref.subview %[[PACK]][0, 0]
// CHECK: linalg.copy {kiln.register_tile} ins(%{{.*}} : memref<16x16xf32, strided<[80, 1], {{.*}}>) outs(%{{.*}} : memref<16x16xf32, strided<[64, 1], {{.*}}>)
// CHECK: scf.for %{{.*}} = %c0 to %c18 step %c6
// CHECK: memref.subview %[[LHS_BLOCK]]
// CHECK: memref.transpose %{{.*}} (d0, d1) -> (d1, d0) : memref<?x6xf32, {{.*}}> to memref<6x?xf32, strided<[1, 6], offset: ?>>
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<6x1xf32, strided<[1, 6], offset: ?>>, memref<1x64xf32, strided<[64, 1], {{.*}}>) outs(%{{.*}} : memref<6x64xf32, {{.*}}>)
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<6x1xf32, strided<[1, 6], offset: ?>>, memref<1x?xf32, strided<[64, 1], {{.*}}>) outs(%{{.*}} : memref<6x?xf32, {{.*}}>)
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<2x1xf32, {{.*}}>, memref<1x64xf32, {{.*}}>) outs(%{{.*}} : memref<2x64xf32, {{.*}}>)
// The tiles of the last 16 columns are vectorised at 64 columns, masked.
// VECTOR-LABEL: func.func @matmul
// VECTOR: vector.contract {{.*}} : vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
// VECTOR: vector.transfer_read {{.*}} {in_bounds = [true, false]} : memref<1x?xf32, {{.*}}>, vector<1x64xf32>
// VECTOR: vector.contract {{.*}} : vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
// VECTOR: vector.transfer_write {{.*}} {in_bounds = [true, false]} : vector<6x64xf32>, memref<6x?xf32, {{.*}}>
// VECTOR-NOT: linalg.matmul
// AVX2-LABEL: func.func @matmul
// AVX2: memref.alloca() {alignment = 64 : i64} : memref<256x16xf32>
// AVX2: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<6x1xf32, {{.*}}>, memref<1x16xf32, {{.*}}>) outs(%{{.*}} : memref<6x16xf32, {{.*}}>)
// AVX2: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<2x1xf32, {{.*}}>, memref<1x16xf32, {{.*}}>) outs(%{{.*}} : memref<2x16xf32, {{.*}}>)
func.func @matmul(%a: memref<20x300xf32>, %b: memref<300x80xf32>, %c: memref<20x80xf32>) {
  linalg.matmul ins(%a, %b : memref<20x300xf32>, memref<300x80xf32>) outs(%c : memref<20x80xf32>)
  return
}

// -----

// 13 rows (fewer than 16): the right-hand operand is read in place, in cache blocks of
// 256 x 256; the main tiles and the column remainder (8) are static, and so is the last
// row's.
// CHECK-LABEL: func.func @matmul_few_rows
// VECTOR-LABEL: func.func @matmul_few_rows
// CHECK-NOT: memref.alloca
// CHECK: scf.for %{{.*}} = %c0 to %c300 step %c256
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<6x1xf32, {{.*}}>, memref<1x64xf32, strided<[72, 1], {{.*}}>) outs(%{{.*}} : memref<6x64xf32, {{.*}}>)
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<6x1xf32, {{.*}}>, memref<1x8xf32, {{.*}}>) outs(%{{.*}} : memref<6x8xf32, {{.*}}>)
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<1x1xf32, {{.*}}>, memref<1x64xf32, {{.*}}>) outs(%{{.*}} : memref<1x64xf32, {{.*}}>)
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<1x1xf32, {{.*}}>, memref<1x8xf32, {{.*}}>) outs(%{{.*}} : memref<1x8xf32, {{.*}}>)
func.func @matmul_few_rows(%a: memref<13x300xf32>, %b: memref<300x72xf32>, %c: memref<13x72xf32>) {
  linalg.matmul ins(%a, %b : memref<13x300xf32>, memref<300x72xf32>) outs(%c : memref<13x72xf32>)
  return
}

// -----

// The right-hand operand stored [n, k] (y = x W^T), 20 rows: packed as above, but each
// block of W (64 rows of n by 128 of k) is transposed into the buffer, in 16 x 16
// register tiles (the edges apart).
// CHECK-LABEL: func.func @transposed_rhs
// CHECK-NOT: memref.prefetch
// CHECK: %[[PACK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<128x64xf32>
// CHECK: scf.for %[[K:.*]] = %c0 to %c300 step %c128
// CHECK: scf.for %{{.*}} = %c0 to %c80 step %c64
// CHECK: memref.subview %[[PACK]][0, 0]
// CHECK: memref.subview %{{.*}} [16, 16] [1, 1] : memref<?x?xf32, {{.*}}> to memref<16x16xf32, strided<[300, 1], {{.*}}>>
// CHECK: linalg.transpose {{.*}} permutation = [1, 0] {kiln.register_tile}
// CHECK: scf.for %{{.*}} = %c0 to %c18 step %c6
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<6x1xf32, {{.*}}>, memref<1x64xf32, strided<[64, 1], {{.*}}>) outs(%{{.*}} : memref<6x64xf32, {{.*}}>)
// CHECK-NOT: memref.prefetch
func.func @transposed_rhs(%x: memref<20x300xf32>, %w: memref<80x300xf32>, %y: memref<20x80xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<20x300xf32>, memref<80x300xf32>) outs(%y : memref<20x80xf32>)
  return
}

// -----

// An output of 64 MiB (beyond the last-level cache), here half of it as a workgroup's
// view: blocks of k 512 deep (not 128), so that the output passes through memory less often.
// W (64 MiB) is beyond it too, but 2048 rows are more than prefetching the next block of
// W pays for: no prefetch in the tiling. Vectorised, each register tile prefetches its 24
// output lines for writing in the first 24 steps of its k loop, which then splits: the
// other 488 steps prefetch nothing.
// CHECK-LABEL: func.func @output_beyond_cache
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<512x64xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c4096 step %c512
// CHECK: scf.for %{{.*}} = %c0 to %c4096 step %c64
// CHECK-NOT: memref.prefetch
// CHECK: linalg.matmul {kiln.register_tile}
// CHECK-NOT: memref.prefetch
// CHECK: return
// VECTOR-LABEL: func.func @output_beyond_cache
// VECTOR: %[[FIRST:.*]] = scf.for %{{.*}} = %c0 to %c24 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<6x64xf32>)
// VECTOR: memref.prefetch {{.*}}, write, locality<3>, data : memref<6x64xf32
// VECTOR: vector.contract
// VECTOR: scf.for %{{.*}} = %c24 to %c512 step %c1 iter_args(%{{.*}} = %[[FIRST]]) -> (vector<6x64xf32>)
// VECTOR-NOT: memref.prefetch
// VECTOR: vector.contract
// VECTOR: scf.yield
func.func @output_beyond_cache(%x: memref<4096x4096xf32>, %w: memref<4096x4096xf32>, %y: memref<4096x4096xf32>) {
  %half = memref.subview %y[0, 0] [2048, 4096] [1, 1] : memref<4096x4096xf32> to memref<2048x4096xf32, strided<[4096, 1]>>
  %rows = memref.subview %x[0, 0] [2048, 4096] [1, 1] : memref<4096x4096xf32> to memref<2048x4096xf32, strided<[4096, 1]>>
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%rows, %w : memref<2048x4096xf32, strided<[4096, 1]>>, memref<4096x4096xf32>) outs(%half : memref<2048x4096xf32, strided<[4096, 1]>>)
  return
}

// -----

// A prefill's projection: 128 rows by W[N, K] of 16 MiB (beyond the last-level cache).
// Every step of the k loop of the first 16 register tiles (of 21) prefetches a line of
// the next block of W to be packed (64 rows on, or after the last rows the first block of
// the next k), clamped into W; the later tiles skip it. The output is small: 128-deep
// blocks.
// CHECK-LABEL: func.func @prefill_projection
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<128x64xf32>
// CHECK: scf.for %[[K:.*]] = %c0 to %c2048 step %c128
// CHECK: scf.for %[[N:.*]] = %c0 to %c2048 step %c64
// CHECK: %[[NEXT:.*]] = arith.addi %[[N]], %c64
// CHECK: %[[PAST:.*]] = arith.cmpi uge, %[[NEXT]], %c2048
// CHECK: %[[NEXT_N:.*]] = arith.select %[[PAST]], %c0, %[[NEXT]]
// CHECK: %[[K_AFTER:.*]] = arith.addi %[[K]], %c128
// CHECK: %[[NEXT_K:.*]] = arith.select %[[PAST]], %[[K_AFTER]], %[[K]]
// CHECK: scf.for %{{.*}} = %c0 to %c128 step %c1
// CHECK: %[[TILE:.*]] = arith.divui %{{.*}}, %c6
// CHECK: %[[FIRST_TILES:.*]] = arith.cmpi ult, %[[TILE]], %c16
// CHECK: scf.if %[[FIRST_TILES]] {
// CHECK: %[[ROW:.*]] = arith.addi %[[NEXT_N]], %{{.*}}
// CHECK: %[[ROW_IN:.*]] = arith.minui %[[ROW]], %c2047
// CHECK: %[[COLUMN:.*]] = arith.addi %[[NEXT_K]], %{{.*}}
// CHECK: %[[COLUMN_IN:.*]] = arith.minui %[[COLUMN]], %c2047
// CHECK: memref.prefetch %arg1[%[[ROW_IN]], %[[COLUMN_IN]]], read, locality<3>, data : memref<2048x2048xf32>
// CHECK-NEXT: }
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.matmul {kiln.register_tile}
// Vectorised, the test leaves the k loop and the accumulators are still hoisted.
// VECTOR-LABEL: func.func @prefill_projection
// VECTOR: %[[FIRST_TILES:.*]] = arith.cmpi ult, %{{.*}}, %c16
// VECTOR: scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<6x64xf32>)
// VECTOR-NEXT: scf.if %[[FIRST_TILES]] {
// VECTOR: memref.prefetch %arg1
// VECTOR-NEXT: }
// VECTOR: vector.contract
func.func @prefill_projection(%x: memref<128x2048xf32>, %w: memref<2048x2048xf32>, %y: memref<128x2048xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<128x2048xf32>, memref<2048x2048xf32>) outs(%y : memref<128x2048xf32>)
  return
}

// -----

// B stored [k, n] beyond the last-level cache (16 MiB), 100 rows (16 tiles of 6): the next
// block is 64 columns on (after the last ones, the next 128 rows of k), and each tile
// prefetches its sixteenth of it (rows of 4 lines), untested: every tile has one. The
// output is small: 128-deep blocks.
// CHECK-LABEL: func.func @rhs_k_n_beyond_cache
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<128x64xf32>
// CHECK: scf.for %[[K:.*]] = %c0 to %c2048 step %c128
// CHECK: scf.for %[[N:.*]] = %c0 to %c2048 step %c64
// CHECK: %[[NEXT:.*]] = arith.addi %[[N]], %c64
// CHECK: %[[PAST:.*]] = arith.cmpi uge, %[[NEXT]], %c2048
// CHECK: %[[NEXT_N:.*]] = arith.select %[[PAST]], %c0, %[[NEXT]]
// CHECK: %[[NEXT_K:.*]] = arith.select %[[PAST]], %{{.*}}, %[[K]]
// CHECK: scf.for %{{.*}} = %c0 to %c128 step %c1
// CHECK-NOT: scf.if
// CHECK: %[[ROW:.*]] = arith.addi %[[NEXT_K]], %{{.*}}
// CHECK: %[[ROW_IN:.*]] = arith.minui %[[ROW]], %c2047
// CHECK: %[[COLUMN:.*]] = arith.addi %[[NEXT_N]], %{{.*}}
// CHECK: %[[COLUMN_IN:.*]] = arith.minui %[[COLUMN]], %c2047
// CHECK: memref.prefetch %arg1[%[[ROW_IN]], %[[COLUMN_IN]]], read, locality<3>, data : memref<2048x2048xf32>
func.func @rhs_k_n_beyond_cache(%a: memref<100x2048xf32>, %b: memref<2048x2048xf32>, %c: memref<100x2048xf32>) {
  linalg.matmul ins(%a, %b : memref<100x2048xf32>, memref<2048x2048xf32>) outs(%c : memref<100x2048xf32>)
  return
}

// -----

// 23 rows, one block: the 5 after the last 6-row tile are a static count, a tile of 4
// rows and one of 1, with no test at run time.
// CHECK-LABEL: func.func @static_last_rows
// CHECK-NOT: scf.if
// CHECK: linalg.matmul {kiln.register_tile} {{.*}} outs(%{{.*}} : memref<6x64xf32, {{.*}}>)
// CHECK-NOT: scf.if
// CHECK: linalg.matmul {kiln.register_tile} {{.*}} outs(%{{.*}} : memref<4x64xf32, {{.*}}>)
// CHECK-NOT: scf.if
// CHECK: linalg.matmul {kiln.register_tile} {{.*}} outs(%{{.*}} : memref<1x64xf32, {{.*}}>)
// CHECK-NOT: scf.if
func.func @static_last_rows(%a: memref<23x300xf32>, %b: memref<300x80xf32>, %c: memref<23x80xf32>) {
  linalg.matmul ins(%a, %b : memref<23x300xf32>, memref<300x80xf32>) outs(%c : memref<23x80xf32>)
  return
}

// -----

// 256 rows of a batch in blocks of 60: the last block's 16 rows leave 4 after its 6-row
// tiles, a count the tiles see as dynamic (every block's rows are min(60, 256 - i)); they
// take a tile of 4 rows if 4 remain, then of 2, then of 1, each static.
// CHECK-LABEL: func.func @batch_last_rows
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c60
// CHECK: linalg.batch_matmul {kiln.register_tile} {{.*}} outs(%{{.*}} : memref<1x6x64xf32, {{.*}}>)
// CHECK: %[[FOUR:.*]] = arith.cmpi uge, %[[LEFT:.*]], %c4
// CHECK: scf.if %[[FOUR]] {
// CHECK: linalg.batch_matmul {kiln.register_tile} {{.*}} outs(%{{.*}} : memref<1x4x64xf32, {{.*}}>)
// CHECK: %[[AFTER_FOUR:.*]] = arith.select %[[FOUR]], %c4, %c0
// CHECK: arith.cmpi uge, %{{.*}}, %c2
// CHECK: linalg.batch_matmul {kiln.register_tile} {{.*}} outs(%{{.*}} : memref<1x2x64xf32, {{.*}}>)
// CHECK: linalg.batch_matmul {kiln.register_tile} {{.*}} outs(%{{.*}} : memref<1x1x64xf32, {{.*}}>)
// VECTOR-LABEL: func.func @batch_last_rows
// VECTOR-NOT: linalg.batch_matmul
func.func @batch_last_rows(%a: memref<2x256x256xf32>, %b: memref<2x256x256xf32>, %c: memref<2x256x256xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x256x256xf32>, memref<2x256x256xf32>) outs(%c : memref<2x256x256xf32>)
  return
}

// -----

// The same contraction as a linalg.generic, batched: a batch_matmul of the packed block.
// CHECK-LABEL: func.func @transposed_rhs_batch
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<1x128x64xf32>
// CHECK: linalg.transpose {{.*}} permutation = [0, 2, 1]  {kiln.register_tile}
// CHECK: linalg.batch_matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<1x6x1xf32, {{.*}}>, memref<1x1x40xf32, {{.*}}>) outs(%{{.*}} : memref<1x6x40xf32, {{.*}}>)
func.func @transposed_rhs_batch(%x: memref<3x20x300xf32>, %w: memref<3x40x300xf32>, %y: memref<3x20x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<3x20x300xf32>, memref<3x40x300xf32>) outs(%y : memref<3x20x40xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Few rows (M = 4 <= 8) with W stored [n, k]: no cache blocks and no copy; register tiles
// of all 4 rows by 4 columns (16 accumulators with AVX-512; 3 columns, 12 accumulators,
// with AVX2) over the whole depth, marked with the vector length. The 2 columns left
// after the last full tile are tiles of one column.
// CHECK-LABEL: func.func @few_rows
// CHECK-NOT: memref.alloca
// CHECK: scf.for %{{.*}} = %c0 to %c36 step %c4
// CHECK: linalg.matmul indexing_maps = {{.*}} {kiln.dot_product_tile = 16 : i64} ins(%{{.*}}, %{{.*}} : memref<4x300xf32>, memref<4x300xf32, {{.*}}>) outs(%{{.*}} : memref<4x4xf32, {{.*}}>)
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK: linalg.matmul indexing_maps = {{.*}} {kiln.dot_product_tile = 16 : i64} ins(%{{.*}}, %{{.*}} : memref<4x300xf32>, memref<1x300xf32, {{.*}}>) outs(%{{.*}} : memref<4x1xf32, {{.*}}>)
// AVX2-LABEL: func.func @few_rows
// AVX2: {kiln.dot_product_tile = 8 : i64} ins({{.*}}) outs(%{{.*}} : memref<4x3xf32, {{.*}}>)
func.func @few_rows(%x: memref<4x300xf32>, %w: memref<38x300xf32>, %y: memref<4x38xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<4x300xf32>, memref<38x300xf32>) outs(%y : memref<4x38xf32>)
  return
}

// -----

// Not tiled: the output's innermost dimension is m, not n (its rows would not be vector
// stores), and integer contractions.
// CHECK-LABEL: func.func @not_tiled
// CHECK-NOT: scf.for
// CHECK: linalg.generic
// CHECK-NOT: kiln.register_tile
// CHECK: linalg.matmul ins
// CHECK-NOT: kiln.register_tile
func.func @not_tiled(%a: memref<16x64xf32>, %b: memref<64x32xf32>, %ct: memref<32x16xf32>,
                     %ai: memref<16x64xi32>, %bi: memref<64x32xi32>, %ci: memref<16x32xi32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<16x64xf32>, memref<64x32xf32>) outs(%ct : memref<32x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%ai, %bi : memref<16x64xi32>, memref<64x32xi32>) outs(%ci : memref<16x32xi32>)
  return
}

// -----

// 8 rows: one group of 8 rows by 2 columns with AVX-512; with AVX2, two groups of 4 rows by
// 3 columns, both groups for each tile of columns (n outside m), so W is read once.
// CHECK-LABEL: func.func @eight_rows
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c2
// CHECK: {kiln.dot_product_tile = 16 : i64} ins({{.*}}) outs(%{{.*}} : memref<8x2xf32, {{.*}}>)
// AVX2-LABEL: func.func @eight_rows
// AVX2: scf.for %{{.*}} = %c0 to %c30 step %c3
// AVX2: scf.for %{{.*}} = %c0 to %c8 step %c4
// AVX2: {kiln.dot_product_tile = 8 : i64} ins({{.*}}) outs(%{{.*}} : memref<4x3xf32, {{.*}}>)
// AVX2: scf.for %{{.*}} = %c0 to %c8 step %c4
// AVX2: scf.for %{{.*}} = %c0 to %c2 step %c1
// AVX2: {kiln.dot_product_tile = 8 : i64} ins({{.*}}) outs(%{{.*}} : memref<4x1xf32, {{.*}}>)
func.func @eight_rows(%x: memref<8x300xf32>, %w: memref<32x300xf32>, %y: memref<8x32xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<8x300xf32>, memref<32x300xf32>) outs(%y : memref<8x32xf32>)
  return
}

// -----

// 8 rows of a long depth (8 x 2000 f32 = 62.5 KiB, beyond the L1 budget for x, 32 KiB, with
// AVX-512): blocks of k outside the tiles of columns, so the block of x stays in L1. With
// a 32 KiB L1 (the default) the blocks are 512 k (2 KiB of each row, 16 KiB of x), read
// from a copy of x whose rows are 2048 + 128 elements apart (4 KiB / 8 further than whole
// ways), so that the 8 pieces do not share L1's sets, and W's rows are taken in chunks of
// 32 (256 KiB / 8000 bytes per row, whole tiles), whose tiles prefetch the next chunk
// (here the only one: @eight_rows_chunks has more); with a 48 KiB L1, 1024 k of x in
// place, the tiles of 2 columns prefetching W 4 rows (2 tiles) ahead. AVX2 keeps the
// whole depth.
// CHECK-LABEL: func.func @eight_rows_long
// CHECK: %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x2176xf32>
// CHECK: %[[SPREAD:.*]] = memref.subview %[[COPY]][0, 0] [8, 2000] [1, 1] : memref<8x2176xf32> to memref<8x2000xf32, strided<[2176, 1]>>
// CHECK: linalg.copy ins(%{{.*}} : memref<8x2000xf32>) outs(%[[SPREAD]] :
// CHECK: scf.for %{{.*}} = %c0 to %c2000 step %c512
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c2
// CHECK: memref.subview %[[SPREAD]]
// CHECK: {kiln.dot_product_tile = 16 : i64, kiln.prefetch_next_chunk = array<i64: 32, 512>} ins({{.*}} : memref<8x?xf32, strided<[2176, 1], {{.*}}>>, memref<2x?xf32, {{.*}}>) outs(%{{.*}} : memref<8x2xf32, {{.*}}>)
// CHECK: memref.dealloc %[[COPY]]
// L1-48K-LABEL: func.func @eight_rows_long
// L1-48K-NOT: memref.alloc
// L1-48K: scf.for %{{.*}} = %c0 to %c2000 step %c1024
// L1-48K: {kiln.dot_product_tile = 16 : i64, kiln.prefetch_rows = 4 : i64} ins({{.*}} : memref<8x?xf32, strided<[2000, 1], {{.*}}>>, memref<2x?xf32, {{.*}}>)
// AVX2-LABEL: func.func @eight_rows_long
// AVX2-NOT: kiln.prefetch_rows
// AVX2: {kiln.dot_product_tile = 8 : i64} ins({{.*}} : memref<4x2000xf32, {{.*}}>, memref<3x2000xf32, {{.*}}>) outs(%{{.*}} : memref<4x3xf32, {{.*}}>)
func.func @eight_rows_long(%x: memref<8x2000xf32>, %w: memref<32x2000xf32>, %y: memref<8x32xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<8x2000xf32>, memref<32x2000xf32>) outs(%y : memref<8x32xf32>)
  return
}

// -----

// 69 rows of W in chunks of 32 (32, 32, 5), iterated chunk, k, n: each 8 x 2 tile prefetches
// into L2 its share of the next chunk's rows in memory order, 2 lines per step of 16 k,
// from element k0 * 32 + n0 * 512 of them (rows clamped to W's last): the chunk's 16 tiles
// x 4 blocks of k prefetch its successor's 32 x 2000 elements once. The chunk's last
// rows, tiles of one column (the fifth of the last chunk), prefetch nothing.
// CHECK-LABEL: func.func @eight_rows_chunks
// CHECK: scf.for %[[CHUNK:.*]] = %c0 to %c69 step %c32
// CHECK: %[[ROWS:.*]] = memref.subview %arg1[%[[CHUNK]], 0] [%{{.*}}, 2000] [1, 1]
// CHECK: scf.for %[[K0:.*]] = %c0 to %c2000 step %c512
// CHECK: scf.for %[[N0:.*]] = %c0 to %{{.*}} step %c2
// CHECK: memref.subview %[[ROWS]][%[[N0]], %[[K0]]] [2, %{{.*}}] [1, 1]
// CHECK: {kiln.dot_product_tile = 16 : i64, kiln.prefetch_next_chunk = array<i64: 32, 512>}
// CHECK: {kiln.dot_product_tile = 16 : i64} ins({{.*}}, %{{.*}} : memref<8x?xf32, {{.*}}>, memref<1x?xf32, {{.*}}>)
// VECTOR-LABEL: func.func @eight_rows_chunks
// VECTOR: %[[LAST:.*]] = arith.subi %{{.*}}, %c1{{.*}} : index
// VECTOR: scf.for %{{.*}} = %c0 to %c69 step %c32
// VECTOR: %[[NEXT:.*]] = arith.addi %{{.*}}, %c32{{.*}} : index
// VECTOR: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16 iter_args
// VECTOR: %[[STEP:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// VECTOR: %[[ROW:.*]] = arith.divui %[[STEP]], %{{.*}} : index
// VECTOR: %[[AT_ROW:.*]] = arith.addi %[[NEXT]], %[[ROW]]
// VECTOR: %[[CLAMPED:.*]] = arith.minui %[[AT_ROW]], %[[LAST]]
// VECTOR: %[[COLUMN:.*]] = arith.remui %[[STEP]], %{{.*}} : index
// VECTOR: memref.prefetch %arg1[%[[CLAMPED]], %[[COLUMN]]], read, locality<2>, data : memref<69x2000xf32>
// VECTOR: memref.prefetch %arg1[{{.*}}], read, locality<2>, data : memref<69x2000xf32>
// VECTOR-NOT: memref.prefetch
// VECTOR: vector.fma
// L1-48K-LABEL: func.func @eight_rows_chunks
// L1-48K-NOT: kiln.prefetch_next_chunk
// L1-48K: kiln.prefetch_rows = 4
func.func @eight_rows_chunks(%x: memref<8x2000xf32>, %w: memref<69x2000xf32>, %y: memref<8x69xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<8x2000xf32>, memref<69x2000xf32>) outs(%y : memref<8x69xf32>)
  return
}

// -----

// Batched, the same rows take no chunks: each matrix's tiles prefetch W 4 rows ahead.
// CHECK-LABEL: func.func @batch_eight_rows_long
// CHECK-NOT: kiln.prefetch_next_chunk
// CHECK: linalg.batch_matmul {{.*}} {kiln.dot_product_tile = 16 : i64, kiln.prefetch_rows = 4 : i64} ins({{.*}} : memref<1x8x?xf32, strided<[17408, 2176, 1], {{.*}}>>, memref<1x2x?xf32, {{.*}}>)
// CHECK-NOT: kiln.prefetch_next_chunk
// VECTOR-LABEL: func.func @batch_eight_rows_long
// VECTOR-COUNT-2: memref.prefetch %arg1[%{{.*}}, %{{.*}}, %{{.*}}], read, locality<2>, data
func.func @batch_eight_rows_long(%x: memref<2x8x2000xf32>, %w: memref<2x64x2000xf32>, %y: memref<2x8x64xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%x, %w : memref<2x8x2000xf32>, memref<2x64x2000xf32>) outs(%y : memref<2x8x64xf32>)
  return
}

// -----

// The same with a dynamic depth: the copy's rows are the depth rounded up to whole 4 KiB
// ways (1024 f32) plus 128 elements. 6 rows spread as 8 would.
// CHECK-LABEL: func.func @six_rows_dynamic_depth
// CHECK-DAG: %[[DEPTH:.*]] = memref.dim %{{.*}}, %c1 : memref<6x?xf32>
// CHECK-DAG: %[[WAYS:.*]] = arith.ceildivui %[[DEPTH]], %c1024
// CHECK-DAG: %[[WHOLE:.*]] = arith.muli %[[WAYS]], %c1024
// CHECK-DAG: %[[LENGTH:.*]] = arith.addi %[[WHOLE]], %c128
// CHECK: %[[COPY:.*]] = memref.alloc(%[[LENGTH]]) {alignment = 64 : i64} : memref<6x?xf32>
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c512
// CHECK: {kiln.dot_product_tile = 16 : i64, kiln.prefetch_rows = 4 : i64} ins({{.*}} : memref<6x?xf32, strided<[?, 1], {{.*}}>>, memref<2x?xf32, {{.*}}>) outs(%{{.*}} : memref<6x2xf32, {{.*}}>)
// CHECK: memref.dealloc %[[COPY]]
func.func @six_rows_dynamic_depth(%x: memref<6x?xf32>, %w: memref<32x?xf32>, %y: memref<6x32xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<6x?xf32>, memref<32x?xf32>) outs(%y : memref<6x32xf32>)
  return
}

// -----

// f16 weights, widened as they are read, keep 1024 k of x in place whatever the L1 (the
// widening bounds these tiles); x alone is widened once into a copy of its own shape.
// CHECK-LABEL: func.func @eight_rows_long_f16
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<8x2000xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c2000 step %c1024
// CHECK: {kiln.dot_product_tile = 16 : i64, kiln.prefetch_rows = 4 : i64} ins({{.*}} : memref<8x?xf32, strided<[2000, 1], {{.*}}>>, memref<2x?xf16, {{.*}}>)
func.func @eight_rows_long_f16(%x: memref<8x2000xf16>, %w: memref<32x2000xf16>, %y: memref<8x32xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<8x2000xf16>, memref<32x2000xf16>) outs(%y : memref<8x32xf32>)
  return
}

// -----

// 4 rows of a long depth (4 x 4000 f32, 62.5 KiB): blocks of k, in tiles of 2 columns
// (over the whole depth 4 rows take tiles of 4 columns; fewer streams of W at a time read
// faster). With a 32 KiB L1, pieces of 2 KiB (512 k; no piece above a twelfth of the L1),
// x's rows spread as for 8 rows and W in chunks of 16 rows (256 KiB / 16000 bytes per
// row); with a 48 KiB L1, pieces of 4 KiB (1024 k) in place, prefetching W 4 rows ahead.
// CHECK-LABEL: func.func @four_rows_long
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<4x4352xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK: scf.for %{{.*}} = %c0 to %c4000 step %c512
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c2
// CHECK: {kiln.dot_product_tile = 16 : i64, kiln.prefetch_next_chunk = array<i64: 16, 512>} ins({{.*}} : memref<4x?xf32, strided<[4352, 1], {{.*}}>>, memref<2x?xf32, {{.*}}>) outs(%{{.*}} : memref<4x2xf32, {{.*}}>)
// L1-48K-LABEL: func.func @four_rows_long
// L1-48K-NOT: memref.alloc
// L1-48K: scf.for %{{.*}} = %c0 to %c4000 step %c1024
// L1-48K: scf.for %{{.*}} = %c0 to %c32 step %c2
// L1-48K: {kiln.dot_product_tile = 16 : i64, kiln.prefetch_rows = 4 : i64} ins({{.*}} : memref<4x?xf32, {{.*}}>, memref<2x?xf32, {{.*}}>) outs(%{{.*}} : memref<4x2xf32, {{.*}}>)
// AVX2-LABEL: func.func @four_rows_long
// AVX2-NOT: kiln.prefetch_rows
// AVX2: {kiln.dot_product_tile = 8 : i64} ins(%{{.*}}, %{{.*}} : memref<4x4000xf32>, memref<3x4000xf32, {{.*}}>) outs(%{{.*}} : memref<4x3xf32, {{.*}}>)
func.func @four_rows_long(%x: memref<4x4000xf32>, %w: memref<32x4000xf32>, %y: memref<4x32xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<4x4000xf32>, memref<32x4000xf32>) outs(%y : memref<4x32xf32>)
  return
}

// -----

// A W beyond the core's L2 (607 x 1000 f32, 2.3 MiB) and up to 4 rows: tiles over the
// whole depth, one chunk of W's rows each (8 columns for 1 row, 6 for 4: 24 partial sums),
// each prefetching the next tile's rows in memory order ([columns, depth]); the last 7 and
// 1 columns are tiles of one column that prefetch nothing. 8 rows (x read more than W)
// keep their tiles of 2 columns; a W just below 2 MiB (520 x 1000) keeps 4 columns and
// no prefetching; with AVX2 nothing is read in order.
// CHECK-LABEL: func.func @rows_in_order
// CHECK: scf.for %{{.*}} = %c0 to %c607 step %c8
// CHECK: {kiln.dot_product_tile = 16 : i64, kiln.prefetch_next_chunk = array<i64: 8, 1000>} ins({{.*}} : memref<1x1000xf32>, memref<8x1000xf32, {{.*}}>) outs(%{{.*}} : memref<1x8xf32, {{.*}}>)
// CHECK: {kiln.dot_product_tile = 16 : i64} ins({{.*}} : memref<1x1000xf32>, memref<1x1000xf32, {{.*}}>) outs(%{{.*}} : memref<1x1xf32, {{.*}}>)
// CHECK: scf.for %{{.*}} = %c0 to %c607 step %c6
// CHECK: {kiln.dot_product_tile = 16 : i64, kiln.prefetch_next_chunk = array<i64: 6, 1000>} ins({{.*}} : memref<4x1000xf32>, memref<6x1000xf32, {{.*}}>) outs(%{{.*}} : memref<4x6xf32, {{.*}}>)
// CHECK: {kiln.dot_product_tile = 16 : i64} ins({{.*}} : memref<4x1000xf32>, memref<1x1000xf32, {{.*}}>) outs(%{{.*}} : memref<4x1xf32, {{.*}}>)
// CHECK: {kiln.dot_product_tile = 16 : i64} ins({{.*}} : memref<8x1000xf32>, memref<2x1000xf32, {{.*}}>) outs(%{{.*}} : memref<8x2xf32, {{.*}}>)
// CHECK-NOT: kiln.prefetch
// CHECK: {kiln.dot_product_tile = 16 : i64} ins({{.*}} : memref<4x1000xf32>, memref<4x1000xf32, {{.*}}>) outs(%{{.*}} : memref<4x4xf32, {{.*}}>)
// VECTOR-LABEL: func.func @rows_in_order
// VECTOR: scf.for %{{.*}} = %c0 to %c607 step %c8
// VECTOR: scf.for %{{.*}} step %c16{{.*}} iter_args
// VECTOR-COUNT-8: memref.prefetch %arg2[%{{.*}}, %{{.*}}], read, locality<2>, data : memref<607x1000xf32>
// VECTOR-NOT: memref.prefetch
// VECTOR: scf.for %{{.*}} = %c0 to %c607 step %c6
// VECTOR: scf.for %{{.*}} step %c16{{.*}} iter_args
// VECTOR-COUNT-6: memref.prefetch %arg2[%{{.*}}, %{{.*}}], read, locality<2>, data : memref<607x1000xf32>
// VECTOR-NOT: memref.prefetch
// VECTOR: vector.fma
// AVX2-LABEL: func.func @rows_in_order
// AVX2-NOT: kiln.prefetch_next_chunk
// AVX2: return
func.func @rows_in_order(%x1: memref<1x1000xf32>, %x4: memref<4x1000xf32>, %w: memref<607x1000xf32>,
                         %y1: memref<1x607xf32>, %y4: memref<4x607xf32>, %x8: memref<8x1000xf32>,
                         %y8: memref<8x607xf32>, %ws: memref<520x1000xf32>, %ys: memref<4x520xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x1, %w : memref<1x1000xf32>, memref<607x1000xf32>) outs(%y1 : memref<1x607xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x4, %w : memref<4x1000xf32>, memref<607x1000xf32>) outs(%y4 : memref<4x607xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x8, %w : memref<8x1000xf32>, memref<607x1000xf32>) outs(%y8 : memref<8x607xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x4, %ws : memref<4x1000xf32>, memref<520x1000xf32>) outs(%ys : memref<4x520xf32>)
  return
}

// -----

// 2 rows of 4096 f32 (32 KiB, the L1 budget for x): the whole depth, tiles of 8 columns
// reading W's rows in order, no prefetching; one more element of depth takes blocks that
// fill the budget (4096, as fewer than 4 rows do; 4 rows or more take pieces of each row).
// CHECK-LABEL: func.func @two_rows_within_budget
// CHECK-NOT: step %c1024
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c8
// CHECK: {kiln.dot_product_tile = 16 : i64} ins({{.*}} : memref<2x4096xf32>, memref<8x4096xf32, {{.*}}>) outs(%{{.*}} : memref<2x8xf32, {{.*}}>)
// CHECK: scf.for %{{.*}} = %c0 to %c4097 step %c4096
// CHECK: {kiln.dot_product_tile = 16 : i64, kiln.prefetch_rows = 4 : i64} ins({{.*}} : memref<2x?xf32, {{.*}}>, memref<2x?xf32, {{.*}}>) outs(%{{.*}} : memref<2x2xf32, {{.*}}>)
func.func @two_rows_within_budget(%x: memref<2x4096xf32>, %w: memref<32x4096xf32>, %y: memref<2x32xf32>,
                                  %x1: memref<2x4097xf32>, %w1: memref<32x4097xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<2x4096xf32>, memref<32x4096xf32>) outs(%y : memref<2x32xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x1, %w1 : memref<2x4097xf32>, memref<32x4097xf32>) outs(%y : memref<2x32xf32>)
  return
}

// -----

// A contraction with an empty loop (0 rows) is not tiled (MLIR's tiling crashed on it):
// it stays a linalg op, which canonicalisation then removes as a no-op.
// CHECK-LABEL: func.func @no_rows
// CHECK-NOT: kiln.register_tile
// CHECK: return
func.func @no_rows(%a: memref<0x300xf32>, %b: memref<300x40xf32>, %c: memref<0x40xf32>) {
  linalg.matmul ins(%a, %b : memref<0x300xf32>, memref<300x40xf32>) outs(%c : memref<0x40xf32>)
  return
}

// -----

// f16 x f16 -> f32 with W[N, K]: both operands are widened to f32 while packed, A per
// block of k into [groups, 128, 6] (its 3 whole groups of 6 rows), W per block into the
// 128 x 64 buffer by 16 x 16 transposes that widen (vectorised: a read of f16, arith.extf,
// vector.transpose); the f32 register tiles take the packs, and the last 2 rows read A in
// place, widening it (vectorised as arith.extf and a multi-reduction, as vector.contract
// wants one element type). With AVX2 (no packing of A), A is widened whole into a heap
// buffer first and the register tiles read it in place.
// CHECK-LABEL: func.func @f16_nt_widened
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<128x64xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<3x128x6xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<18x?xf16, {{.*}}>) outs(%{{.*}} : memref<3x?x6xf32, {{.*}}>)
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<16x16xf16, {{.*}}>) outs(%{{.*}} : memref<16x16xf32, {{.*}}>) attrs =  {kiln.register_tile}
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<6x1xf32, strided<[1, 6], {{.*}}>>, memref<1x64xf32, {{.*}}>)
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<2x1xf16, {{.*}}>, memref<1x64xf32, {{.*}}>)
// AVX2-LABEL: func.func @f16_nt_widened
// AVX2: %[[WIDE:.*]] = memref.alloc() {alignment = 64 : i64} : memref<20x300xf32>
// AVX2: linalg.generic {{.*}} ins(%{{.*}} : memref<20x300xf16>) outs(%[[WIDE]] : memref<20x300xf32>)
// AVX2: linalg.generic {{.*}} ins(%{{.*}} : memref<8x8xf16, {{.*}}>) outs(%{{.*}} : memref<8x8xf32, {{.*}}>) attrs =  {kiln.register_tile}
// AVX2: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<6x1xf32, {{.*}}>, memref<1x16xf32, {{.*}}>)
// AVX2: memref.dealloc %[[WIDE]]
// VECTOR-LABEL: func.func @f16_nt_widened
// VECTOR: %[[ROWS:.*]] = vector.transfer_read {{.*}} : memref<16x16xf16, {{.*}}>, vector<16x16xf16>
// VECTOR: %[[WIDE:.*]] = arith.extf %[[ROWS]] : vector<16x16xf16> to vector<16x16xf32>
// VECTOR: vector.transpose %[[WIDE]], [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// VECTOR: vector.contract {{.*}} : vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
// VECTOR: arith.extf %{{.*}} : vector<2x64x1xf16> to vector<2x64x1xf32>
// VECTOR: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<2x64x1xf32> to vector<2x64xf32>
// VECTOR-NOT: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<2x1xf16, {{.*}}>, memref<1x64xf32
func.func @f16_nt_widened(%a: memref<20x300xf16>, %w: memref<70x300xf16>, %c: memref<20x70xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %w : memref<20x300xf16>, memref<70x300xf16>) outs(%c : memref<20x70xf32>)
  return
}

// -----

// A bf16 batch matmul into f32 (no dot-product instructions): its left-hand operand, which
// no packing widens, is widened whole into a heap buffer first; each block of the
// right-hand operand is widened while packed, and the f32 register tiles take both, with
// AVX2 as with AVX-512.
// CHECK-LABEL: func.func @bf16_batch_widened
// CHECK: %[[WIDE:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x20x300xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<2x20x300xbf16>) outs(%[[WIDE]] : memref<2x20x300xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<1x16x16xbf16, {{.*}}>) outs(%{{.*}} : memref<1x16x16xf32, {{.*}}>) attrs =  {kiln.register_tile}
// CHECK: linalg.batch_matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<1x6x1xf32, {{.*}}>, memref<1x1x64xf32, {{.*}}>)
// CHECK: memref.dealloc %[[WIDE]]
// AVX2-LABEL: func.func @bf16_batch_widened
// AVX2: memref.alloc() {alignment = 64 : i64} : memref<2x20x300xf32>
// AVX2: linalg.batch_matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<1x{{[0-9]+}}x1xf32, {{.*}}>, memref<1x1x{{[0-9]+}}xf32, {{.*}}>)
func.func @bf16_batch_widened(%a: memref<2x20x300xbf16>, %b: memref<2x300x70xbf16>, %c: memref<2x20x70xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x20x300xbf16>, memref<2x300x70xbf16>) outs(%c : memref<2x20x70xf32>)
  return
}

// -----

// f16 into f16: with f16-vectors (AVX512_FP16), tiled as f32 is but in 32-lane vectors and
// register tiles of 16 rows x 1 vector (each broadcast feeds one FMA); A is packed in
// groups of 16 rows ([2, 256, 16]), B in blocks of 256 x 32 by 32 x 32 copies; the last 8
// rows are a tile of 8 rows. Without it the matmul is not tiled.
// F16-LABEL: func.func @f16_native
// F16: memref.alloca() {alignment = 64 : i64} : memref<256x32xf16>
// F16: memref.alloc() {alignment = 64 : i64} : memref<2x256x16xf16>
// F16: linalg.copy {kiln.register_tile} ins(%{{.*}} : memref<32x32xf16, {{.*}}>) outs(%{{.*}} : memref<32x32xf16, {{.*}}>)
// F16: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<16x1xf16, strided<[1, 16], {{.*}}>>, memref<1x32xf16, {{.*}}>) outs(%{{.*}} : memref<16x32xf16, {{.*}}>)
// F16: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<8x1xf16, {{.*}}>, memref<1x32xf16, {{.*}}>) outs(%{{.*}} : memref<8x32xf16, {{.*}}>)
// CHECK-LABEL: func.func @f16_native
// CHECK-NOT: kiln.register_tile
// CHECK: linalg.matmul ins
// CHECK-NOT: kiln.register_tile
func.func @f16_native(%a: memref<40x300xf16>, %b: memref<300x70xf16>, %c: memref<40x70xf16>) {
  linalg.matmul ins(%a, %b : memref<40x300xf16>, memref<300x70xf16>) outs(%c : memref<40x70xf16>)
  return
}

// -----

// A decode-shaped f16 product (4 rows, W[N, K]) into f32 takes dot-product tiles: x is
// widened once into an f32 buffer, W is widened as loaded (f16 vector loads, arith.extf),
// f32 FMAs; the k % 16 tail through masked f16 loads of W, widened too.
// VECTOR-LABEL: func.func @f16_decode_widened
// VECTOR: %[[X:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x300xf32>
// VECTOR: arith.extf %{{.*}} : f16 to f32
// VECTOR: vector.load %[[X]][%{{.*}}] : memref<4x300xf32>, vector<16xf32>
// VECTOR: %[[W:.*]] = vector.load %{{.*}} : memref<4x300xf16, strided<[300, 1], {{.*}}>>, vector<16xf16>
// VECTOR-NEXT: %[[WIDE:.*]] = arith.extf %[[W]] : vector<16xf16> to vector<16xf32>
// VECTOR: vector.fma %{{.*}}, %[[WIDE]], %{{.*}} : vector<16xf32>
// VECTOR: %[[TAIL:.*]] = vector.maskedload %{{.*}} : memref<4x300xf16, strided<[300, 1], {{.*}}>>, vector<16xi1>, vector<16xf16> into vector<16xf16>
// VECTOR-NEXT: arith.extf %[[TAIL]] : vector<16xf16> to vector<16xf32>
// VECTOR: memref.dealloc %[[X]]
func.func @f16_decode_widened(%x: memref<4x300xf16>, %w: memref<70x300xf16>, %c: memref<4x70xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : memref<4x300xf16>, memref<70x300xf16>) outs(%c : memref<4x70xf32>)
  return
}

// -----

// A generic of a matmul's shape with f16 operands into f32 is not widened: only
// linalg.matmul is known to widen before multiplying (this one multiplies in f16).
// CHECK-LABEL: func.func @f16_generic_not_widened
// CHECK-NOT: kiln.register_tile
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f16
// CHECK-NOT: kiln.register_tile
func.func @f16_generic_not_widened(%a: memref<40x300xf16>, %b: memref<300x70xf16>, %c: memref<40x70xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<40x300xf16>, memref<300x70xf16>) outs(%c : memref<40x70xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %p = arith.mulf %x, %y : f16
    %w = arith.extf %p : f16 to f32
    %s = arith.addf %acc, %w : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A product whose body negates a factor (isaContractionOpInterface looks through one-operand
// ops) is no plain out + a * b: no register tiles, no packs; it becomes loops as written.
// CHECK-LABEL: func.func @negated_factor
// CHECK-NOT: kiln.register_tile
// CHECK-NOT: memref.alloca
// CHECK: arith.negf
// CHECK-NOT: kiln.register_tile
func.func @negated_factor(%a: memref<40x300xf32>, %b: memref<300x70xf32>, %c: memref<40x70xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<40x300xf32>, memref<300x70xf32>) outs(%c : memref<40x70xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %negated = arith.negf %x : f32
    %p = arith.mulf %negated, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The fill of the output just before the product moves into its first block of k: each
// register tile fills its own output there (the last columns' and the last rows' tiles
// too), and no fill of the whole output is left. Vectorised, a tile of the first block
// adds the fill's value to its sums and writes them, without reading the output; the
// other blocks read, add and write. The last columns' tiles (dynamic, masked) keep their
// fill.
// CHECK-LABEL: func.func @fill_then_matmul
// CHECK-NOT: linalg.fill
// CHECK: scf.for %[[K:.*]] = %c0 to %c300 step %c128
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %c0
// CHECK: scf.for %{{.*}} = %c0 to %c18 step %c6
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: linalg.fill {kiln.register_tile} ins(%{{.*}} : f32) outs(%[[TILE:.*]] : memref<6x64xf32
// CHECK: scf.for
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.matmul {kiln.register_tile} {{.*}} outs(%[[TILE]] : memref<6x64xf32
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: linalg.fill {kiln.register_tile} {{.*}} : memref<6x?xf32
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: linalg.fill {kiln.register_tile} {{.*}} : memref<2x64xf32
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: linalg.fill {kiln.register_tile} {{.*}} : memref<2x?xf32
// With AVX2 too (8 x 16 tiles), the same.
// AVX2-LABEL: func.func @fill_then_matmul
// AVX2: %[[FIRST:.*]] = arith.cmpi eq
// AVX2: scf.if %[[FIRST]] {
// AVX2-NEXT: linalg.fill {kiln.register_tile} ins(%{{.*}} : f32) outs(%{{.*}} : memref<6x16xf32
// VECTOR-LABEL: func.func @fill_then_matmul
// VECTOR: %[[FIRST:.*]] = arith.cmpi eq
// VECTOR: scf.for %{{.*}} = %c0 to %c18 step %c6
// VECTOR-NOT: linalg.fill
// VECTOR: %[[SUMS:.*]] = scf.for {{.*}} -> (vector<6x64xf32>)
// VECTOR: scf.if %[[FIRST]] {
// VECTOR-NEXT: %[[FILLED:.*]] = arith.addf %{{.*}}, %[[SUMS]] : vector<6x64xf32>
// VECTOR-NEXT: vector.transfer_write %[[FILLED]], %[[TILE:[a-z_0-9]+]][
// VECTOR-NEXT: } else {
// VECTOR-NEXT: %[[OLD:.*]] = vector.transfer_read %[[TILE]][
// VECTOR-NEXT: %[[ADDED:.*]] = arith.addf %[[OLD]], %[[SUMS]] : vector<6x64xf32>
// VECTOR-NEXT: vector.transfer_write %[[ADDED]], %[[TILE]][
// VECTOR: scf.if %[[FIRST]] {
// VECTOR-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<6x?xf32
func.func @fill_then_matmul(%x: memref<20x300xf32>, %w: memref<300x80xf32>, %y: memref<20x80xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<20x80xf32>)
  linalg.matmul ins(%x, %w : memref<20x300xf32>, memref<300x80xf32>) outs(%y : memref<20x80xf32>)
  return
}

// -----

// k in one block: each tile fills its output unconditionally; vectorised, the tile adds
// the fill's value (here 1) and never reads the output.
// CHECK-LABEL: func.func @fill_then_shallow_matmul
// CHECK-NOT: scf.if
// CHECK: scf.for %{{.*}} = %c0 to %c12 step %c6
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.fill {kiln.register_tile} ins(%{{.*}} : f32) outs(%{{.*}} : memref<6x64xf32
// VECTOR-LABEL: func.func @fill_then_shallow_matmul
// VECTOR: %[[ONES:.*]] = arith.constant dense<1.000000e+00> : vector<6x64xf32>
// VECTOR: %[[SUMS:.*]] = scf.for {{.*}} -> (vector<6x64xf32>)
// VECTOR-NOT: vector.transfer_read %{{.*}} memref<6x64xf32, strided<[64, 1]
// VECTOR: %[[FILLED:.*]] = arith.addf %[[ONES]], %[[SUMS]] : vector<6x64xf32>
// VECTOR-NEXT: vector.transfer_write %[[FILLED]]
// VECTOR-NOT: linalg.fill
func.func @fill_then_shallow_matmul(%x: memref<12x64xf32>, %w: memref<64x64xf32>, %y: memref<12x64xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%y : memref<12x64xf32>)
  linalg.matmul ins(%x, %w : memref<12x64xf32>, memref<64x64xf32>) outs(%y : memref<12x64xf32>)
  return
}

// -----

// A dynamic depth may be empty (no block of k at all): the fill stays before the product.
// CHECK-LABEL: func.func @fill_then_dynamic_depth
// VECTOR-LABEL: func.func @fill_then_dynamic_depth
// VECTOR: linalg.fill
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<12x64xf32>)
// CHECK: scf.for
// CHECK-NOT: linalg.fill
func.func @fill_then_dynamic_depth(%x: memref<12x?xf32>, %w: memref<?x64xf32>, %y: memref<12x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<12x64xf32>)
  linalg.matmul ins(%x, %w : memref<12x?xf32>, memref<?x64xf32>) outs(%y : memref<12x64xf32>)
  return
}

// -----

// A filled batch matmul of depth 256 (at most kCacheDepth): one block of k, 256 x 64
// (64 KiB) packed per block of columns, so each register tile fills its own output
// unconditionally (no first-block test) and writes it once.
// CHECK-LABEL: func.func @batch_whole_depth
// CHECK-NOT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<16x256x256xf32>)
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<1x256x64xf32>
// CHECK-NOT: step %c128
// CHECK-NOT: arith.cmpi eq
// CHECK: linalg.fill {kiln.register_tile} ins(%{{.*}} : f32) outs(%{{.*}} : memref<1x6x64xf32, {{.*}}>)
// CHECK-NEXT: scf.for
// CHECK: linalg.batch_matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<1x6x1xf32, {{.*}}>, memref<1x1x64xf32, {{.*}}>)
func.func @batch_whole_depth(%a: memref<16x256x256xf32>, %b: memref<16x256x256xf32>, %c: memref<16x256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<16x256x256xf32>)
  linalg.batch_matmul ins(%a, %b : memref<16x256x256xf32>, memref<16x256x256xf32>) outs(%c : memref<16x256x256xf32>)
  return
}
