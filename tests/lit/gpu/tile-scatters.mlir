// RUN: kiln-opt %s -split-input-file -kiln-gpu-tile-scatters -verify-diagnostics | FileCheck %s

// An add of rows of 8 into a [100, 8] copy of the original: workgroup id owns rows
// [id chunk, min(id chunk + chunk, 100)) with chunk = max(ceil(100 / count), 512 rows of
// 4096 elements), copies them, and after a barrier its work-items take update rows
// t, t + 256, ...: a row whose index fits and falls in the block adds its slice atomically.
// CHECK-LABEL: func.func @add(
// CHECK-SAME: %[[UPD:[a-z0-9]+]]: memref<?x8xf32>, %[[IDX:[a-z0-9]+]]: memref<?x1xi32>, %[[ORIG:[a-z0-9]+]]: memref<100x8xf32>, %[[OUT:[a-z0-9]+]]: memref<100x8xf32>, %{{.*}}: index, %[[ID:[a-z0-9]+]]: index, %[[COUNT:[a-z0-9]+]]: index)
// CHECK-SAME: kiln.distributed, kiln.gpu.workgroup_size = array<i32: 256, 1, 1>, kiln.gpu.workgroup_workers
// CHECK-NOT: memref.copy
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[N:.*]] = memref.dim %[[UPD]], %c0
// CHECK: %[[MIN_ROWS:.*]] = arith.ceildivui %c4096, %{{.*}}
// CHECK: %[[SHARE:.*]] = arith.ceildivui %{{.*}}, %[[COUNT]]
// CHECK: %[[CHUNK:.*]] = arith.maxui %[[SHARE]], %[[MIN_ROWS]]
// CHECK: %[[BLOCKS:.*]] = arith.ceildivui %{{.*}}, %[[CHUNK]]
// CHECK: scf.for %[[BLOCK:.*]] = %[[ID]] to %[[BLOCKS]] step %[[COUNT]]
// CHECK: %[[LOW:.*]] = arith.muli %[[BLOCK]], %[[CHUNK]]
// CHECK: %[[HIGH:.*]] = arith.minui
// CHECK: scf.for %[[E:.*]] = %[[TID]] to %{{.*}} step %c256
// CHECK: %[[V:.*]] = memref.load %[[ORIG]]
// CHECK: memref.store %[[V]], %[[OUT]]
// CHECK: gpu.barrier
// CHECK: scf.for %[[U:.*]] = %[[TID]] to %[[N]] step %c256{{.*}} {
// CHECK: %[[I:.*]] = memref.load %[[IDX]][%[[U]], %c0{{.*}}]
// CHECK: %[[ROW:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK: %[[NONNEG:.*]] = arith.cmpi sge, %[[ROW]]
// CHECK: %[[INSIDE:.*]] = arith.cmpi sle, %[[ROW]]
// CHECK: %[[START:.*]] = arith.maxui %[[ROW]], %[[LOW]]
// CHECK: %[[END:.*]] = arith.minui %{{.*}}, %[[HIGH]]
// CHECK: %[[MEETS:.*]] = arith.cmpi ult, %[[START]], %[[END]]
// CHECK: %[[APPLIES:.*]] = arith.andi %{{.*}}, %[[MEETS]]
// CHECK: scf.if %[[APPLIES]]
// CHECK: scf.for %[[J:.*]] = %c0{{.*}} to %c8
// CHECK: %[[X:.*]] = memref.load %[[UPD]][%[[U]], %[[J]]]
// CHECK: memref.atomic_rmw addf %[[X]], %[[OUT]][%[[ROW]], %{{.*}}]
// CHECK-NOT: gpu.barrier
// CHECK: return
module @kiln_executable attributes {kiln.executable} {
  func.func @add(%upd: memref<?x8xf32>, %idx: memref<?x1xi32>, %orig: memref<100x8xf32>, %out: memref<100x8xf32>, %n: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: 0, -1>, array<i64: 1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 3 : i64, kiln.workgroup_strategy = "gpu.workgroup_scatter"} {
    memref.copy %orig, %out : memref<100x8xf32> to memref<100x8xf32>
    iree_linalg_ext.scatter {kiln.root} dimension_map = [0] unique_indices(false) ins(%upd, %idx : memref<?x8xf32>, memref<?x1xi32>) outs(%out : memref<100x8xf32>) {
    ^bb0(%u: f32, %o: f32):
      %s = arith.addf %u, %o : f32
      iree_linalg_ext.yield %s : f32
    }
    return
  }
}

// -----

