// RUN: kiln-opt %s -split-input-file -kiln-cpu-linalg-ext-to-loops=vector-bits=512 -canonicalize -cse | FileCheck %s

// Contiguous rows of 50 with a plain comparator: a pass over the row's three vectors finds
// each lane's best (with a NaN check) and the bound, the 3rd best of the 16 lanes; then
// each vector is compared with the k-th (and the bound) at once, and the lanes that beat it
// are inserted one by one (cttz), the vector compared again after each; the last 2
// elements go through the scalar loop.
// CHECK-LABEL: func.func @topk_rows
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c3
// CHECK: vector.load %{{.*}}[%[[ROW]], %c0] : memref<3x50xf32>, vector<16xf32>
// CHECK: arith.cmpf uno, %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: scf.for %{{.*}} = %c16 to %c48 step %c16
// CHECK: math.ctpop
// CHECK: scf.for %[[BASE:.*]] = %c0 to %c48 step %c16 iter_args
// CHECK: %[[V:.*]] = vector.load %{{.*}}[%[[ROW]], %[[BASE]]] : memref<3x50xf32>, vector<16xf32>
// CHECK: arith.cmpf ogt, %{{.*}}, %[[V]] : vector<16xf32>
// CHECK: arith.cmpf ogt, %[[V]], %{{.*}} : vector<16xf32>
// CHECK: vector.bitcast %{{.*}} : vector<16xi1> to vector<1xi16>
// CHECK: scf.while
// CHECK: math.cttz
// CHECK: scf.for %{{.*}} = %c48 to %c50 step %c1
// CHECK-NOT: iree_linalg_ext
func.func @topk_rows(%x: memref<3x50xf32>, %v: memref<3x3xf32>, %i: memref<3x3xi32>) {
  iree_linalg_ext.topk dimension(1) ins(%x : memref<3x50xf32>) outs(%v, %i : memref<3x3xf32>, memref<3x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }
  return
}

// -----

// A comparator with a constant: vectorised (the constant as a splat) but no bound.
// CHECK-LABEL: func.func @topk_negated
// CHECK-NOT: math.ctpop
// CHECK: arith.constant dense<-1.000000e+00> : vector<16xf32>
// CHECK: vector.load
// CHECK: arith.mulf %{{.*}} : vector<16xf32>
// CHECK: math.cttz
func.func @topk_negated(%x: memref<2x64xf32>, %v: memref<2x4xf32>, %i: memref<2x4xi32>) {
  iree_linalg_ext.topk dimension(1) ins(%x : memref<2x64xf32>) outs(%v, %i : memref<2x4xf32>, memref<2x4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.constant -1.0 : f32
    %na = arith.mulf %a, %m : f32
    %nb = arith.mulf %b, %m : f32
    %gt = arith.cmpf ogt, %na, %nb : f32
    iree_linalg_ext.yield %gt : i1
  }
  return
}

// -----

// Lines along a strided dimension stay scalar; with a static k of at most 16 the k kept
// still go through the line as values (inserted with selects) and are stored at its end.
// CHECK-LABEL: func.func @topk_columns
// CHECK-NOT: vector.load
// CHECK: scf.for %[[COL:.*]] = %c0 to %c2
// CHECK: %[[LAST:.*]] = memref.load %{{.*}}[%c3, %[[COL]]] : memref<4x2xf32>
// CHECK: %[[KEPT:.*]]:8 = scf.for %[[I:.*]] = %c0 to %c64 step %c1 iter_args({{.*}}, %[[KTH:.*]] = %[[LAST]], %{{.*}} = %{{.*}})
// CHECK: %[[X:.*]] = memref.load %{{.*}}[%[[I]], %[[COL]]]
// CHECK: %[[BETTER:.*]] = arith.cmpf ogt, %[[X]], %[[KTH]]
// CHECK: scf.if %[[BETTER]]
// CHECK: arith.select
// CHECK: memref.store %[[KEPT]]#6, %{{.*}}[%c3, %[[COL]]]
// CHECK: return
func.func @topk_columns(%x: memref<64x2xf32>, %v: memref<4x2xf32>, %i: memref<4x2xi32>) {
  iree_linalg_ext.topk dimension(0) ins(%x : memref<64x2xf32>) outs(%v, %i : memref<4x2xf32>, memref<4x2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }
  return
}

// -----

// A dynamic k: the k kept stay in the outputs (the k-th read from memory), vectors still
// filter; topk_v2 the same, against the heap's root.
// CHECK-LABEL: func.func @topk_dynamic_k
// CHECK: vector.load
// CHECK: memref.load %{{.*}} : memref<?xf32>
// CHECK: vector.broadcast
// CHECK: scf.while
// CHECK-LABEL: func.func @topk_v2
// CHECK: vector.load
// CHECK: memref.load %{{.*}}[%c0] : memref<?xf32>
// CHECK: vector.broadcast
func.func @topk_dynamic_k(%x: memref<?xf32>, %v: memref<?xf32>, %i: memref<?xi32>) {
  iree_linalg_ext.topk dimension(0) ins(%x : memref<?xf32>) outs(%v, %i : memref<?xf32>, memref<?xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }
  return
}
func.func @topk_v2(%x: memref<?xf32>, %v: memref<?xf32>) {
  iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%x : memref<?xf32>) outs(%v : memref<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  }
  return
}
