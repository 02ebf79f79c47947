// RUN: kiln-opt %s -split-input-file -kiln-gpu-tile-reductions=wave-size=64 -verify-diagnostics | FileCheck %s

// Row sums of 37 x 1000: rows id, id + count, ... per workgroup of 256; each work-item
// strides along the row from the neutral value, 4 elements (a 128-bit load) at a time and
// element by element at the row's end, a butterfly of 6 shuffles combines the
// wave, lane 0 of each of the 4 waves stores to LDS, and work-item 0 folds the waves'
// totals into the fill value.
// CHECK-LABEL: func.func @row_sums(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<37x1000xf32>, %[[OUT:[a-z0-9]+]]: memref<37xf32>, %[[ID:[a-z0-9]+]]: index, %[[COUNT:[a-z0-9]+]]: index)
// CHECK-SAME: kiln.distributed, kiln.gpu.workgroup_size = array<i32: 256, 1, 1>, kiln.gpu.workgroup_workers
// CHECK-DAG: %[[LDS:.*]] = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// CHECK: scf.for %[[ROW:.*]] = %[[ID]] to %c37 step %[[COUNT]]
// CHECK: %[[FIRST:.*]] = arith.muli %[[TID]], %c4
// CHECK: %[[PARTIAL:.*]] = scf.for %[[J:.*]] = %[[FIRST]] to %c1000 step %c1024 iter_args(%[[P:.*]] = %cst
// CHECK: scf.if %{{.*}} -> (f32)
// CHECK: vector.load %[[X]][%{{.*}}, %[[J]]] : memref<37x1000xf32>, vector<4xf32>
// CHECK-COUNT-4: arith.addf
// CHECK: } else {
// CHECK: memref.load %[[X]]
// CHECK-COUNT-6: gpu.shuffle  xor
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[LDS]]
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK-COUNT-4: memref.load %[[LDS]]
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK: gpu.barrier
// CHECK-NOT: linalg.reduce
module @kiln_executable attributes {kiln.executable} {
  func.func @row_sums(%x: memref<37x1000xf32>, %out: memref<37xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1>], kiln.input_count = 1 : i64, kiln.workgroup_strategy = "gpu.workgroup_reduction"} {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%out : memref<37xf32>)
    linalg.reduce ins(%x : memref<37x1000xf32>) outs(%out : memref<37xf32>) dimensions = [1] {kiln.root}
      (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
        linalg.yield %s : f32 }
    return
  }
}

// -----

// The output also feeds another op: the dispatch stays on one work-item, with a remark.
// CHECK-LABEL: func.func @reread(
// CHECK: linalg.reduce
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'reread' runs on one work-item: its output is also used by 'memref.copy'}}
  func.func @reread(%x: memref<4x8xf32>, %out: memref<4xf32>, %other: memref<4xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1>, array<i64: -1>], kiln.input_count = 1 : i64, kiln.workgroup_strategy = "gpu.workgroup_reduction"} {
    linalg.reduce ins(%x : memref<4x8xf32>) outs(%out : memref<4xf32>) dimensions = [1] {kiln.root}
      (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
        linalg.yield %s : f32 }
    memref.copy %out, %other : memref<4xf32> to memref<4xf32>
    return
  }
}

// -----

// A matvec: the element folded in is the body's product of both inputs' elements, each
// input loaded 128 bits at a time along the row.
// CHECK-LABEL: func.func @matvec(
// CHECK-SAME: %[[M:[a-z0-9]+]]: memref<30x1000xf32>, %[[V:[a-z0-9]+]]: memref<1000xf32>
// CHECK: scf.for {{.*}} iter_args
// CHECK-DAG: %[[MV:.*]] = vector.load %[[M]]{{.*}} : memref<30x1000xf32>, vector<4xf32>
// CHECK-DAG: %[[VV:.*]] = vector.load %[[V]]{{.*}} : memref<1000xf32>, vector<4xf32>
// CHECK: %[[A:.*]] = vector.extract %[[MV]][0]
// CHECK: %[[B:.*]] = vector.extract %[[VV]][0]
// CHECK: %[[P:.*]] = arith.mulf %[[A]], %[[B]]
// CHECK: arith.addf %{{.*}}, %[[P]]
// CHECK: gpu.shuffle  xor
module @kiln_executable attributes {kiln.executable} {
  func.func @matvec(%m: memref<30x1000xf32>, %v: memref<1000xf32>, %out: memref<30xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1>, array<i64: -1>], kiln.input_count = 2 : i64, kiln.workgroup_strategy = "gpu.workgroup_reduction"} {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%out : memref<30xf32>)
    linalg.matvec {kiln.root} ins(%m, %v : memref<30x1000xf32>, memref<1000xf32>) outs(%out : memref<30xf32>)
    return
  }
}
