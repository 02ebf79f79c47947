// The blocks of a decode-shaped product follow the target CPU's L1 data cache
// (L1DataCacheBytes): for znver4 (32 KiB) 8 rows of x take pieces of 512 k read from a
// copy whose rows are spread over L1's sets; for znver5 (48 KiB) pieces of 1024 k of x in
// place. Nothing is executed (matmul_transpose_b.mlir runs the spread copy on this host).
// RUN: kiln-compile %s -o %t.zen4.kiln --target-cpu=znver4 --dump-ir-after=all 2>&1 | FileCheck %s --check-prefix=ZEN4
// RUN: kiln-compile %s -o %t.zen5.kiln --target-cpu=znver5 --dump-ir-after=all 2>&1 | FileCheck %s --check-prefix=ZEN5
// ZEN4-LABEL: IR Dump After TileContractions
// ZEN4: memref.alloc() {alignment = 64 : i64} : memref<8x2176xf32>
// ZEN4: scf.for %{{.*}} = %c0{{.*}} to %c2000 step %c512
// ZEN4-LABEL: IR Dump After
// ZEN5-LABEL: IR Dump After TileContractions
// ZEN5-NOT: memref<8x2176xf32>
// ZEN5: scf.for %{{.*}} = %c0{{.*}} to %c2000 step %c1024
// ZEN5-NOT: memref<8x2176xf32>
// ZEN5-LABEL: IR Dump After

func.func @decode(%x: tensor<8x2000xf32>, %w: tensor<64x2000xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<8x2000xf32>, tensor<64x2000xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
