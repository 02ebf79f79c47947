// RUN: kiln-opt %s -split-input-file -kiln-cpu-distribute-to-workgroups -verify-diagnostics | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kiln-cpu-distribute-to-workgroups=stride-tile=1 | FileCheck %s --check-prefix=STRIDE

// The root's first parallel loop is split into one block per workgroup, with the fill fused.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: %[[ID:[a-z0-9]+]]: index, %[[COUNT:[a-z0-9]+]]: index) attributes {kiln.binding_dims
// CHECK-SAME: kiln.distributed
// CHECK: %[[CHUNK0:.*]] = arith.ceildivui %{{.*}}, %[[COUNT]]
// CHECK: %[[CHUNK:.*]] = arith.maxui %[[CHUNK0]]
// CHECK: %[[LB:.*]] = arith.muli %[[ID]], %[[CHUNK]]
// CHECK: %[[END:.*]] = arith.addi %[[LB]], %[[CHUNK]]
// CHECK: %[[UB:.*]] = arith.minui %{{.*}}, %[[END]]
// CHECK: scf.for %{{.*}} = %[[LB]] to %[[UB]] step %[[CHUNK]]
// CHECK: linalg.fill
// CHECK: linalg.matmul {kiln.root}
module @kiln_executable attributes {kiln.executable} {
  func.func @matmul(%a: memref<?x8xf32>, %b: memref<8x16xf32>, %out: memref<?x16xf32>, %n: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: 0, -1>, array<i64: -1, -1>, array<i64: 0, -1>], kiln.input_count = 2 : i64} {
    %ta = bufferization.to_tensor %a restrict : memref<?x8xf32> to tensor<?x8xf32>
    %tb = bufferization.to_tensor %b restrict : memref<8x16xf32> to tensor<8x16xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty(%n) : tensor<?x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
    %m = linalg.matmul {kiln.root} ins(%ta, %tb : tensor<?x8xf32>, tensor<8x16xf32>) outs(%f : tensor<?x16xf32>) -> tensor<?x16xf32>
    bufferization.materialize_in_destination %m in restrict writable %out : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
    return
  }
}

// -----

// A full reduction has no parallel loop: it stays one workgroup, and a remark says why.
// CHECK-LABEL: func.func @sum
// CHECK-NOT: kiln.distributed
// CHECK-NOT: scf.for
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'sum' runs as one workgroup: its root has no parallel loop}}
  func.func @sum(%a: memref<8xf32>, %out: memref<f32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>, array<i64>], kiln.input_count = 1 : i64} {
    %ta = bufferization.to_tensor %a restrict : memref<8xf32> to tensor<8xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<f32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%ta : tensor<8xf32>) outs(%f : tensor<f32>) attrs = {kiln.root} {
    ^bb0(%x: f32, %acc: f32):
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    bufferization.materialize_in_destination %r in restrict writable %out : (tensor<f32>, memref<f32>) -> ()
    return
  }
}

// -----

// A root with fused producers (row fusion) is tiled again inside the workgroup's block,
// 16 KiB of root rows at a time (4 rows of 1024 f32), so that the producers' intermediate
// rows stay in the L1 cache; the reduction is fused into both loops.
// CHECK-LABEL: func.func @rows
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4 iter_args
// CHECK: linalg.fill {{.*}} -> tensor<?xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: } -> tensor<?xf32>
// CHECK: linalg.generic {{.*}} attrs = {kiln.root}
// CHECK: } -> tensor<?x1024xf32>
#row = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>
module @kiln_executable attributes {kiln.executable} {
  func.func @rows(%x: memref<64x1024xf32>, %out: memref<64x1024xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 1 : i64} {
    %t = bufferization.to_tensor %x restrict : memref<64x1024xf32> to tensor<64x1024xf32>
    %ninf = arith.constant 0xFF800000 : f32
    %e1 = tensor.empty() : tensor<64xf32>
    %e2 = tensor.empty() : tensor<64x1024xf32>
    %minit = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    %max = linalg.generic {indexing_maps = [#row, #col], iterator_types = ["parallel", "reduction"]}
        ins(%t : tensor<64x1024xf32>) outs(%minit : tensor<64xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %m = arith.maxnumf %in, %acc : f32
      linalg.yield %m : f32
    } -> tensor<64xf32>
    %sub = linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]}
        ins(%t, %max : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) attrs = {kiln.root} {
    ^bb0(%in: f32, %m: f32, %o: f32):
      %d = arith.subf %in, %m : f32
      linalg.yield %d : f32
    } -> tensor<64x1024xf32>
    bufferization.materialize_in_destination %sub in restrict writable %out : (tensor<64x1024xf32>, memref<64x1024xf32>) -> ()
    return
  }
}

