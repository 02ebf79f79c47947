// RUN: kiln-opt %s -split-input-file -kiln-cpu-forward-output-buffers | FileCheck %s

// A topk's outputs start as an input's contents: the output bindings take the places of
// the temporaries, which bufferization copied out at the end (the dynamic sizes came
// from the bindings; the static input is cast to them).
// CHECK-LABEL: func.func @topk_in_place(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<10xf32>, %[[INIT_V:[a-z0-9]+]]: memref<?xf32>, %[[INIT_I:[a-z0-9]+]]: memref<?xi32>, %[[OUT_V:[a-z0-9]+]]: memref<?xf32>, %[[OUT_I:[a-z0-9]+]]: memref<?xi32>)
// CHECK-NOT: memref.alloc
// CHECK: memref.copy %[[INIT_V]], %[[OUT_V]]
// CHECK: memref.copy %[[INIT_I]], %[[OUT_I]]
// CHECK: iree_linalg_ext.topk_v2 {{.*}} outs(%[[OUT_V]], %[[OUT_I]] : memref<?xf32>, memref<?xi32>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @topk_in_place(%x: memref<10xf32>, %init_v: memref<?xf32>, %init_i: memref<?xi32>, %out_v: memref<?xf32>, %out_i: memref<?xi32>) attributes {kiln.binding_dims = [array<i64: -1>, array<i64: 0>, array<i64: 1>, array<i64: 2>, array<i64: 3>]} {
  %c0 = arith.constant 0 : index
  %k = memref.dim %init_v, %c0 : memref<?xf32>
  %t_v = memref.alloc(%k) : memref<?xf32>
  memref.copy %init_v, %t_v : memref<?xf32> to memref<?xf32>
  %t_i = memref.alloc(%k) : memref<?xi32>
  memref.copy %init_i, %t_i : memref<?xi32> to memref<?xi32>
  iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%x : memref<10xf32>) outs(%t_v, %t_i : memref<?xf32>, memref<?xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }
  memref.copy %t_v, %out_v : memref<?xf32> to memref<?xf32>
  memref.copy %t_i, %out_i : memref<?xi32> to memref<?xi32>
  return
}

// -----

// A temporary of static size copied into a binding of dynamic size: the binding, cast
// to the static type, takes its place.
// CHECK-LABEL: func.func @static_temporary(
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: memref<?xf32>)
// CHECK: %[[CAST:.*]] = memref.cast %[[OUT]] : memref<?xf32> to memref<4xf32>
// CHECK: linalg.fill {{.*}} outs(%[[CAST]] : memref<4xf32>)
// CHECK-NOT: memref.copy
func.func @static_temporary(%out: memref<?xf32>) attributes {kiln.binding_dims = [array<i64: 0>]} {
  %one = arith.constant 1.0 : f32
  %t = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%t : memref<4xf32>)
  memref.copy %t, %out : memref<4xf32> to memref<?xf32>
  return
}

// -----

// Not forwarded: the binding is also written elsewhere, or the temporary is read after
// the copy.
// CHECK-LABEL: func.func @kept(
// CHECK-COUNT-2: memref.alloc
// CHECK: memref.copy %{{.*}}, %arg0
// CHECK: memref.copy %{{.*}}, %arg0
// CHECK: memref.copy %{{.*}}, %arg1
// CHECK: memref.load
func.func @kept(%out: memref<4xf32>, %out2: memref<4xf32>) attributes {kiln.binding_dims = [array<i64: -1>, array<i64: -1>]} {
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : memref<4xf32>
  %u = memref.alloc() : memref<4xf32>
  memref.copy %t, %out : memref<4xf32> to memref<4xf32>
  memref.copy %u, %out : memref<4xf32> to memref<4xf32>
  memref.copy %t, %out2 : memref<4xf32> to memref<4xf32>
  %v = memref.load %t[%c0] : memref<4xf32>
  memref.store %v, %u[%c0] : memref<4xf32>
  return
}
