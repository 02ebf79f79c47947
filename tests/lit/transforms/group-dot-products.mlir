// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions="dot-bf16=true dot-i8=true" -canonicalize | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions="dot-bf16=true dot-i8=true" -canonicalize -kiln-cpu-vectorize-contractions | FileCheck %s --check-prefix=VECTOR
// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions | FileCheck %s --check-prefix=NOGROUP
// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions="vector-bits=256 dot-bf16=true dot-i8=true" | FileCheck %s --check-prefix=ABSENT

// bf16 x bf16 -> f32, B[K, N], K even: cache blocks of 32 columns x 256 k (the last 6
// columns stay a matmul: loops), each packed into [128, 32, 2] on the stack by a marked
// pack, then a generic over (m, n, p, j) that reads A at k = 2p + j, in tiles of 8 rows
// and, for the last 4 rows, of 1 row. Vectorised: interleaved rows in the pack, vdpbf16ps
// in the kernel. Without dot-bf16 (512-bit vectors), both operands are widened to f32 as
// they are packed (A per block of k into [groups, 128, 6], B per block into 128 x 64) and
// the f32 register tiles take them; the last 2 rows read A in place. With 256-bit vectors
// (no group dots) A is widened whole first and the f32 register tiles read it in place.
// CHECK-LABEL: func.func @bf16_nn
// CHECK: %[[PACK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<128x32x2xbf16>
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK: scf.for %{{.*}} = %c0 to %c300 step %c256
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<?x32xbf16, {{.*}}>) outs(%{{.*}} : memref<?x32x2xbf16, {{.*}}>) attrs =  {kiln.group_pack_tile}
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}}, %{{.*}} : memref<8x?xbf16, {{.*}}>, memref<?x32x2xbf16, {{.*}}>) outs(%{{.*}} : memref<8x32xf32, {{.*}}>) attrs =  {kiln.group_dot_tile}
// CHECK: arith.extf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : memref<1x32xf32, {{.*}}>) attrs =  {kiln.group_dot_tile}
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<20x?xbf16, {{.*}}>, memref<?x6xbf16, {{.*}}>) outs(%{{.*}} : memref<20x6xf32, {{.*}}>)
// VECTOR-LABEL: func.func @bf16_nn
// VECTOR: vector.interleave %{{.*}}, %{{.*}} : vector<32xbf16> -> vector<64xbf16>
// VECTOR: vector.broadcast %{{.*}} : i32 to vector<16xi32>
// VECTOR: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) -> vector<16xf32>
// VECTOR-NOT: kiln.group
// ABSENT-LABEL: func.func @bf16_nn
// ABSENT-NOT: kiln.group
// ABSENT: memref.alloc() {alignment = 64 : i64} : memref<20x300xf32>
// ABSENT: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<6x1xf32, {{.*}}>, memref<1x?xf32, {{.*}}>)
// ABSENT-NOT: kiln.group
// NOGROUP-LABEL: func.func @bf16_nn
// NOGROUP-NOT: kiln.group
// NOGROUP: memref.alloca() {alignment = 64 : i64} : memref<128x64xf32>
// NOGROUP: memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x128x6xf32>
// NOGROUP: linalg.generic {{.*}} ins(%{{.*}} : memref<18x?xbf16, {{.*}}>) outs(%{{.*}} : memref<3x?x6xf32, {{.*}}>)
// NOGROUP-NEXT: ^bb0
// NOGROUP-NEXT: arith.extf %{{.*}} : bf16 to f32
// NOGROUP: linalg.generic {{.*}} ins(%{{.*}} : memref<?x?xbf16, {{.*}}>) outs(%{{.*}} : memref<?x?xf32, strided<[64, 1], {{.*}}>>) attrs =  {kiln.register_tile}
// NOGROUP-NEXT: ^bb0
// NOGROUP-NEXT: arith.extf %{{.*}} : bf16 to f32
// NOGROUP: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<6x1xf32, strided<[1, 6], {{.*}}>>, memref<1x?xf32, {{.*}}>)
// NOGROUP: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<2x1xbf16, {{.*}}>, memref<1x?xf32, {{.*}}>)
// NOGROUP-NOT: kiln.group
func.func @bf16_nn(%a: memref<20x300xbf16>, %b: memref<300x70xbf16>, %c: memref<20x70xf32>) {
  linalg.matmul ins(%a, %b : memref<20x300xbf16>, memref<300x70xbf16>) outs(%c : memref<20x70xf32>)
  return
}

// -----

