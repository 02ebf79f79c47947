// RUN: kiln-opt %s -split-input-file -kiln-cpu-vectorize-dequantizing-products="vector-bits=512" | FileCheck %s

// An int4 product after distribution along n: 2 rows of x (as [2, 32, 2]: k = 2 kb + t),
// the packed weights [n, 32] bytes and scales per group of 32 k (16 bytes). Register tiles
// of 2 rows x 4 columns, then the last columns one at a time; each step loads 16 bytes of
// every column and evaluates the body's dequantization without the scale on vectors (the
// nibble at t = 0 and t = 1), then takes each row of x's even and odd elements by shuffles
// and accumulates by FMAs; each group's sums are then multiplied by its scale once.
// CHECK-LABEL: func.func @int4_product
// CHECK: %[[X:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : memref<2x32x2xf32> into memref<2x64xf32>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %{{.*}} step %c4{{.*}} {
// CHECK: scf.for %[[G0:.*]] = %c0{{.*}} to %c32 step %c16 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: scf.for %{{.*}} = %[[G0]] to %{{.*}} step %c16{{.*}} iter_args
// CHECK: %[[BYTES:.*]] = vector.load %{{.*}} : memref<?x32xi8, strided<[32, 1], offset: ?>>, vector<16xi8>
// CHECK-NOT: memref.load
// CHECK: %[[WIDE:.*]] = arith.extui %[[BYTES]] : vector<16xi8> to vector<16xi32>
// CHECK: %[[NIBBLES:.*]] = arith.shrui %[[WIDE]], %{{.*}} : vector<16xi32>
// CHECK: %[[TABLE:.*]] = arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, -8.000000e+00, -7.000000e+00, -6.000000e+00, -5.000000e+00, -4.000000e+00, -3.000000e+00, -2.000000e+00, -1.000000e+00]> : vector<16xf32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[TABLE]], %[[NIBBLES]])
// CHECK-NOT: arith.trunci
// CHECK-NOT: arith.sitofp
// CHECK-NOT: arith.mulf
// CHECK: %[[ROW:.*]] = vector.load %[[X]][%c0{{.*}}, %{{.*}}] : memref<2x64xf32>, vector<32xf32>
// CHECK: vector.shuffle %[[ROW]], %[[ROW]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK: vector.fma
// CHECK: vector.shuffle %[[ROW]], %[[ROW]] [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK: vector.fma
// CHECK: scf.yield
// CHECK: %[[SCALE:.*]] = memref.load %{{.*}} : memref<?x2xf32, strided<[2, 1], offset: ?>>
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[SCALE]] : f32 to vector<16xf32>
// CHECK: vector.fma %{{.*}}, %[[SPLAT]]
// CHECK: vector.reduction <add>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1{{.*}} {
// CHECK-NOT: linalg.generic
func.func @int4_product(%x: memref<2x64xf32>, %w: memref<?x32xi8, strided<[32, 1], offset: ?>>, %s: memref<?x2xf32, strided<[2, 1], offset: ?>>, %out: memref<2x?xf32, strided<[4096, 1], offset: ?>>) {
  %c4 = arith.constant 4 : index
  %xe = memref.expand_shape %x [[0], [1, 2]] output_shape [2, 32, 2] : memref<2x64xf32> into memref<2x32x2xf32>
  linalg.generic {indexing_maps = [affine_map<(m, n, kb, t) -> (m, kb, t)>, affine_map<(m, n, kb, t) -> (n, kb)>, affine_map<(m, n, kb, t) -> (n, kb floordiv 16)>, affine_map<(m, n, kb, t) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%xe, %w, %s : memref<2x32x2xf32>, memref<?x32xi8, strided<[32, 1], offset: ?>>, memref<?x2xf32, strided<[2, 1], offset: ?>>) outs(%out : memref<2x?xf32, strided<[4096, 1], offset: ?>>) {
  ^bb0(%in: f32, %byte: i8, %scale: f32, %acc: f32):
    %t = linalg.index 3 : index
    %bits = arith.muli %t, %c4 : index
    %shift = arith.index_cast %bits : index to i8
    %shifted = arith.shrui %byte, %shift : i8
    %q = arith.trunci %shifted : i8 to i4
    %i = arith.extsi %q : i4 to i32
    %f = arith.sitofp %i : i32 to f32
    %w8 = arith.mulf %f, %scale : f32
    %p = arith.mulf %in, %w8 : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// i8 weights (loops m, n, k): one byte per element, no shuffles; the row scale multiplies
// the sums of the whole depth once.
// CHECK-LABEL: func.func @int8_product
// CHECK: scf.for
// CHECK: vector.load %{{.*}} : memref<?x64xi8>, vector<16xi8>
// CHECK: arith.sitofp %{{.*}} : vector<16xi8> to vector<16xf32>
// CHECK: vector.load %{{.*}} : memref<1x64xf32>, vector<16xf32>
// CHECK-NOT: vector.shuffle
// CHECK: vector.fma
// CHECK: %[[SCALE:.*]] = memref.load %{{.*}} : memref<?xf32>
// CHECK: vector.broadcast %[[SCALE]]
func.func @int8_product(%x: memref<1x64xf32>, %w: memref<?x64xi8>, %s: memref<?xf32>, %out: memref<1x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w, %s : memref<1x64xf32>, memref<?x64xi8>, memref<?xf32>) outs(%out : memref<1x?xf32>) {
  ^bb0(%in: f32, %q: i8, %scale: f32, %acc: f32):
    %f = arith.sitofp %q : i8 to f32
    %w8 = arith.mulf %f, %scale : f32
    %p = arith.mulf %w8, %in : f32
    %sum = arith.addf %p, %acc : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// Not taken: a dynamic number of rows, a depth that is no multiple of the vector, and a
// group shorter than a vector.
// CHECK-LABEL: func.func @not_taken
// CHECK-COUNT-3: linalg.generic
func.func @not_taken(%x: memref<?x64xf32>, %x2: memref<1x40xf32>, %w: memref<?x64xi8>, %w2: memref<?x40xi8>, %s: memref<?xf32>, %s8: memref<?x8xf32>, %out: memref<?x?xf32>, %out2: memref<1x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w, %s : memref<?x64xf32>, memref<?x64xi8>, memref<?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%in: f32, %q: i8, %scale: f32, %acc: f32):
    %f = arith.sitofp %q : i8 to f32
    %w8 = arith.mulf %f, %scale : f32
    %p = arith.mulf %in, %w8 : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x2, %w2, %s : memref<1x40xf32>, memref<?x40xi8>, memref<?xf32>) outs(%out2 : memref<1x?xf32>) {
  ^bb0(%in: f32, %q: i8, %scale: f32, %acc: f32):
    %f = arith.sitofp %q : i8 to f32
    %w8 = arith.mulf %f, %scale : f32
    %p = arith.mulf %in, %w8 : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  }
  %x1 = memref.subview %x[0, 0] [1, 64] [1, 1] : memref<?x64xf32> to memref<1x64xf32, strided<[64, 1]>>
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n, k floordiv 8)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x1, %w, %s8 : memref<1x64xf32, strided<[64, 1]>>, memref<?x64xi8>, memref<?x8xf32>) outs(%out2 : memref<1x?xf32>) {
  ^bb0(%in: f32, %q: i8, %scale: f32, %acc: f32):
    %f = arith.sitofp %q : i8 to f32
    %w8 = arith.mulf %f, %scale : f32
    %p = arith.mulf %in, %w8 : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// GGUF Q4_0 blocks as kiln-fuse-dequantization and the packed binding leave them: loops
// (m, n, b, hb, j, h) with hb the one byte of each pair of nibbles (a loop of one
// iteration, dropped first), the bytes w[n, b, j, hb] (16 a block, 18 bytes apart), x as
// [1, blocks, 1, 2, 16] (element h of byte j is x's 16 h + j of the block) and an f16
// scale per block. A loop over the blocks, one step of 16 bytes in each: both nibbles
// looked up in a 16-entry table of (nibble - 8) by vpermps (the bytes widened once, the
// high nibble shifted in 32-bit lanes), each times a contiguous vector of x (no
// shuffles); the scale (8 blocks: not a whole chunk of 16 to stage) broadcast as loaded
// and widened once per block and column; and the row two tiles ahead prefetched.
// CHECK-LABEL: func.func @q4_0_blocks
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %{{.*}} step %c4{{.*}} {
// CHECK: scf.for %[[B:.*]] = %c0{{.*}} to %c8{{.*}} step %c1{{.*}} iter_args
// CHECK: %[[BYTES:.*]] = vector.load %{{.*}}[%{{.*}}, %[[B]], %{{.*}}] : memref<?x8x16xi8, strided<[144, 18, 1], offset: ?>>, vector<16xi8>
// CHECK: memref.prefetch %{{.*}}[%{{.*}}, %[[B]], %{{.*}}], read, locality<2>, data
// CHECK: %[[WIDE:.*]] = arith.extui %[[BYTES]] : vector<16xi8> to vector<16xi32>
// CHECK: %[[NIBBLES:.*]] = arith.shrui %[[WIDE]], %{{.*}} : vector<16xi32>
// CHECK: %[[TABLE:.*]] = arith.constant dense<[-8.000000e+00, -7.000000e+00, -6.000000e+00, -5.000000e+00, -4.000000e+00, -3.000000e+00, -2.000000e+00, -1.000000e+00, 0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]> : vector<16xf32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[TABLE]], %[[NIBBLES]])
// CHECK-NOT: arith.subi
// CHECK-NOT: vector.shuffle
// CHECK: vector.load %{{.*}}[%c0{{.*}}, %[[B]], %c0{{.*}}, %{{.*}}] : memref<1x8x2x16xf32{{.*}}>, vector<16xf32>
// CHECK: vector.fma
// CHECK: vector.load %{{.*}}[%c0{{.*}}, %[[B]], %c1{{.*}}, %{{.*}}] : memref<1x8x2x16xf32{{.*}}>, vector<16xf32>
// CHECK: vector.fma
// CHECK: %[[D:.*]] = memref.load %{{.*}}[%{{.*}}, %[[B]]] : memref<?x8xf16, strided<[72, 9], offset: ?>>
// CHECK: %[[DS:.*]] = vector.broadcast %[[D]] : f16 to vector<16xf16>
// CHECK: arith.extf %[[DS]] : vector<16xf16> to vector<16xf32>
// CHECK-NOT: linalg.generic
func.func @q4_0_blocks(%x: memref<1x8x1x2x16xf32>, %w: memref<?x8x16x1xi8, strided<[144, 18, 1, 1], offset: ?>>, %d: memref<?x8xf16, strided<[72, 9], offset: ?>>, %out: memref<1x?xf32, strided<[4096, 1], offset: ?>>) {
  %c4 = arith.constant 4 : index
  %c8_i32 = arith.constant 8 : i32
  linalg.generic {indexing_maps = [affine_map<(m, n, b, hb, j, h) -> (m, b, hb, h, j)>, affine_map<(m, n, b, hb, j, h) -> (n, b, j, hb)>, affine_map<(m, n, b, hb, j, h) -> (n, b)>, affine_map<(m, n, b, hb, j, h) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %w, %d : memref<1x8x1x2x16xf32>, memref<?x8x16x1xi8, strided<[144, 18, 1, 1], offset: ?>>, memref<?x8xf16, strided<[72, 9], offset: ?>>) outs(%out : memref<1x?xf32, strided<[4096, 1], offset: ?>>) {
  ^bb0(%in: f32, %byte: i8, %scale: f16, %acc: f32):
    %h = linalg.index 5 : index
    %bits = arith.muli %h, %c4 : index
    %shift = arith.index_cast %bits : index to i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.trunci %shifted : i8 to i4
    %u = arith.extui %nibble : i4 to i32
    %centered = arith.subi %u, %c8_i32 : i32
    %f = arith.sitofp %centered : i32 to f32
    %s = arith.extf %scale : f16 to f32
    %v = arith.mulf %f, %s : f32
    %p = arith.mulf %in, %v : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// Q4_0 with 32 blocks: the scales are staged per chunk of 16 blocks and column: copied
// as i16 by volatile scalar stores into a stack buffer (two slots, allocated at the
// function's entry) one chunk ahead, then widened there as one vector and stored as f32;
// each block's scale is then one load (a broadcast operand of the FMA) instead of a
// broadcast and a widening.
// CHECK-LABEL: func.func @q4_0_staged_scales
// CHECK: %[[RAW:.*]] = memref.alloca() : memref<2x4x16xf16>
// CHECK: %[[STAGED:.*]] = memref.alloca() : memref<4x16xf32>
// The first chunk's copy, before the chunks.
// CHECK: %[[D0:.*]] = memref.load %{{.*}} : memref<?x32xf16, strided<[288, 9], offset: ?>>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[D0]] : f16 to i16
// CHECK: llvm.store volatile %[[BITS]]
// CHECK: scf.for %[[CHUNK:.*]] = %c0{{.*}} to %c32{{.*}} step %c16{{.*}} iter_args
// CHECK: %[[SLOT:.*]] = arith.remui %{{.*}}, %c2{{.*}} : index
// CHECK: %[[RAWV:.*]] = vector.load %[[RAW]][%[[SLOT]], %c0{{.*}}, %c0{{.*}}] : memref<2x4x16xf16>, vector<16xf16>
// CHECK: %[[WIDE:.*]] = arith.extf %[[RAWV]] : vector<16xf16> to vector<16xf32>
// CHECK: vector.store %[[WIDE]], %[[STAGED]][%c0{{.*}}, %c0{{.*}}] : memref<4x16xf32>, vector<16xf32>
// The next chunk's copy (the last chunk's again at the end), into the other slot.
// CHECK: %[[NEXT:.*]] = arith.minui %{{.*}}, %c16{{.*}} : index
// CHECK: llvm.store volatile
// CHECK: scf.for %[[B:.*]] = %[[CHUNK]] to %{{.*}} step %c1{{.*}} iter_args
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"
// CHECK: %[[AT:.*]] = arith.subi %[[B]], %[[CHUNK]] : index
// CHECK: %[[S:.*]] = memref.load %[[STAGED]][%c0{{.*}}, %[[AT]]] : memref<4x16xf32>
// CHECK: vector.broadcast %[[S]] : f32 to vector<16xf32>
// CHECK-NOT: arith.extf
// CHECK: scf.yield
func.func @q4_0_staged_scales(%x: memref<1x32x1x2x16xf32>, %w: memref<?x32x16x1xi8, strided<[576, 18, 1, 1], offset: ?>>, %d: memref<?x32xf16, strided<[288, 9], offset: ?>>, %out: memref<1x?xf32, strided<[4096, 1], offset: ?>>) {
  %c4 = arith.constant 4 : index
  %c8_i32 = arith.constant 8 : i32
  linalg.generic {indexing_maps = [affine_map<(m, n, b, hb, j, h) -> (m, b, hb, h, j)>, affine_map<(m, n, b, hb, j, h) -> (n, b, j, hb)>, affine_map<(m, n, b, hb, j, h) -> (n, b)>, affine_map<(m, n, b, hb, j, h) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %w, %d : memref<1x32x1x2x16xf32>, memref<?x32x16x1xi8, strided<[576, 18, 1, 1], offset: ?>>, memref<?x32xf16, strided<[288, 9], offset: ?>>) outs(%out : memref<1x?xf32, strided<[4096, 1], offset: ?>>) {
  ^bb0(%in: f32, %byte: i8, %scale: f16, %acc: f32):
    %h = linalg.index 5 : index
    %bits = arith.muli %h, %c4 : index
    %shift = arith.index_cast %bits : index to i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.trunci %shifted : i8 to i4
    %u = arith.extui %nibble : i4 to i32
    %centered = arith.subi %u, %c8_i32 : i32
    %f = arith.sitofp %centered : i32 to f32
    %s = arith.extf %scale : f16 to f32
    %v = arith.mulf %f, %s : f32
    %p = arith.mulf %in, %v : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  }
  return
}
