// RUN: kiln-opt %s -split-input-file -kiln-gpu-select-workgroup-strategies -kiln-gpu-tile-sorts -verify-diagnostics | FileCheck %s

// Keys from a binding, indices computed in the dispatch (an iota), lines of 1000 along
// dimension 1: each workgroup loads a line into LDS with every element's position, runs
// the bitonic network (stages, then steps, each step's pairs shared by the 256 work-items
// and closed by a barrier; the comparator, then the position for ties), and writes the
// line out.
// CHECK-LABEL: func.func @sort_keys(
// CHECK-SAME: %[[KEYS:[a-z0-9]+]]: memref<7x1000xf32>, %[[OUT:[a-z0-9]+]]: memref<7x1000xf32>, %[[OUT_INDICES:[a-z0-9]+]]: memref<7x1000xi32>, %[[ID:[a-z0-9]+]]: index, %[[COUNT:[a-z0-9]+]]: index)
// CHECK-SAME: kiln.distributed, kiln.gpu.workgroup_size = array<i32: 256, 1, 1>, kiln.gpu.workgroup_workers
// CHECK-DAG: %[[LDS_KEYS:.*]] = memref.alloc() : memref<1000xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[LDS_INDICES:.*]] = memref.alloc() : memref<1000xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[LDS_POSITIONS:.*]] = memref.alloc() : memref<1000xi32, #gpu.address_space<workgroup>>
// CHECK: %[[THREAD:.*]] = gpu.thread_id x
// CHECK: scf.for %[[LINE:.*]] = %[[ID]] to %{{.*}} step %[[COUNT]]
// CHECK:   scf.for %[[J:.*]] = %[[THREAD]] to %{{.*}} step %c256
// CHECK:     memref.load %[[KEYS]]
// CHECK:     memref.store {{.*}}, %[[LDS_KEYS]][%[[J]]]
// CHECK:     %[[IOTA:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK:     memref.store %[[IOTA]], %[[LDS_INDICES]][%[[J]]]
// CHECK:     memref.store {{.*}}, %[[LDS_POSITIONS]][%[[J]]]
// CHECK:   kiln.workgroup_barrier
// CHECK:   math.ctlz
// CHECK:   scf.for %[[STAGE:.*]] = %c1
// CHECK:     scf.for
// CHECK:       scf.for {{.*}} = %[[THREAD]] to {{.*}} step %c256
// CHECK:         scf.if
// CHECK:           %[[J_FIRST:.*]] = arith.cmpf olt
// CHECK:           %[[EARLIER:.*]] = arith.cmpi ult
// CHECK:           %[[I_FIRST:.*]] = arith.cmpf olt
// CHECK:           %[[NOT_I_FIRST:.*]] = arith.xori %[[I_FIRST]], %true
// CHECK:           %[[TIE:.*]] = arith.andi %[[NOT_I_FIRST]], %[[EARLIER]]
// CHECK:           arith.ori %[[J_FIRST]], %[[TIE]]
// CHECK:           memref.store {{.*}}, %[[LDS_KEYS]]
// CHECK:       kiln.workgroup_barrier
// CHECK:   scf.for %[[K:.*]] = %[[THREAD]] to %{{.*}} step %c256
// CHECK:     %[[V:.*]] = memref.load %[[LDS_KEYS]][%[[K]]]
// CHECK:     memref.store %[[V]], %[[OUT]]
// CHECK:     %[[I:.*]] = memref.load %[[LDS_INDICES]][%[[K]]]
// CHECK:     memref.store %[[I]], %[[OUT_INDICES]]
// CHECK:   kiln.workgroup_barrier
// CHECK-NOT: iree_linalg_ext.sort
// CHECK: return
module @kiln_executable attributes {kiln.executable} {
  func.func @sort_keys(%keys: memref<7x1000xf32>, %out: memref<7x1000xf32>, %out_indices: memref<7x1000xi32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 1 : i64} {
    %0 = bufferization.to_tensor %keys restrict : memref<7x1000xf32> to tensor<7x1000xf32>
    %e = tensor.empty() : tensor<7x1000xi32>
    %iota = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<7x1000xi32>) {
    ^bb0(%o: i32):
      %j = linalg.index 1 : index
      %ji = arith.index_cast %j : index to i32
      linalg.yield %ji : i32
    } -> tensor<7x1000xi32>
    %r:2 = iree_linalg_ext.sort {kiln.root} dimension(1) outs(%0, %iota : tensor<7x1000xf32>, tensor<7x1000xi32>) {
    ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
      %lt = arith.cmpf olt, %a, %b : f32
      iree_linalg_ext.yield %lt : i1
    } -> tensor<7x1000xf32>, tensor<7x1000xi32>
    bufferization.materialize_in_destination %r#0 in restrict writable %out : (tensor<7x1000xf32>, memref<7x1000xf32>) -> ()
    bufferization.materialize_in_destination %r#1 in restrict writable %out_indices : (tensor<7x1000xi32>, memref<7x1000xi32>) -> ()
    return
  }
}