// -----

// With a stride tile (GPU work-items), worker id takes rows id, id + count, ...: one row at
// a time, so the fused fill's temporary is one static row.
// STRIDE-LABEL: func.func @stride_rows
// STRIDE-SAME: %[[ID:[a-z0-9]+]]: index, %[[COUNT:[a-z0-9]+]]: index) attributes {kiln.binding_dims
// STRIDE-SAME: kiln.distributed
// STRIDE: scf.for %{{.*}} = %[[ID]] to %{{.*}} step %[[COUNT]]
// STRIDE: linalg.fill {{.*}} -> tensor<1x16xf32>
// STRIDE: linalg.matmul {kiln.root}
module @kiln_executable attributes {kiln.executable} {
  func.func @stride_rows(%a: memref<?x8xf32>, %b: memref<8x16xf32>, %out: memref<?x16xf32>, %n: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: 0, -1>, array<i64: -1, -1>, array<i64: 0, -1>], kiln.input_count = 2 : i64} {
    %ta = bufferization.to_tensor %a restrict : memref<?x8xf32> to tensor<?x8xf32>
    %tb = bufferization.to_tensor %b restrict : memref<8x16xf32> to tensor<8x16xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty(%n) : tensor<?x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
    %m = linalg.matmul {kiln.root} ins(%ta, %tb : tensor<?x8xf32>, tensor<8x16xf32>) outs(%f : tensor<?x16xf32>) -> tensor<?x16xf32>
    bufferization.materialize_in_destination %m in restrict writable %out : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
    return
  }
}

// -----

// A decode-shaped product, [4, K] x [K, 128]: the 4 rows would give every workgroup all of
// the right-hand operand to read, so the split is along the 128 columns, the first
// parallel loop with at least 64 iterations.
// CHECK-LABEL: func.func @few_rows
// CHECK-SAME: kiln.distributed
// CHECK: %[[CHUNK0:.*]] = arith.ceildivui %c128, %{{.*}}
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK: tensor.extract_slice %{{.*}}[0, %[[J]]] [16, %{{.*}}] [1, 1] : tensor<16x128xf32> to tensor<16x?xf32>
// CHECK: linalg.matmul {kiln.root} {{.*}} -> tensor<4x?xf32>
module @kiln_executable attributes {kiln.executable} {
  func.func @few_rows(%a: memref<4x16xf32>, %b: memref<16x128xf32>, %out: memref<4x128xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64} {
    %ta = bufferization.to_tensor %a restrict : memref<4x16xf32> to tensor<4x16xf32>
    %tb = bufferization.to_tensor %b restrict : memref<16x128xf32> to tensor<16x128xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128xf32>) -> tensor<4x128xf32>
    %m = linalg.matmul {kiln.root} ins(%ta, %tb : tensor<4x16xf32>, tensor<16x128xf32>) outs(%f : tensor<4x128xf32>) -> tensor<4x128xf32>
    bufferization.materialize_in_destination %m in restrict writable %out : (tensor<4x128xf32>, memref<4x128xf32>) -> ()
    return
  }
}

// -----

