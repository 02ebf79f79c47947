// RUN: kiln-opt %s -split-input-file -kiln-gpu-select-workgroup-strategies -kiln-gpu-tile-attention -canonicalize -verify-diagnostics | FileCheck %s

// Attention with an i1 mask broadcast over the heads, a score region and an f16 output,
// 200 queries and 333 keys: each workgroup of 64 work-items takes (head, block of 64
// rows) units; per block of 16 keys it stages K and V in LDS (f32), then each row's
// work-item computes its scores (the dot product with the scaled query row, the region,
// 0 or -inf from the mask), the new max, the correction exp2(old max - new max), the
// sum and the output row, between barriers; at the end the row is divided by the sum.
// CHECK-LABEL: func.func @masked(
// CHECK-SAME: %[[Q:[a-z0-9]+]]: memref<4x200x64xf32>, %[[K:[a-z0-9]+]]: memref<4x333x64xf32>, %[[V:[a-z0-9]+]]: memref<4x333x32xf32>, %[[MASK:[a-z0-9]+]]: memref<200x333xi1>, %[[OUT:[a-z0-9]+]]: memref<4x200x32xf16>, %[[ID:[a-z0-9]+]]: index, %[[COUNT:[a-z0-9]+]]: index)
// CHECK-SAME: kiln.distributed, kiln.gpu.workgroup_size = array<i32: 64, 1, 1>, kiln.gpu.workgroup_workers
// CHECK-DAG: %[[SCALE:.*]] = arith.constant 0.180336878 : f32
// CHECK-DAG: %[[MINUS_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[K_LDS:.*]] = memref.alloc() : memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[V_LDS:.*]] = memref.alloc() : memref<512xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[QUERY:.*]] = memref.alloca() : memref<64xf32>
// CHECK-DAG: %[[ACC:.*]] = memref.alloca() : memref<32xf32>
// CHECK-DAG: %[[BLOCK:.*]] = memref.alloca() : memref<16xf32>
// CHECK-DAG: %[[STATE:.*]] = memref.alloca() : memref<2xf32>
// CHECK: %[[THREAD:.*]] = gpu.thread_id x
// CHECK: scf.for %[[UNIT:.*]] = %[[ID]] to %c16 step %[[COUNT]]
// CHECK:   %[[ROW_BLOCK:.*]] = arith.remui %[[UNIT]], %c4
// CHECK:   %[[HEAD:.*]] = arith.remui
// CHECK:   %[[FIRST_ROW:.*]] = arith.muli %[[ROW_BLOCK]], %c64
// CHECK:   %[[ROW:.*]] = arith.addi %[[FIRST_ROW]], %[[THREAD]]
// CHECK:   %[[VALID:.*]] = arith.cmpi ult, %[[ROW]], %c200
// CHECK:   scf.if %[[VALID]]
// CHECK:     memref.load %[[Q]][%[[HEAD]], %[[ROW]], %{{.*}}]
// CHECK:     arith.mulf %{{.*}}, %[[SCALE]]
// CHECK:     memref.store %[[MINUS_INF]], %[[STATE]][%c0]
// CHECK:   scf.for %[[FIRST:.*]] = %c0 to %c333 step %c16
// CHECK:     %[[LEFT:.*]] = arith.subi %c333, %[[FIRST]]
// CHECK:     %[[COUNT_KEYS:.*]] = arith.minui %[[LEFT]], %c16
// CHECK:     scf.for %[[E:.*]] = %[[THREAD]] to %c1024 step %c64
// CHECK:       memref.load %[[K]]
// CHECK:       memref.store %{{.*}}, %[[K_LDS]][%[[E]]]
// CHECK:     scf.for %[[E2:.*]] = %[[THREAD]] to %c512 step %c64
// CHECK:       memref.load %[[V]]
// CHECK:       memref.store %{{.*}}, %[[V_LDS]][%[[E2]]]
// CHECK:     kiln.workgroup_barrier
// CHECK:     scf.if %[[VALID]]
// CHECK:       %[[OLD_MAX:.*]] = memref.load %[[STATE]][%c0]
// CHECK:       %[[NEW_MAX:.*]] = scf.for %{{.*}} = %c0 to %[[COUNT_KEYS]] step %c1 iter_args(%[[MAX:.*]] = %[[OLD_MAX]])
// CHECK:         scf.for
// CHECK:           memref.load %[[K_LDS]]
// CHECK:           memref.load %[[QUERY]]
// CHECK:         math.tanh
// CHECK:         memref.load %[[MASK]][%[[ROW]],
// CHECK:         arith.select %{{.*}}, %cst{{.*}}, %[[MINUS_INF]]
// CHECK:         memref.store %{{.*}}, %[[BLOCK]]
// CHECK:         arith.maximumf %[[MAX]]
// CHECK:       %[[NONE:.*]] = arith.cmpf oeq, %[[NEW_MAX]], %[[MINUS_INF]]
// CHECK:       %[[SHIFT:.*]] = arith.select %[[NONE]], %{{.*}}, %[[NEW_MAX]]
// CHECK:       %[[DIFFERENCE:.*]] = arith.subf %[[OLD_MAX]], %[[SHIFT]]
// CHECK:       %[[CORRECTION:.*]] = math.exp2 %[[DIFFERENCE]]
// CHECK:       scf.for
// CHECK:         math.exp2
// CHECK:       memref.store %[[NEW_MAX]], %[[STATE]][%c0]
// CHECK:       scf.for
// CHECK:         memref.load %[[ACC]]
// CHECK:         arith.mulf %{{.*}}, %[[CORRECTION]]
// CHECK:         scf.for
// CHECK:           memref.load %[[V_LDS]]
// CHECK:     kiln.workgroup_barrier
// CHECK:   scf.if %[[VALID]]
// CHECK:     %[[SUM:.*]] = memref.load %[[STATE]][%c1]
// CHECK:     scf.for %[[N:.*]] = %c0 to %c32
// CHECK:       %[[QUOTIENT:.*]] = arith.divf %{{.*}}, %[[SUM]]
// CHECK:       %[[HALF:.*]] = arith.truncf %[[QUOTIENT]] : f32 to f16
// CHECK:       memref.store %[[HALF]], %[[OUT]][%[[HEAD]], %[[ROW]], %[[N]]]
// CHECK-NOT: iree_linalg_ext.attention
module @kiln_executable attributes {kiln.executable} {
  func.func @masked(%q: memref<4x200x64xf32>, %k: memref<4x333x64xf32>, %v: memref<4x333x32xf32>, %mask: memref<200x333xi1>, %out: memref<4x200x32xf16>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1, -1>, array<i64: -1, -1, -1>, array<i64: -1, -1, -1>, array<i64: -1, -1>, array<i64: -1, -1, -1>], kiln.input_count = 4 : i64} {
    %scale = arith.constant 1.250000e-01 : f32
    %0 = bufferization.to_tensor %q restrict : memref<4x200x64xf32> to tensor<4x200x64xf32>
    %1 = bufferization.to_tensor %k restrict : memref<4x333x64xf32> to tensor<4x333x64xf32>
    %2 = bufferization.to_tensor %v restrict : memref<4x333x32xf32> to tensor<4x333x32xf32>
    %3 = bufferization.to_tensor %mask restrict : memref<200x333xi1> to tensor<200x333xi1>
    %4 = tensor.empty() : tensor<4x200x32xf16>
    %5 = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k2, n)>, affine_map<(b, m, k1, k2, n) -> ()>, affine_map<(b, m, k1, k2, n) -> (m, k2)>, affine_map<(b, m, k1, k2, n) -> (b, m, n)>], kiln.root, kiln.undecomposed} ins(%0, %1, %2, %scale, %3 : tensor<4x200x64xf32>, tensor<4x333x64xf32>, tensor<4x333x32xf32>, f32, tensor<200x333xi1>) outs(%4 : tensor<4x200x32xf16>) {
    ^bb0(%s: f32):
      %c = math.tanh %s : f32
      iree_linalg_ext.yield %c : f32
    } -> tensor<4x200x32xf16>
    bufferization.materialize_in_destination %5 in restrict writable %out : (tensor<4x200x32xf16>, memref<4x200x32xf16>) -> ()
    return
  }
}