// -----

// Values nothing reads (the sort's second result is unused, the comparator ignores it):
// they are neither loaded nor kept in LDS nor written; only the keys and their
// positions take LDS.
// CHECK-LABEL: func.func @sort_values_unused(
// CHECK-SAME: %[[KEYS:[a-z0-9]+]]: memref<64xi32>, %[[VALUES:[a-z0-9]+]]: memref<64xf32>, %[[OUT:[a-z0-9]+]]: memref<64xi32>
// CHECK-COUNT-2: memref.alloc() : memref<64xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
// CHECK-NOT: %[[VALUES]]
// CHECK: return
module @kiln_executable attributes {kiln.executable} {
  func.func @sort_values_unused(%keys: memref<64xi32>, %values: memref<64xf32>, %out: memref<64xi32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>, array<i64: -1>, array<i64: -1>], kiln.input_count = 2 : i64} {
    %0 = bufferization.to_tensor %keys restrict : memref<64xi32> to tensor<64xi32>
    %1 = bufferization.to_tensor %values restrict : memref<64xf32> to tensor<64xf32>
    %r:2 = iree_linalg_ext.sort {kiln.root} dimension(0) outs(%0, %1 : tensor<64xi32>, tensor<64xf32>) {
    ^bb0(%a: i32, %b: i32, %c: f32, %d: f32):
      %lt = arith.cmpi slt, %a, %b : i32
      iree_linalg_ext.yield %lt : i1
    } -> tensor<64xi32>, tensor<64xf32>
    bufferization.materialize_in_destination %r#0 in restrict writable %out : (tensor<64xi32>, memref<64xi32>) -> ()
    return
  }
}

// -----

// A line whose length is known at run time: lines up to the LDS's capacity take the
// stable LDS path, longer ones are sorted in place in the output bindings.
// CHECK-LABEL: func.func @sort_dynamic(
// CHECK-SAME: %{{[a-z0-9]+}}: memref<?xf16>, %[[OUT:[a-z0-9]+]]: memref<?xf16>, %{{.*}}: index, %{{.*}}: index)
// CHECK: memref.alloc() : memref<10917xf16, #gpu.address_space<workgroup>>
// CHECK: %[[FITS:.*]] = arith.cmpi ule, %{{.*}}, %c10917
// CHECK: scf.if %[[FITS]] {
// CHECK: } else {
// CHECK:   memref.store {{.*}}, %[[OUT]]
// CHECK:   kiln.workgroup_barrier
// CHECK:   math.ctlz
// CHECK:   memref.load %[[OUT]]
// CHECK:   memref.load %[[OUT]]
// CHECK:   arith.cmpf ogt
// CHECK:   memref.store {{.*}}, %[[OUT]]
// CHECK:   memref.store {{.*}}, %[[OUT]]
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'sort_dynamic' sorts lines longer than 10917 elements in its output bindings: elements the comparator ties may come in another order than on the CPU}}
  func.func @sort_dynamic(%keys: memref<?xf16>, %out: memref<?xf16>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: 0>, array<i64: 0>], kiln.input_count = 1 : i64} {
    %0 = bufferization.to_tensor %keys restrict : memref<?xf16> to tensor<?xf16>
    %r = iree_linalg_ext.sort {kiln.root} dimension(0) outs(%0 : tensor<?xf16>) {
    ^bb0(%a: f16, %b: f16):
      %gt = arith.cmpf ogt, %a, %b : f16
      iree_linalg_ext.yield %gt : i1
    } -> tensor<?xf16>
    bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?xf16>, memref<?xf16>) -> ()
    return
  }
}

