// RUN: kiln-opt %s -split-input-file -kiln-gpu-tile-rows=wave-size=64 -verify-diagnostics | FileCheck %s

// Softmax over rows of 1000: per row, the max and the sum of exponentials are workgroup
// reductions (shuffles, then the waves' totals through LDS, broadcast through its last
// slot), and the output is recomputed element by element: no tensor is left, nothing
// holds a row. Columns go four at a time (128-bit loads and stores) while whole vectors
// remain, then one at a time.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<37x1000xf32>, %[[OUT:[a-z0-9]+]]: memref<37x1000xf32>, %[[ID:[a-z0-9]+]]: index, %[[COUNT:[a-z0-9]+]]: index)
// CHECK-SAME: kiln.distributed, kiln.gpu.workgroup_size = array<i32: 256, 1, 1>, kiln.gpu.workgroup_workers
// CHECK-COUNT-2: memref.alloc() : memref<5xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %[[ROW:.*]] = %[[ID]] to %{{.*}} step %[[COUNT]]
// CHECK: scf.for {{.*}} step %c1024{{[_0-9]*}} iter_args
// CHECK: vector.load %[[X]]{{.*}} : memref<37x1000xf32>, vector<4xf32>
// CHECK-COUNT-4: arith.maxnumf
// CHECK: scf.for {{.*}} step %c256{{[_0-9]*}} iter_args
// CHECK: memref.load %[[X]]
// CHECK: arith.maxnumf
// CHECK-COUNT-6: gpu.shuffle  xor
// CHECK: kiln.workgroup_barrier
// CHECK: memref.store %{{.*}}, %[[MAX_LDS:[a-z0-9_]+]][%c4{{[_0-9]*}}]
// CHECK: kiln.workgroup_barrier
// CHECK: %[[MAX:.*]] = memref.load %[[MAX_LDS]][%c4{{[_0-9]*}}]
// CHECK: kiln.workgroup_barrier
// CHECK: scf.for {{.*}} iter_args
// CHECK: vector.load %[[X]]
// CHECK: arith.subf %{{.*}}, %[[MAX]]
// CHECK: math.exp
// CHECK: memref.store %{{.*}}, %[[SUM_LDS:[a-z0-9_]+]][%c4{{[_0-9]*}}]
// CHECK: %[[SUM:.*]] = memref.load %[[SUM_LDS]][%c4{{[_0-9]*}}]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c1024
// CHECK-COUNT-4: arith.divf %{{.*}}, %[[SUM]]
// CHECK: %[[V:.*]] = vector.from_elements
// CHECK: vector.store %[[V]], %[[OUT]][%{{.*}}, %[[J]]] : memref<37x1000xf32>, vector<4xf32>
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %c256
// CHECK: math.exp
// CHECK: arith.divf %{{.*}}, %[[SUM]]
// CHECK: memref.store %{{.*}}, %[[OUT]][%{{.*}}, %[[T]]]
// CHECK-NOT: linalg.generic
module @kiln_executable attributes {kiln.executable} {
  func.func @softmax(%arg0: memref<37x1000xf32>, %arg1: memref<37x1000xf32>, %arg2: index, %arg3: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 1 : i64, kiln.workgroup_strategy = "gpu.workgroup_rows"} {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFFC00000 : f32
    %0 = bufferization.to_tensor %arg0 restrict : memref<37x1000xf32> to tensor<37x1000xf32>
    %1 = tensor.empty() : tensor<37xf32>
    %2 = linalg.fill ins(%cst_0 : f32) outs(%1 : tensor<37xf32>) -> tensor<37xf32>
    %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<37x1000xf32>) outs(%2 : tensor<37xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.maxnumf %in, %out : f32
      linalg.yield %9 : f32
    } -> tensor<37xf32>
    %4 = tensor.empty() : tensor<37x1000xf32>
    %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0, %3 : tensor<37x1000xf32>, tensor<37xf32>) outs(%4 : tensor<37x1000xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %9 = arith.subf %in, %in_1 : f32
      %10 = math.exp %9 : f32
      linalg.yield %10 : f32
    } -> tensor<37x1000xf32>
    %6 = linalg.fill ins(%cst : f32) outs(%1 : tensor<37xf32>) -> tensor<37xf32>
    %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%5 : tensor<37x1000xf32>) outs(%6 : tensor<37xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.addf %in, %out : f32
      linalg.yield %9 : f32
    } -> tensor<37xf32>
    %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%5, %7 : tensor<37x1000xf32>, tensor<37xf32>) outs(%4 : tensor<37x1000xf32>) attrs =  {kiln.root} {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %9 = arith.divf %in, %in_1 : f32
      linalg.yield %9 : f32
    } -> tensor<37x1000xf32>
    bufferization.materialize_in_destination %8 in restrict writable %arg1 : (tensor<37x1000xf32>, memref<37x1000xf32>) -> ()
    return
  }
}

// -----

// An index in a body means nothing outside its generic: the dispatch keeps the generic path.
// CHECK-LABEL: func.func @indexed(
// CHECK: linalg.generic
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'indexed' keeps the per-work-item path: a body holds ops other than arith and math}}
  func.func @indexed(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>, %arg2: index, %arg3: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 1 : i64, kiln.workgroup_strategy = "gpu.workgroup_rows"} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = bufferization.to_tensor %arg0 restrict : memref<4x8xf32> to tensor<4x8xf32>
    %1 = tensor.empty() : tensor<4xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<4xf32>) -> tensor<4xf32>
    %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<4x8xf32>) outs(%2 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.addf %in, %out : f32
      linalg.yield %9 : f32
    } -> tensor<4xf32>
    %4 = tensor.empty() : tensor<4x8xf32>
    %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0, %3 : tensor<4x8xf32>, tensor<4xf32>) outs(%4 : tensor<4x8xf32>) attrs = {kiln.root} {
    ^bb0(%in: f32, %s: f32, %out: f32):
      %i = linalg.index 1 : index
      %c = arith.index_cast %i : index to i32
      %f = arith.sitofp %c : i32 to f32
      %d = arith.divf %in, %s : f32
      %r = arith.addf %d, %f : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    bufferization.materialize_in_destination %5 in restrict writable %arg1 : (tensor<4x8xf32>, memref<4x8xf32>) -> ()
    return
  }
}
