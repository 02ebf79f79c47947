// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions="dot-bf16=true dot-i8=true amx-bf16=true amx-i8=true" -canonicalize | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions="dot-bf16=true dot-i8=true amx-bf16=true amx-i8=true" -canonicalize -kiln-cpu-vectorize-contractions | FileCheck %s --check-prefix=VECTOR
// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions="dot-bf16=true dot-i8=true" -canonicalize | FileCheck %s --check-prefix=NOAMX

// bf16 x bf16 -> f32, B[K, N], 77 x 1152 x 70, AMX tiles: blocks of 384 k (the deepest
// multiple of 32 up to 512 that divides 1152) x up to 512 columns; per block, its 2 whole
// pieces of 32 columns packed side by side into a heap buffer [2, 192, 32, 2] (freed at
// the return), then the rows in tiles of 32 (kiln.matrix_tile), each taking both pieces;
// the last 13 rows in a vector tile of 8 and 5 of one per piece, and the last 6 columns a
// matmul (loops). Vectorised: 2 x 2 accumulator tiles loaded, a loop over the 192 groups
// in steps of 16 with 2 + 2 operand tiles and 4 tile_mulf, the tiles stored. Without
// amx-bf16 the blocks are 256 deep and every tile is a vector tile.
// CHECK-LABEL: func.func @bf16_nn
// CHECK: %[[PACKED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x192x32x2xbf16>
// CHECK: scf.for %{{.*}} = %c0 to %c1152 step %c384
// CHECK: scf.for %[[PIECE:.*]] = %c0 to %c2 step %c1
// CHECK: memref.subview %[[PACKED]][%[[PIECE]], 0, 0, 0] [1, 192, 32, 2]
// CHECK: attrs =  {kiln.group_pack_tile}
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : memref<32x384xbf16, {{.*}}>, memref<192x32x2xbf16{{.*}}>) outs(%{{.*}} : memref<32x32xf32, {{.*}}>) attrs =  {kiln.matrix_tile}
// CHECK: outs(%{{.*}} : memref<8x32xf32, {{.*}}>) attrs =  {kiln.group_dot_tile}
// CHECK: scf.for %{{.*}} = %c0 to %c5 step %c1
// CHECK: outs(%{{.*}} : memref<1x32xf32, {{.*}}>) attrs =  {kiln.group_dot_tile}
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<77x384xbf16, {{.*}}>, memref<384x6xbf16, {{.*}}>) outs(%{{.*}} : memref<77x6xf32, {{.*}}>)
// CHECK: memref.dealloc %[[PACKED]]
// VECTOR-LABEL: func.func @bf16_nn
// VECTOR-COUNT-4: amx.tile_load %{{.*}} : memref<32x32xf32, {{.*}}> into !amx.tile<16x16xf32>
// VECTOR: scf.for %{{.*}} = %{{.*}} to %c192 step %{{.*}} iter_args
// VECTOR-COUNT-2: amx.tile_load %{{.*}} : memref<32x384xbf16, {{.*}}> into !amx.tile<16x32xbf16>
// VECTOR-COUNT-2: amx.tile_load %{{.*}} : memref<192x64xbf16, {{.*}}> into !amx.tile<16x32xbf16>
// VECTOR-COUNT-4: amx.tile_mulf
// VECTOR: scf.yield
// VECTOR-COUNT-4: amx.tile_store
// VECTOR: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// VECTOR-NOT: kiln.matrix_tile
// NOAMX-LABEL: func.func @bf16_nn
// NOAMX: memref.alloca() {alignment = 64 : i64} : memref<128x32x2xbf16>
// NOAMX-NOT: kiln.matrix_tile
func.func @bf16_nn(%a: memref<77x1152xbf16>, %b: memref<1152x70xbf16>, %c: memref<77x70xf32>) {
  linalg.matmul ins(%a, %b : memref<77x1152xbf16>, memref<1152x70xbf16>) outs(%c : memref<77x70xf32>)
  return
}

// -----

// i8 x i8 -> i32, W[N, K], dynamic rows: blocks of 1024 k, packed [2, 256, 32, 4] (a
// transpose), with the column sums the vector tiles of the last rows need; AMX tiles
// ignore them (tdpbssd is signed x signed: tile_muli without zext).
// CHECK-LABEL: func.func @i8_nt_dynamic_rows
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<2x256x32x4xi8>
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<2x32xi32>
// CHECK: attrs =  {kiln.group_sums_tile}
// CHECK: attrs =  {kiln.matrix_tile}
// CHECK: attrs =  {kiln.group_dot_tile}
// VECTOR-LABEL: func.func @i8_nt_dynamic_rows
// VECTOR: scf.for %{{.*}} = %{{.*}} to %c256 step %{{.*}} iter_args
// VECTOR-COUNT-4: amx.tile_muli %{{.*}}, %{{.*}}, %{{.*}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// VECTOR: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
func.func @i8_nt_dynamic_rows(%a: memref<?x2048xi8>, %w: memref<64x2048xi8>, %c: memref<?x64xi32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : memref<?x2048xi8>, memref<64x2048xi8>) outs(%c : memref<?x64xi32>)
  return
}

// -----

// A depth that is not a multiple of an AMX step (64 i8 k) takes the vector tiles only.
// CHECK-LABEL: func.func @i8_depth_not_whole_steps
// CHECK-NOT: kiln.matrix_tile
// CHECK: kiln.group_dot_tile
func.func @i8_depth_not_whole_steps(%a: memref<64x1000xi8>, %b: memref<1000x64xi8>, %c: memref<64x64xi32>) {
  linalg.matmul ins(%a, %b : memref<64x1000xi8>, memref<1000x64xi8>) outs(%c : memref<64x64xi32>)
  return
}

// -----

// i8 rows that are all in AMX tiles (64 = 2 x 32): no column sums, and the product is
// plain out + a * b (no offset, no correction).
// CHECK-LABEL: func.func @i8_whole_tiles
// CHECK-NOT: kiln.group_sums_tile
// CHECK-NOT: arith.select
// CHECK: kiln.matrix_tile
// CHECK-NOT: kiln.group_dot_tile
// VECTOR-LABEL: func.func @i8_whole_tiles
// VECTOR: amx.tile_muli
// VECTOR-NOT: vpdpbusd
func.func @i8_whole_tiles(%a: memref<64x256xi8>, %b: memref<256x64xi8>, %c: memref<64x64xi32>) {
  linalg.matmul ins(%a, %b : memref<64x256xi8>, memref<256x64xi8>) outs(%c : memref<64x64xi32>)
  return
}