// -----

// A dynamic line whose comparator reads an operand nothing else reads: longer lines
// would need global memory for it, which the dispatch lacks. The per-work-item path
// keeps it (the strategy is not chosen), with a remark.
// CHECK-LABEL: func.func @sort_unwritten_key(
// CHECK-NOT: kiln.gpu.workgroup_workers
// CHECK: iree_linalg_ext.sort
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'sort_unwritten_key' runs its 'iree_linalg_ext.sort' one line per work-item, without LDS: a line longer than 5457 elements is sorted in its output bindings, and an operand the comparator reads has none}}
  func.func @sort_unwritten_key(%keys: memref<?xf32>, %values: memref<?xi32>, %out: memref<?xi32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: 0>, array<i64: 1>, array<i64: 2>], kiln.input_count = 2 : i64} {
    %0 = bufferization.to_tensor %keys restrict : memref<?xf32> to tensor<?xf32>
    %1 = bufferization.to_tensor %values restrict : memref<?xi32> to tensor<?xi32>
    %r:2 = iree_linalg_ext.sort {kiln.root} dimension(0) outs(%0, %1 : tensor<?xf32>, tensor<?xi32>) {
    ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
      %lt = arith.cmpf olt, %a, %b : f32
      iree_linalg_ext.yield %lt : i1
    } -> tensor<?xf32>, tensor<?xi32>
    bufferization.materialize_in_destination %r#1 in restrict writable %out : (tensor<?xi32>, memref<?xi32>) -> ()
    return
  }
}

// -----

// topk with initial outputs from a binding: the check that they are in the comparator's
// order compares position j with max(j, 1) - 1, in bounds at j = 0 (max(j - 1, 0) wrapped
// to index -1 there once: a read before the binding, a fault on the code object).
// CHECK-LABEL: func.func @top4_initial(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<3x100xf32>, %[[INIT:[a-z0-9]+]]: memref<3x4xf32>
// CHECK: scf.for %[[J:.*]] = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} iter_args(%{{.*}} = %true) -> (i1)
// CHECK:   %[[V:.*]] = memref.load %[[INIT]][%[[LINE:.*]], %[[J]]]
// CHECK:   %[[AT_LEAST_ONE:.*]] = arith.maxui %[[J]], %c1
// CHECK:   %[[PREVIOUS:.*]] = arith.subi %[[AT_LEAST_ONE]], %c1
// CHECK:   %[[W:.*]] = memref.load %[[INIT]][%[[LINE]], %[[PREVIOUS]]]
// CHECK:   arith.cmpf ogt, %[[V]], %[[W]]
module @kiln_executable attributes {kiln.executable} {
  func.func @top4_initial(%x: memref<3x100xf32>, %init: memref<3x4xf32>, %out_v: memref<3x4xf32>, %out_i: memref<3x4xi32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64} {
    %zero = arith.constant 0 : i32
    %0 = bufferization.to_tensor %x restrict : memref<3x100xf32> to tensor<3x100xf32>
    %v = bufferization.to_tensor %init restrict : memref<3x4xf32> to tensor<3x4xf32>
    %ei = tensor.empty() : tensor<3x4xi32>
    %i = linalg.fill ins(%zero : i32) outs(%ei : tensor<3x4xi32>) -> tensor<3x4xi32>
    %r:2 = iree_linalg_ext.topk {kiln.root} dimension(1) ins(%0 : tensor<3x100xf32>) outs(%v, %i : tensor<3x4xf32>, tensor<3x4xi32>) {
    ^bb0(%a: f32, %b: f32):
      %gt = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %gt : i1
    } -> tensor<3x4xf32>, tensor<3x4xi32>
    bufferization.materialize_in_destination %r#0 in restrict writable %out_v : (tensor<3x4xf32>, memref<3x4xf32>) -> ()
    bufferization.materialize_in_destination %r#1 in restrict writable %out_i : (tensor<3x4xi32>, memref<3x4xi32>) -> ()
    return
  }
}

