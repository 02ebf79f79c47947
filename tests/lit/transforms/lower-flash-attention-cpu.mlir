// RUN: kiln-opt %s -kiln-cpu-lower-flash-attention | FileCheck %s

// Per batch position, blocks of 64 query rows, within them full blocks of 128 keys and
// then the last partial one; the state and one [64, 128] block of scores on the stack,
// never a [queries, keys] buffer. Q K^T reads K as [keys, k1], P V reads V as [keys, n].
// CHECK-LABEL: func.func @plain
// CHECK-DAG: memref.alloca() {alignment = 64 : i64} : memref<64x16xf32>
// CHECK-DAG: memref.alloca() {alignment = 64 : i64} : memref<64x128xf32>
// CHECK-DAG: memref.alloca() {alignment = 64 : i64} : memref<64x8xf32>
// CHECK-NOT: memref<{{.*}}1000x1000
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c64
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c128
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: memref<?x16xf32, strided<[16, 1]>>, memref<128x16xf32, strided<[16, 1], offset: ?>>
// CHECK: math.exp
// CHECK: scf.if
// CHECK-NOT: iree_linalg_ext.attention
func.func @plain(%q: memref<2x1000x16xf32>, %k: memref<2x1000x16xf32>, %v: memref<2x1000x8xf32>, %o: memref<2x1000x8xf32>) {
  %scale = arith.constant 0.25 : f32
  iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                              affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                              affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                              affine_map<(b, m, k1, k2, n) -> ()>,
                                              affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale : memref<2x1000x16xf32>, memref<2x1000x16xf32>, memref<2x1000x8xf32>, f32)
      outs(%o : memref<2x1000x8xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  }
  return
}

// Dynamic head sizes: the state on the heap, freed after the op.
// CHECK-LABEL: func.func @dynamic
// CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<64x?xf32>
// CHECK: memref.dealloc
// CHECK-NOT: iree_linalg_ext.attention
func.func @dynamic(%q: memref<?x?xf32>, %k: memref<?x?xf32>, %v: memref<?x?xf32>, %o: memref<?x?xf32>) {
  %scale = arith.constant 0.25 : f32
  iree_linalg_ext.attention {indexing_maps = [affine_map<(m, k1, k2, n) -> (m, k1)>,
                                              affine_map<(m, k1, k2, n) -> (k2, k1)>,
                                              affine_map<(m, k1, k2, n) -> (k2, n)>,
                                              affine_map<(m, k1, k2, n) -> ()>,
                                              affine_map<(m, k1, k2, n) -> (m, n)>]}
      ins(%q, %k, %v, %scale : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, f32)
      outs(%o : memref<?x?xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  }
  return
}

// bf16 operands: Q widened as it is scaled, each block of K and V widened into f32 scratch
// ([128, 16] and [128, 8] on the stack) that the products read, the output rounded once.
// CHECK-LABEL: func.func @narrow
// CHECK-DAG: %[[WK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<128x16xf32>
// CHECK-DAG: %[[WV:.*]] = memref.alloca() {alignment = 64 : i64} : memref<128x8xf32>
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<128x16xbf16, {{.*}}>) outs(%{{.*}} : memref<128x16xf32, {{.*}}>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : memref<128x8xbf16, {{.*}}>) outs(%{{.*}} : memref<128x8xf32, {{.*}}>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} memref<128x16xf32, strided<[16, 1]>>
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT: iree_linalg_ext.attention
func.func @narrow(%q: memref<2x300x16xbf16>, %k: memref<2x300x16xbf16>, %v: memref<2x300x8xbf16>, %o: memref<2x300x8xbf16>) {
  %scale = arith.constant 0.25 : bf16
  iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                              affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                              affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                              affine_map<(b, m, k1, k2, n) -> ()>,
                                              affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale : memref<2x300x16xbf16>, memref<2x300x16xbf16>, memref<2x300x8xbf16>, bf16)
      outs(%o : memref<2x300x8xbf16>) {
  ^bb0(%s: bf16):
    iree_linalg_ext.yield %s : bf16
  }
  return
}