// An overwrite with unique indices into zeros, with a mask: the fill's value is stored in
// the block, and each enabled update is a plain store.
// CHECK-LABEL: func.func @unique_masked(
// CHECK-SAME: %[[UPD:[a-z0-9]+]]: memref<6xi64>, %[[IDX:[a-z0-9]+]]: memref<6x2xi64>, %[[MASK:[a-z0-9]+]]: memref<6xi1>, %[[OUT:[a-z0-9]+]]: memref<9x5xi64>
// CHECK-NOT: linalg.fill
// CHECK: memref.store %c0_i64, %[[OUT]]
// CHECK: gpu.barrier
// CHECK: scf.for %[[U:.*]] = %{{.*}} to %c6 step %c256{{.*}} {
// CHECK: %[[ENABLED:.*]] = memref.load %[[MASK]][%[[U]]]
// CHECK: memref.load %[[IDX]][%[[U]], %c0{{.*}}]
// CHECK: arith.andi %[[ENABLED]]
// CHECK: memref.load %[[IDX]][%[[U]], %c1{{.*}}]
// CHECK: scf.if
// CHECK: %[[X:.*]] = memref.load %[[UPD]][%[[U]]]
// CHECK: memref.store %[[X]], %[[OUT]]
// CHECK-NOT: atomic_rmw
// CHECK: return
module @kiln_executable attributes {kiln.executable} {
  func.func @unique_masked(%upd: memref<6xi64>, %idx: memref<6x2xi64>, %mask: memref<6xi1>, %out: memref<9x5xi64>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>, array<i64: -1, -1>, array<i64: -1>, array<i64: -1, -1>], kiln.input_count = 3 : i64, kiln.workgroup_strategy = "gpu.workgroup_scatter"} {
    %zero = arith.constant 0 : i64
    linalg.fill ins(%zero : i64) outs(%out : memref<9x5xi64>)
    iree_linalg_ext.scatter {kiln.root} dimension_map = [0, 1] unique_indices(true) ins(%upd, %idx, %mask : memref<6xi64>, memref<6x2xi64>, memref<6xi1>) outs(%out : memref<9x5xi64>) {
    ^bb0(%u: i64, %o: i64):
      iree_linalg_ext.yield %u : i64
    }
    return
  }
}

// -----

// A product has no atomic read-modify-write: update rows in order, slices of 64 elements
// shared by the work-items, the combiner inlined, a barrier after each row.
// CHECK-LABEL: func.func @product(
// CHECK-SAME: %[[UPD:[a-z0-9]+]]: memref<4x64xi32>, %[[IDX:[a-z0-9]+]]: memref<4xi32>, %[[ORIG:[a-z0-9]+]]: memref<10x64xi32>, %[[OUT:[a-z0-9]+]]: memref<10x64xi32>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: gpu.barrier
// CHECK: scf.for %[[U:.*]] = %c0 to %c4 step %c1{{.*}} {
// CHECK: memref.load %[[IDX]][%[[U]]]
// CHECK: scf.if
// CHECK: scf.for %[[J:.*]] = %[[TID]] to %c64 step %c256{{.*}} {
// CHECK: %[[X:.*]] = memref.load %[[UPD]][%[[U]], %[[J]]]
// CHECK: %[[OLD:.*]] = memref.load %[[OUT]]
// CHECK: %[[NEW:.*]] = arith.muli %[[X]], %[[OLD]]
// CHECK: memref.store %[[NEW]], %[[OUT]]
// CHECK: }
// CHECK: }
// CHECK: gpu.barrier
// CHECK: }
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'product' applies its scatter's updates in order, one update row at a time per block of output rows: its combiner is not one commutative operation of the update and the old element that memref.atomic_rmw performs on i32, i64, f32 or f64}}
  func.func @product(%upd: memref<4x64xi32>, %idx: memref<4xi32>, %orig: memref<10x64xi32>, %out: memref<10x64xi32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 3 : i64, kiln.workgroup_strategy = "gpu.workgroup_scatter"} {
    memref.copy %orig, %out : memref<10x64xi32> to memref<10x64xi32>
    iree_linalg_ext.scatter {kiln.root} dimension_map = [0] unique_indices(false) ins(%upd, %idx : memref<4x64xi32>, memref<4xi32>) outs(%out : memref<10x64xi32>) {
    ^bb0(%u: i32, %o: i32):
      %p = arith.muli %u, %o : i32
      iree_linalg_ext.yield %p : i32
    }
    return
  }
}

// -----