// -----

// online_attention with dynamic sequence lengths, a transposed K (k1 before k2), acc read
// from a binding, max and sum from fills, and its sum unused (never written): the state
// starts from the outputs' values and is written back without division, with NaN where
// the maximum stayed -infinity (the decomposition's exp2(-inf - -inf)).
// CHECK-LABEL: func.func @online(
// CHECK-SAME: %[[Q:[a-z0-9]+]]: memref<2x?x16xf32>, %[[K:[a-z0-9]+]]: memref<2x16x?xf32>, %[[V:[a-z0-9]+]]: memref<2x?x8xf32>, %[[ACC_IN:[a-z0-9]+]]: memref<2x?x8xf32>, %[[ACC_OUT:[a-z0-9]+]]: memref<2x?x8xf32>, %[[MAX_OUT:[a-z0-9]+]]: memref<2x?xf32>
// CHECK-SAME: kiln.gpu.workgroup_size = array<i32: 64, 1, 1>
// CHECK-DAG: %[[ROWS:.*]] = memref.dim %[[Q]], %c1
// CHECK-DAG: %[[KEYS:.*]] = memref.dim %[[K]], %c2
// CHECK:   scf.if
// CHECK:     memref.store %cst{{.*}}, %[[STATE:.*]][%c0]
// CHECK:     memref.store %cst{{.*}}, %[[STATE]][%c1]
// CHECK:     memref.load %[[ACC_IN]]
// CHECK:   scf.for %[[FIRST:.*]] = %c0 to %[[KEYS]] step %c16
// CHECK:     memref.load %[[K]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x16x?xf32>
// CHECK:     math.exp
// CHECK-NOT: math.exp2
// CHECK:   scf.if
// CHECK:     %[[NONE:.*]] = arith.cmpf oeq
// CHECK:     memref.store %{{.*}}, %[[MAX_OUT]]
// CHECK:     scf.for
// CHECK:       arith.select %[[NONE]], %cst{{.*}}, %{{.*}}
// CHECK:       memref.store %{{.*}}, %[[ACC_OUT]]
// CHECK-NOT: memref.store
module @kiln_executable attributes {kiln.executable} {
  func.func @online(%q: memref<2x?x16xf32>, %k: memref<2x16x?xf32>, %v: memref<2x?x8xf32>, %acc: memref<2x?x8xf32>, %acc_out: memref<2x?x8xf32>, %max_out: memref<2x?xf32>, %rows: index, %keys: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, 0, -1>, array<i64: -1, -1, 1>, array<i64: -1, 1, -1>, array<i64: -1, 0, -1>, array<i64: -1, 0, -1>, array<i64: -1, 0>], kiln.input_count = 4 : i64} {
    %scale = arith.constant 1.250000e-01 : f32
    %minus_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %0 = bufferization.to_tensor %q restrict : memref<2x?x16xf32> to tensor<2x?x16xf32>
    %1 = bufferization.to_tensor %k restrict : memref<2x16x?xf32> to tensor<2x16x?xf32>
    %2 = bufferization.to_tensor %v restrict : memref<2x?x8xf32> to tensor<2x?x8xf32>
    %3 = bufferization.to_tensor %acc restrict : memref<2x?x8xf32> to tensor<2x?x8xf32>
    %e = tensor.empty(%rows) : tensor<2x?xf32>
    %max = linalg.fill ins(%minus_inf : f32) outs(%e : tensor<2x?xf32>) -> tensor<2x?xf32>
    %sum = linalg.fill ins(%zero : f32) outs(%e : tensor<2x?xf32>) -> tensor<2x?xf32>
    %r:3 = iree_linalg_ext.online_attention {decomposition_config = {use_exp2 = false}, indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k1, k2)>, affine_map<(b, m, k1, k2, n) -> (b, k2, n)>, affine_map<(b, m, k1, k2, n) -> ()>, affine_map<(b, m, k1, k2, n) -> (b, m, n)>, affine_map<(b, m, k1, k2, n) -> (b, m)>, affine_map<(b, m, k1, k2, n) -> (b, m)>], kiln.root, kiln.undecomposed} ins(%0, %1, %2, %scale : tensor<2x?x16xf32>, tensor<2x16x?xf32>, tensor<2x?x8xf32>, f32) outs(%3, %max, %sum : tensor<2x?x8xf32>, tensor<2x?xf32>, tensor<2x?xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
    } -> tensor<2x?x8xf32>, tensor<2x?xf32>, tensor<2x?xf32>
    bufferization.materialize_in_destination %r#0 in restrict writable %acc_out : (tensor<2x?x8xf32>, memref<2x?x8xf32>) -> ()
    bufferization.materialize_in_destination %r#1 in restrict writable %max_out : (tensor<2x?xf32>, memref<2x?xf32>) -> ()
    return
  }
}