// -----

// topk: its k = 4 initial candidates (the fills) take LDS slots 0-3 and the line's 100
// elements slots 4-103, their indices being their positions along the line. When the
// initial outputs are numbers in the comparator's order (checked per line) the network
// sorts them, a NaN after every number; else work-item 0 inserts the elements one by one
// as the CPU loop does. Then the first k go to the outputs.
// CHECK-LABEL: func.func @top4(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<3x100xf32>, %[[OUT_V:[a-z0-9]+]]: memref<3x4xf32>, %[[OUT_I:[a-z0-9]+]]: memref<3x4xi32>
// CHECK-SAME: kiln.gpu.workgroup_workers
// CHECK-DAG: %[[LDS_V:.*]] = memref.alloc() : memref<104xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[LDS_I:.*]] = memref.alloc() : memref<104xi32, #gpu.address_space<workgroup>>
// CHECK: %[[HOLDS:.*]] = scf.for {{.*}} -> (i1)
// CHECK:   arith.cmpf ord
// CHECK:   arith.cmpf ogt
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %c4{{.*}} step %c256
// CHECK:   memref.store %cst, %[[LDS_V]][%[[J]]]
// CHECK:   memref.store %c0_i32, %[[LDS_I]][%[[J]]]
// CHECK: scf.for %[[L:.*]] = %{{.*}} to %c100{{.*}} step %c256
// CHECK:   %[[SLOT:.*]] = arith.addi %[[L]], %c4
// CHECK:   %[[V:.*]] = memref.load %[[X]]
// CHECK:   %[[I:.*]] = arith.index_cast %[[L]] : index to i32
// CHECK:   memref.store %[[V]], %[[LDS_V]][%[[SLOT]]]
// CHECK:   memref.store %[[I]], %[[LDS_I]][%[[SLOT]]]
// CHECK: kiln.workgroup_barrier
// CHECK: scf.if %[[HOLDS]] {
// CHECK:   arith.cmpf ogt
// CHECK:   arith.cmpf uno
// CHECK: kiln.workgroup_barrier
// CHECK: %[[SLOW:.*]] = arith.xori %[[HOLDS]]
// CHECK: %[[ONE:.*]] = arith.andi %{{.*}}, %[[SLOW]]
// CHECK: scf.if %[[ONE]] {
// CHECK:   scf.for {{.*}} = %c4{{.*}} to %c104
// CHECK:     memref.load %[[LDS_V]]
// CHECK:     scf.if
// CHECK:       scf.while
// CHECK: kiln.workgroup_barrier
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c4{{.*}} step %c256
// CHECK:   memref.store {{.*}}, %[[OUT_V]]
// CHECK:   memref.store {{.*}}, %[[OUT_I]]
// CHECK-NOT: iree_linalg_ext.topk
module @kiln_executable attributes {kiln.executable} {
  func.func @top4(%x: memref<3x100xf32>, %out_v: memref<3x4xf32>, %out_i: memref<3x4xi32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 1 : i64} {
    %minus_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0 : i32
    %0 = bufferization.to_tensor %x restrict : memref<3x100xf32> to tensor<3x100xf32>
    %ev = tensor.empty() : tensor<3x4xf32>
    %ei = tensor.empty() : tensor<3x4xi32>
    %v = linalg.fill ins(%minus_inf : f32) outs(%ev : tensor<3x4xf32>) -> tensor<3x4xf32>
    %i = linalg.fill ins(%zero : i32) outs(%ei : tensor<3x4xi32>) -> tensor<3x4xi32>
    %r:2 = iree_linalg_ext.topk {kiln.root} dimension(1) ins(%0 : tensor<3x100xf32>) outs(%v, %i : tensor<3x4xf32>, tensor<3x4xi32>) {
    ^bb0(%a: f32, %b: f32):
      %gt = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %gt : i1
    } -> tensor<3x4xf32>, tensor<3x4xi32>
    bufferization.materialize_in_destination %r#0 in restrict writable %out_v : (tensor<3x4xf32>, memref<3x4xf32>) -> ()
    bufferization.materialize_in_destination %r#1 in restrict writable %out_i : (tensor<3x4xi32>, memref<3x4xi32>) -> ()
    return
  }
}