// i8 x i8 -> i32, W[N, K], K = 130: the last 2 k (130 % 4) are split off as a matmul of
// their own; the blocks of W (up to 1024 k deep, a [256, 32, 4] buffer) are packed
// [32, 32, 4] (a transpose of 32-bit groups), their column sums S (x 128) computed, and
// the product adds (a + 128) b - S[n] at p = j = 0. Vectorised: 16 x 16 transposes of i32
// in the pack (64 two-input shuffles each, no vector.transpose), vpdpbusd with 0x80 bytes
// for the sums, and the sign bits of A's bytes flipped (xor 0x80808080) in the kernel,
// whose sums start from zero; after the loop, the output less S plus the sums.
// CHECK-LABEL: func.func @i8_nt
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<256x32x4xi8>
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<32xi32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<32x128xi8, {{.*}}>) outs(%{{.*}} : memref<32x32x4xi8, {{.*}}>) attrs =  {kiln.group_pack_tile}
// CHECK: linalg.fill
// CHECK: attrs =  {kiln.group_sums_tile}
// CHECK: kiln.group_dot_tile
// CHECK-DAG: linalg.index 2
// CHECK-DAG: linalg.index 3
// CHECK: arith.select
// CHECK: linalg.matmul indexing_maps = {{.*}} ins(%{{.*}}, %{{.*}} : memref<24x2xi8, {{.*}}>, memref<64x2xi8, {{.*}}>) outs(%{{.*}} : memref<24x64xi32>)
// VECTOR-LABEL: func.func @i8_nt
// VECTOR-NOT: vector.transpose
// VECTOR-COUNT-128: vector.shuffle %{{.*}}, %{{.*}} [{{.*}}] : vector<16xi32>, vector<16xi32>
// VECTOR-NOT: vector.transpose
// VECTOR: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// VECTOR: arith.xori %{{.*}}, %{{.*}} : vector<16xi32>
// VECTOR: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// VECTOR: %[[BEFORE:.*]] = vector.load %{{.*}} : memref<8x32xi32, {{.*}}>, vector<16xi32>
// VECTOR-NEXT: %[[SHIFTED:.*]] = arith.subi %[[BEFORE]], %{{.*}} : vector<16xi32>
// VECTOR-NEXT: arith.addi %[[SHIFTED]], %{{.*}} : vector<16xi32>
// ABSENT-LABEL: func.func @i8_nt
// ABSENT-NOT: kiln.group
// ABSENT: linalg.matmul indexing_maps
// NOGROUP-LABEL: func.func @i8_nt
// NOGROUP-NOT: kiln.group
// NOGROUP: linalg.matmul indexing_maps
func.func @i8_nt(%a: memref<24x130xi8>, %w: memref<64x130xi8>, %c: memref<24x64xi32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : memref<24x130xi8>, memref<64x130xi8>) outs(%c : memref<24x64xi32>)
  return
}

// -----

// Fewer than 16 rows (a copy of the block would cost about as much as the product): no
// group packs; the operands are widened into f32 packs instead, and the 4 rows take
// a tile of 4 rows that reads A in place.
// CHECK-LABEL: func.func @bf16_few_rows
// CHECK-NOT: kiln.group
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<128x64xf32>
// CHECK-NOT: kiln.group
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<4x1xbf16, {{.*}}>, memref<1x64xf32, {{.*}}>)
// CHECK-NOT: kiln.group
func.func @bf16_few_rows(%a: memref<4x300xbf16>, %b: memref<300x70xbf16>, %c: memref<4x70xf32>) {
  linalg.matmul ins(%a, %b : memref<4x300xbf16>, memref<300x70xbf16>) outs(%c : memref<4x70xf32>)
  return
}

// -----

// bf16 -> f32 into a filled 1024 x 1040 output (4.1 MiB, beyond a core's L2), K = 512 (two
// blocks of 256): the fill moves into the first block of k, before each register tile of
// the whole 32-column blocks, and before the last 16 columns' block, which stays a matmul
// (loops). Vectorised, a tile's sums start from zero, its 16 lines of output are
// prefetched for writing over the first 16 of its 128 steps (the rest run without), and
// after the loop it writes the fill's value plus the sums in the first block of k, the
// output read back plus the sums in the second.
// CHECK-LABEL: func.func @bf16_filled
// CHECK-NOT: linalg.fill
// CHECK: scf.for %{{.*}} = %c0 to %c1024 step %c32
// CHECK: scf.for %[[K:.*]] = %c0 to %c512 step %c256
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %c0
// CHECK: kiln.group_pack_tile
// CHECK: scf.for %{{.*}} = %c0 to %c1024 step %c8
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<8x32xf32, {{.*}}>)
// CHECK-NEXT: }
// CHECK-NEXT: linalg.generic {{.*}} outs(%{{.*}} : memref<8x32xf32, {{.*}}>) attrs =  {kiln.group_dot_tile}
// CHECK: scf.for %[[K2:.*]] = %c0 to %c512 step %c256
// CHECK: %[[FIRST2:.*]] = arith.cmpi eq, %[[K2]], %c0
// CHECK: scf.if %[[FIRST2]] {
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<1024x16xf32, {{.*}}>)
// CHECK: linalg.matmul
// VECTOR-LABEL: func.func @bf16_filled
// VECTOR-NOT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<8x32xf32
// VECTOR: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// VECTOR: %[[PREFIX:.*]]:16 = scf.for %{{.*}} = %c0{{.*}} to %c16{{.*}} step %c1{{.*}} iter_args(%{{.*}} = %[[ZERO]],
// VECTOR: memref.prefetch %{{.*}}, write, locality<3>, data : memref<8x32xf32
// VECTOR: %[[SUMS:.*]]:16 = scf.for %{{.*}} = %c16{{.*}} to %c128{{.*}} step %c1{{.*}} iter_args(%{{.*}} = %[[PREFIX]]#0,
// VECTOR-NOT: memref.prefetch
// VECTOR: scf.if %{{.*}} {
// VECTOR-NEXT: %[[FILLED:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
// VECTOR: %[[FIRST_SUM:.*]] = arith.addf %[[FILLED]], %[[SUMS]]#0 : vector<16xf32>
// VECTOR-NEXT: vector.store %[[FIRST_SUM]]
// VECTOR: } else {
// VECTOR: %[[BEFORE:.*]] = vector.load %{{.*}} : memref<8x32xf32, {{.*}}>, vector<16xf32>
// VECTOR-NEXT: %[[LATER_SUM:.*]] = arith.addf %[[BEFORE]], %[[SUMS]]#0 : vector<16xf32>
// VECTOR-NEXT: vector.store %[[LATER_SUM]]
func.func @bf16_filled(%a: memref<1024x512xbf16>, %b: memref<512x1040xbf16>, %c: memref<1024x1040xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1024x1040xf32>)
  linalg.matmul ins(%a, %b : memref<1024x512xbf16>, memref<512x1040xbf16>) outs(%c : memref<1024x1040xf32>)
  return
}