// A linear layer with fewer rows (128, a prefill) than columns (256) splits along the
// columns: each workgroup packs only its part of W, and reuses it for all 128 rows.
// CHECK-LABEL: func.func @wide_linear
// CHECK-SAME: kiln.distributed
// CHECK: %[[CHUNK0:.*]] = arith.ceildivui %c256, %{{.*}}
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK: tensor.extract_slice %{{.*}}[%[[N]], 0] [%{{.*}}, 64] [1, 1] : tensor<256x64xf32> to tensor<?x64xf32>
// CHECK: linalg.matmul {{.*}} {kiln.root} {{.*}} -> tensor<128x?xf32>
// The GPU's grid-stride blocks keep splitting the rows.
// STRIDE-LABEL: func.func @wide_linear
// STRIDE: scf.for %[[ROW:.*]] = %{{.*}} to %c128 step %{{.*}}
// STRIDE: tensor.extract_slice %{{.*}}[%[[ROW]], 0] [1, 64] [1, 1] : tensor<128x64xf32> to tensor<1x64xf32>
module @kiln_executable attributes {kiln.executable} {
  func.func @wide_linear(%x: memref<128x64xf32>, %w: memref<256x64xf32>, %out: memref<128x256xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64} {
    %tx = bufferization.to_tensor %x restrict : memref<128x64xf32> to tensor<128x64xf32>
    %tw = bufferization.to_tensor %w restrict : memref<256x64xf32> to tensor<256x64xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {kiln.root}
        ins(%tx, %tw : tensor<128x64xf32>, tensor<256x64xf32>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    bufferization.materialize_in_destination %m in restrict writable %out : (tensor<128x256xf32>, memref<128x256xf32>) -> ()
    return
  }
}

// -----

// An insert_slice root (a cache updated at one position, written to a new buffer) splits
// along its first dimension that the slice spans whole: each workgroup copies its heads
// of the destination into the result and inserts its heads of the source there.
// CHECK-LABEL: func.func @cache_update
// CHECK-SAME: kiln.distributed
// CHECK: %[[CHUNK0:.*]] = arith.ceildivui %c16, %{{.*}}
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<16x64x8xf32>
// CHECK: scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OUT:.*]] = %[[EMPTY]])
// CHECK: %[[SIZE:.*]] = arith.minui
// CHECK: %[[DEST:.*]] = tensor.extract_slice %{{.*}}[%[[H]], 0, 0] [%[[SIZE]], 64, 8] [1, 1, 1]
// CHECK: %[[BLOCK:.*]] = tensor.extract_slice %[[OUT]][%[[H]], 0, 0] [%[[SIZE]], 64, 8] [1, 1, 1]
// CHECK: %[[COPY:.*]] = linalg.copy ins(%[[DEST]] : tensor<?x64x8xf32>) outs(%[[BLOCK]] : tensor<?x64x8xf32>)
// CHECK: %[[NEW:.*]] = tensor.extract_slice %{{.*}}[%[[H]], 0, 0] [%[[SIZE]], 1, 8] [1, 1, 1]
// CHECK: %[[INS:.*]] = tensor.insert_slice %[[NEW]] into %[[COPY]][0, %{{.*}}, 0] [%[[SIZE]], 1, 8] [1, 1, 1]
// CHECK: tensor.insert_slice %[[INS]] into %[[OUT]][%[[H]], 0, 0] [%[[SIZE]], 64, 8] [1, 1, 1]
// On the GPU's grid-stride path it stays one workgroup.
// STRIDE-LABEL: func.func @cache_update
// STRIDE-NOT: kiln.distributed
// STRIDE: tensor.insert_slice %{{.*}} into %{{.*}}[0, %{{.*}}, 0] [16, 1, 8] [1, 1, 1] {kiln.root}
module @kiln_executable attributes {kiln.executable} {
  func.func @cache_update(%new: memref<16x1x8xf32>, %cache: memref<16x64x8xf32>, %out: memref<16x64x8xf32>, %pos: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1, -1>, array<i64: -1, -1, -1>, array<i64: -1, -1, -1>], kiln.input_count = 2 : i64} {
    %tn = bufferization.to_tensor %new restrict : memref<16x1x8xf32> to tensor<16x1x8xf32>
    %tc = bufferization.to_tensor %cache restrict : memref<16x64x8xf32> to tensor<16x64x8xf32>
    %r = tensor.insert_slice %tn into %tc[0, %pos, 0] [16, 1, 8] [1, 1, 1] {kiln.root} : tensor<16x1x8xf32> into tensor<16x64x8xf32>
    bufferization.materialize_in_destination %r in restrict writable %out : (tensor<16x64x8xf32>, memref<16x64x8xf32>) -> ()
    return
  }
}

// -----

// An insert_slice whose slice spans no whole dimension stays one workgroup.
// CHECK-LABEL: func.func @partial_insert
// CHECK-NOT: kiln.distributed
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'partial_insert' runs as one workgroup: its root 'tensor.insert_slice' cannot be tiled}}
  func.func @partial_insert(%new: memref<2x4xf32>, %cache: memref<16x8xf32>, %out: memref<16x8xf32>, %pos: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64} {
    %tn = bufferization.to_tensor %new restrict : memref<2x4xf32> to tensor<2x4xf32>
    %tc = bufferization.to_tensor %cache restrict : memref<16x8xf32> to tensor<16x8xf32>
    %r = tensor.insert_slice %tn into %tc[%pos, 2] [2, 4] [1, 1] {kiln.root} : tensor<2x4xf32> into tensor<16x8xf32>
    bufferization.materialize_in_destination %r in restrict writable %out : (tensor<16x8xf32>, memref<16x8xf32>) -> ()
    return
  }
}

// -----