// -----

// Runs (kiln-gpu-split-long-sorts): each workgroup unit is one run of 4096 elements of a
// line, sorted in LDS with its positions (the stable order within the run) at its offset
// in the line; the last run of a line is shorter. No in-place path.
// CHECK-LABEL: func.func @sort_runs(
// CHECK-SAME: %{{[a-z0-9]+}}: memref<?x?xf32>, %[[OUT:[a-z0-9]+]]: memref<?x?xf32>, %[[ID:[a-z0-9]+]]: index, %[[COUNT:[a-z0-9]+]]: index)
// CHECK: memref.alloc() : memref<4096xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<4096xi32, #gpu.address_space<workgroup>>
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %c1
// CHECK: %[[RUNS:.*]] = arith.ceildivui %[[N]], %c4096
// CHECK: %[[UNITS:.*]] = arith.muli %{{.*}}, %[[RUNS]]
// CHECK: scf.for %[[UNIT:.*]] = %[[ID]] to %[[UNITS]] step %[[COUNT]]
// CHECK:   %[[WHICH:.*]] = arith.remui %[[UNIT]], %[[RUNS]]
// CHECK:   %[[OFFSET:.*]] = arith.muli %[[WHICH]], %c4096
// CHECK:   %[[LEFT:.*]] = arith.subi %[[N]], %[[OFFSET]]
// CHECK:   %[[LENGTH:.*]] = arith.minui %{{.*}}, %[[LEFT]]
// CHECK:   scf.for %[[J:.*]] = %{{.*}} to %[[LENGTH]] step %c256
// CHECK:     %[[AT:.*]] = arith.addi %[[OFFSET]], %[[J]]
// CHECK:     memref.load %{{.*}}[%{{.*}}, %[[AT]]]
// CHECK-NOT: scf.if
// CHECK:   math.ctlz
// CHECK:   scf.for %[[K:.*]] = %{{.*}} to %[[LENGTH]] step %c256
// CHECK:     %[[TO:.*]] = arith.addi %[[OFFSET]], %[[K]]
// CHECK:     memref.store {{.*}}, %[[OUT]][%{{.*}}, %[[TO]]]
module @kiln_executable attributes {kiln.executable} {
  func.func @sort_runs(%keys: memref<?x?xf32>, %out: memref<?x?xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: 0, 1>, array<i64: 0, 1>], kiln.input_count = 1 : i64} {
    %0 = bufferization.to_tensor %keys restrict : memref<?x?xf32> to tensor<?x?xf32>
    %r = iree_linalg_ext.sort {kiln.root, kiln.sort_run_length = 4096 : i64} dimension(1) outs(%0 : tensor<?x?xf32>) {
    ^bb0(%a: f32, %b: f32):
      %lt = arith.cmpf olt, %a, %b : f32
      iree_linalg_ext.yield %lt : i1
    } -> tensor<?x?xf32>
    bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
    return
  }
}

// -----

// Runs longer than an LDS line: only this strategy sorts runs, so it is an error.
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'sort_long_runs' runs its 'iree_linalg_ext.sort' one line per work-item, without LDS: its runs of 16384 elements exceed the 8188 an LDS line holds}}
  func.func @sort_long_runs(%keys: memref<?xf32>, %out: memref<?xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: 0>, array<i64: 0>], kiln.input_count = 1 : i64} {
    %0 = bufferization.to_tensor %keys restrict : memref<?xf32> to tensor<?xf32>
    // expected-error @+1 {{dispatch 'sort_long_runs' sorts runs of its lines ('kiln.sort_run_length'), which only the GPU's sort strategy computes, and it cannot: its runs of 16384 elements exceed the 8188 an LDS line holds}}
    %r = iree_linalg_ext.sort {kiln.root, kiln.sort_run_length = 16384 : i64} dimension(0) outs(%0 : tensor<?xf32>) {
    ^bb0(%a: f32, %b: f32):
      %lt = arith.cmpf olt, %a, %b : f32
      iree_linalg_ext.yield %lt : i1
    } -> tensor<?xf32>
    bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
    return
  }
}
