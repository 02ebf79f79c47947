// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions -canonicalize | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kiln-cpu-tile-contractions=vector-bits=256 -canonicalize | FileCheck %s --check-prefix=AVX2

// Cache blocks of 64 x 256 x 256 (iterated n, k, m), register tiles of 8 x 32 (AVX-512)
// or 6 x 16 (AVX2) with k = 1, the m and n loops peeled. With M = 20 and N = 40, the
// main tiles and the column remainder (8) become static after canonicalisation; the row
// remainder (4 rows, or 2) keeps a dynamic column count. All are marked.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.for %{{.*}} = %c0 to %c300 step %c256
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK: scf.for %{{.*}} step %c1
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<8x1xf32, {{.*}}>, memref<1x32xf32, {{.*}}>) outs(%{{.*}} : memref<8x32xf32, {{.*}}>)
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<8x1xf32, {{.*}}>, memref<1x8xf32, {{.*}}>) outs(%{{.*}} : memref<8x8xf32, {{.*}}>)
// CHECK: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<4x1xf32, {{.*}}>, memref<1x?xf32, {{.*}}>) outs(%{{.*}} : memref<4x?xf32, {{.*}}>)
// AVX2-LABEL: func.func @matmul
// AVX2: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<6x1xf32, {{.*}}>, memref<1x16xf32, {{.*}}>) outs(%{{.*}} : memref<6x16xf32, {{.*}}>)
// AVX2: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<6x1xf32, {{.*}}>, memref<1x8xf32, {{.*}}>) outs(%{{.*}} : memref<6x8xf32, {{.*}}>)
// AVX2: linalg.matmul {kiln.register_tile} ins(%{{.*}}, %{{.*}} : memref<2x1xf32, {{.*}}>, memref<1x?xf32, {{.*}}>) outs(%{{.*}} : memref<2x?xf32, {{.*}}>)
func.func @matmul(%a: memref<20x300xf32>, %b: memref<300x40xf32>, %c: memref<20x40xf32>) {
  linalg.matmul ins(%a, %b : memref<20x300xf32>, memref<300x40xf32>) outs(%c : memref<20x40xf32>)
  return
}

// -----

// Not tiled: the right-hand operand's innermost dimension is k, not n (its rows would not
// be vector loads), and integer contractions.
// CHECK-LABEL: func.func @not_tiled
// CHECK-NOT: scf.for
// CHECK: linalg.matmul indexing_maps
// CHECK-NOT: kiln.register_tile
// CHECK: linalg.matmul ins
// CHECK-NOT: kiln.register_tile
func.func @not_tiled(%a: memref<16x64xf32>, %bt: memref<32x64xf32>, %c: memref<16x32xf32>,
                     %ai: memref<16x64xi32>, %bi: memref<64x32xi32>, %ci: memref<16x32xi32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : memref<16x64xf32>, memref<32x64xf32>) outs(%c : memref<16x32xf32>)
  linalg.matmul ins(%ai, %bi : memref<16x64xi32>, memref<64x32xi32>) outs(%ci : memref<16x32xi32>)
  return
}