// A root with an empty loop (static extent 0) has nothing to share: one workgroup.
// CHECK-LABEL: func.func @empty_rows
// CHECK-NOT: kiln.distributed
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'empty_rows' runs as one workgroup: its iteration space is empty}}
  func.func @empty_rows(%a: memref<0x8xf32>, %b: memref<8x16xf32>, %out: memref<0x16xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64} {
    %ta = bufferization.to_tensor %a restrict : memref<0x8xf32> to tensor<0x8xf32>
    %tb = bufferization.to_tensor %b restrict : memref<8x16xf32> to tensor<8x16xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<0x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<0x16xf32>) -> tensor<0x16xf32>
    %m = linalg.matmul {kiln.root} ins(%ta, %tb : tensor<0x8xf32>, tensor<8x16xf32>) outs(%f : tensor<0x16xf32>) -> tensor<0x16xf32>
    bufferization.materialize_in_destination %m in restrict writable %out : (tensor<0x16xf32>, memref<0x16xf32>) -> ()
    return
  }
}

// -----

// A batch_matmul of 16 matrices splits along the batch (at least 8 iterations), not along
// the rows: each workgroup multiplies whole matrices, packing each right-hand one once.
// CHECK-LABEL: func.func @batch
// CHECK-SAME: kiln.distributed
// CHECK: %[[CHUNK0:.*]] = arith.ceildivui %c16, %{{.*}}
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK: tensor.extract_slice %{{.*}}[%[[B]], 0, 0] [%{{.*}}, 64, 32] [1, 1, 1] : tensor<16x64x32xf32> to tensor<?x64x32xf32>
// CHECK: linalg.batch_matmul {kiln.root} {{.*}} -> tensor<?x64x48xf32>
module @kiln_executable attributes {kiln.executable} {
  func.func @batch(%a: memref<16x64x32xf32>, %b: memref<16x32x48xf32>, %out: memref<16x64x48xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1, -1>, array<i64: -1, -1, -1>, array<i64: -1, -1, -1>], kiln.input_count = 2 : i64} {
    %ta = bufferization.to_tensor %a restrict : memref<16x64x32xf32> to tensor<16x64x32xf32>
    %tb = bufferization.to_tensor %b restrict : memref<16x32x48xf32> to tensor<16x32x48xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x64x48xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64x48xf32>) -> tensor<16x64x48xf32>
    %m = linalg.batch_matmul {kiln.root} ins(%ta, %tb : tensor<16x64x32xf32>, tensor<16x32x48xf32>) outs(%f : tensor<16x64x48xf32>) -> tensor<16x64x48xf32>
    bufferization.materialize_in_destination %m in restrict writable %out : (tensor<16x64x48xf32>, memref<16x64x48xf32>) -> ()
    return
  }
}

// -----

// A merge pass of a split sort (kiln-cpu-split-long-sorts) shares its work out itself when
// lowered (SortRunsAndMerges.h): its function is marked distributed, the root left whole.
// CHECK-LABEL: func.func @sort_merge
// CHECK-SAME: kiln.distributed
// CHECK-NOT: scf.for
// CHECK: iree_linalg_ext.sort {kiln.root, kiln.sort_merge = array<i64: 2, 1>} dimension(0) ins(%{{.*}} : tensor<300000xf32>) outs(%{{.*}} : tensor<300000xf32>)
module @kiln_executable attributes {kiln.executable} {
  func.func @sort_merge(%in: memref<300000xf32>, %out: memref<300000xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>, array<i64: -1>], kiln.input_count = 1 : i64} {
    %t = bufferization.to_tensor %in restrict : memref<300000xf32> to tensor<300000xf32>
    %e = tensor.empty() : tensor<300000xf32>
    %m = iree_linalg_ext.sort {kiln.root, kiln.sort_merge = array<i64: 2, 1>} dimension(0) ins(%t : tensor<300000xf32>) outs(%e : tensor<300000xf32>) {
    ^bb0(%a: f32, %b: f32):
      %lt = arith.cmpf olt, %a, %b : f32
      iree_linalg_ext.yield %lt : i1
    } -> tensor<300000xf32>
    bufferization.materialize_in_destination %m in restrict writable %out : (tensor<300000xf32>, memref<300000xf32>) -> ()
    return
  }
}

// -----