// Indices computed in the dispatch (a temporary): the scatter stays on one work-item.
// CHECK-LABEL: func.func @computed_indices(
// CHECK: iree_linalg_ext.scatter
// CHECK-NOT: kiln.distributed
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'computed_indices' runs its scatter on one work-item: an input of its scatter is a temporary buffer, not a view of a binding}}
  func.func @computed_indices(%upd: memref<4xf32>, %out: memref<10xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>, array<i64: -1>], kiln.input_count = 1 : i64, kiln.workgroup_strategy = "gpu.workgroup_scatter"} {
    %idx = memref.alloca() : memref<4x1xi32>
    %zero = arith.constant 0 : i32
    linalg.fill ins(%zero : i32) outs(%idx : memref<4x1xi32>)
    iree_linalg_ext.scatter {kiln.root} dimension_map = [0] unique_indices(false) ins(%upd, %idx : memref<4xf32>, memref<4x1xi32>) outs(%out : memref<10xf32>) {
    ^bb0(%u: f32, %o: f32):
      %s = arith.maxnumf %u, %o : f32
      iree_linalg_ext.yield %s : f32
    }
    return
  }
}

// -----

// An overwrite with unique indices along a sliced dimension: slices of 3 rows at distinct
// offsets may still overlap, so the last update must win (the ordered path). Slices that
// small are applied in order by work-item 0 of each block, without barriers.
// CHECK-LABEL: func.func @overlapping_windows(
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK: scf.for %[[U:.*]] = %c0{{.*}} to %c4 step %c1{{.*}} {
// CHECK: scf.if
// CHECK: scf.for %[[J:.*]] = %c0{{.*}} to %{{.*}} step %c1{{.*}} {
// CHECK: %[[X:.*]] = memref.load %{{.*}}[%[[U]], %{{.*}}] : memref<4x3xf32>
// CHECK: memref.store %[[X]]
// CHECK-NOT: gpu.barrier
// CHECK: return
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'overlapping_windows' applies its scatter's updates in order, one update row at a time per block of output rows: it overwrites slices that distinct indices along a sliced dimension may still overlap, where the last update must win}}
  func.func @overlapping_windows(%upd: memref<4x3xf32>, %idx: memref<4x1xi32>, %orig: memref<10xf32>, %out: memref<10xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1>, array<i64: -1>], kiln.input_count = 3 : i64, kiln.workgroup_strategy = "gpu.workgroup_scatter"} {
    memref.copy %orig, %out : memref<10xf32> to memref<10xf32>
    iree_linalg_ext.scatter {kiln.root} dimension_map = [0] unique_indices(true) ins(%upd, %idx : memref<4x3xf32>, memref<4x1xi32>) outs(%out : memref<10xf32>) {
    ^bb0(%u: f32, %o: f32):
      iree_linalg_ext.yield %u : f32
    }
    return
  }
}

// -----

// Slices of 512 elements, at least a workgroup's work-items: update rows in turn, each
// slice shared by the work-items (coalesced), combining atomically, without barriers.
// CHECK-LABEL: func.func @wide_rows(
// CHECK-SAME: %[[UPD:[a-z0-9]+]]: memref<?x512xf32>, %[[IDX:[a-z0-9]+]]: memref<?x1xi64>, %{{.*}}: memref<40x512xf32>, %[[OUT:[a-z0-9]+]]: memref<40x512xf32>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[N:.*]] = memref.dim %[[UPD]], %c0
// CHECK: gpu.barrier
// CHECK: scf.for %[[U:.*]] = %c0{{.*}} to %[[N]] step %c1{{.*}} {
// CHECK: memref.load %[[IDX]][%[[U]], %c0{{.*}}]
// CHECK: scf.if
// CHECK: scf.for %[[J:.*]] = %[[TID]] to %c512 step %c256{{.*}} {
// CHECK: %[[X:.*]] = memref.load %[[UPD]][%[[U]], %[[J]]]
// CHECK: memref.atomic_rmw maximumf %[[X]], %[[OUT]]
// CHECK-NOT: gpu.barrier
// CHECK: return
module @kiln_executable attributes {kiln.executable} {
  func.func @wide_rows(%upd: memref<?x512xf32>, %idx: memref<?x1xi64>, %orig: memref<40x512xf32>, %out: memref<40x512xf32>, %n: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: 0, -1>, array<i64: 0, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 3 : i64, kiln.workgroup_strategy = "gpu.workgroup_scatter"} {
    memref.copy %orig, %out : memref<40x512xf32> to memref<40x512xf32>
    iree_linalg_ext.scatter {kiln.root} dimension_map = [0] unique_indices(false) ins(%upd, %idx : memref<?x512xf32>, memref<?x1xi64>) outs(%out : memref<40x512xf32>) {
    ^bb0(%u: f32, %o: f32):
      %m = arith.maximumf %o, %u : f32
      iree_linalg_ext.yield %m : f32
    }
    return
  }
}