// -----

// A kept attention whose dispatch also computes something else has no GPU lowering left:
// an error naming it.
module @kiln_executable attributes {kiln.executable} {
  func.func @fused(%q: memref<1x4x8xf32>, %out: memref<1x4x8xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1, -1>, array<i64: -1, -1, -1>], kiln.input_count = 1 : i64} {
    %scale = arith.constant 1.0 : f32
    %0 = bufferization.to_tensor %q restrict : memref<1x4x8xf32> to tensor<1x4x8xf32>
    %e = tensor.empty() : tensor<1x4x8xf32>
    %k = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0 : tensor<1x4x8xf32>) outs(%e : tensor<1x4x8xf32>) {
    ^bb0(%x: f32, %y: f32):
      %n = arith.negf %x : f32
      linalg.yield %n : f32
    } -> tensor<1x4x8xf32>
    // expected-error @+1 {{'iree_linalg_ext.attention' was kept whole for the GPU's flash-attention strategy, which cannot compute its dispatch: an operand is not read from a binding, a fill or a splat}}
    %r = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>, affine_map<(b, m, k1, k2, n) -> (b, k2, n)>, affine_map<(b, m, k1, k2, n) -> ()>, affine_map<(b, m, k1, k2, n) -> (b, m, n)>], kiln.root, kiln.undecomposed} ins(%0, %k, %0, %scale : tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, f32) outs(%e : tensor<1x4x8xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
    } -> tensor<1x4x8xf32>
    bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x4x8xf32>, memref<1x4x8xf32>) -> ()
    return
  }
}