// GPU work-items (stride tile): an elementwise root over one static dimension takes one
// 128-bit vector per work-item (4 f32 here; an f16 to f32 conversion also 4: its widest
// element), marked for vectorization, so neighbouring work-items read neighbouring 16
// bytes. An extent that 4 does not divide (1022) takes 255 vectors, then its last 2 elements
// one per work-item in a grid-stride loop of their own, both parts writing the output binding
// in place; with a fused producer (which both parts would compute) one element per work-item.
// STRIDE-LABEL: func.func @stride_vectors
// STRIDE: %[[C4:.*]] = arith.constant 4 : index
// STRIDE: %[[LOW:.*]] = arith.muli %{{.*}}, %[[C4]]
// STRIDE: %[[STEP:.*]] = arith.muli %{{.*}}, %[[C4]]
// STRIDE: scf.for %[[I:.*]] = %[[LOW]] to %c1024 step %[[STEP]]
// STRIDE: linalg.add {kiln.register_tile, kiln.root} {{.*}} -> tensor<4xf32>
// STRIDE: linalg.generic {{.*}} attrs = {kiln.register_tile, kiln.root}
// STRIDE: -> tensor<4xf32>
// STRIDE-LABEL: func.func @stride_odd(
// STRIDE: %[[OUT:.*]] = bufferization.to_tensor %arg2 restrict writable
// STRIDE: tensor.extract_slice %[[OUT]][0] [1020] [1]
// STRIDE: scf.for %{{.*}} = %{{.*}} to %c1020 step
// STRIDE: linalg.add {kiln.register_tile, kiln.root} {{.*}} -> tensor<4xf32>
// STRIDE: scf.for %{{.*}} = %arg3 to %c2 step %arg4
// STRIDE-NOT: kiln.register_tile
// STRIDE: linalg.add ins({{.*}} -> tensor<1xf32>
// STRIDE: materialize_in_destination
// STRIDE-LABEL: func.func @stride_odd_fused(
// STRIDE-NOT: kiln.register_tile
// STRIDE: scf.for %{{.*}} = %arg2 to %c1022 step %arg3
// STRIDE: linalg.exp {{.*}} -> tensor<1xf32>
// STRIDE: linalg.add {kiln.root} {{.*}} -> tensor<1xf32>
// STRIDE-NOT: scf.for
module @kiln_executable attributes {kiln.executable} {
  func.func @stride_vectors(%a: memref<1024xf32>, %b: memref<1024xf32>, %out: memref<1024xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>, array<i64: -1>, array<i64: -1>], kiln.input_count = 2 : i64} {
    %ta = bufferization.to_tensor %a restrict : memref<1024xf32> to tensor<1024xf32>
    %tb = bufferization.to_tensor %b restrict : memref<1024xf32> to tensor<1024xf32>
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.add {kiln.root} ins(%ta, %tb : tensor<1024xf32>, tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1024xf32>, memref<1024xf32>) -> ()
    return
  }
  func.func @stride_widen(%a: memref<1024xf16>, %out: memref<1024xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>, array<i64: -1>], kiln.input_count = 1 : i64} {
    %ta = bufferization.to_tensor %a restrict : memref<1024xf16> to tensor<1024xf16>
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%ta : tensor<1024xf16>) outs(%e : tensor<1024xf32>) attrs = {kiln.root} {
    ^bb0(%in: f16, %o: f32):
      %w = arith.extf %in : f16 to f32
      linalg.yield %w : f32
    } -> tensor<1024xf32>
    bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1024xf32>, memref<1024xf32>) -> ()
    return
  }
  func.func @stride_odd(%a: memref<1022xf32>, %b: memref<1022xf32>, %out: memref<1022xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>, array<i64: -1>, array<i64: -1>], kiln.input_count = 2 : i64} {
    %ta = bufferization.to_tensor %a restrict : memref<1022xf32> to tensor<1022xf32>
    %tb = bufferization.to_tensor %b restrict : memref<1022xf32> to tensor<1022xf32>
    %e = tensor.empty() : tensor<1022xf32>
    %r = linalg.add {kiln.root} ins(%ta, %tb : tensor<1022xf32>, tensor<1022xf32>) outs(%e : tensor<1022xf32>) -> tensor<1022xf32>
    bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1022xf32>, memref<1022xf32>) -> ()
    return
  }
  func.func @stride_odd_fused(%a: memref<1022xf32>, %out: memref<1022xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>, array<i64: -1>], kiln.input_count = 1 : i64} {
    %ta = bufferization.to_tensor %a restrict : memref<1022xf32> to tensor<1022xf32>
    %e0 = tensor.empty() : tensor<1022xf32>
    %x = linalg.exp ins(%ta : tensor<1022xf32>) outs(%e0 : tensor<1022xf32>) -> tensor<1022xf32>
    %e = tensor.empty() : tensor<1022xf32>
    %r = linalg.add {kiln.root} ins(%x, %ta : tensor<1022xf32>, tensor<1022xf32>) outs(%e : tensor<1022xf32>) -> tensor<1022xf32>
    bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1022xf32>, memref<1022xf32>) -> ()
    return
  }
}
