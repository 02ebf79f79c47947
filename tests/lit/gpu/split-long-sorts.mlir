// RUN: kiln-opt %s -split-input-file -kiln-gpu-split-long-sorts -verify-diagnostics | FileCheck %s

// Lines of 20000 f32 keys and i32 values (beyond the 5457 an LDS line holds): runs of
// 4096 sorted on their own, then merge passes of runs of 4096, 8192 and 16384, one after
// another; each pass an elementwise generic whose element binary-searches the merge path
// of its pair of runs (left run first on ties) and reads its source with tensor.extract.
// CHECK-LABEL: func.func @long(
// CHECK-SAME: %[[KEYS:[a-z0-9]+]]: tensor<2x20000xf32>, %[[VALUES:[a-z0-9]+]]: tensor<2x20000xi32>
// CHECK: %[[RUNS:.*]]:2 = iree_linalg_ext.sort {kiln.sort_run_length = 4096 : i64} dimension(1) outs(%[[KEYS]], %[[VALUES]]
// CHECK: %[[N:.*]] = tensor.dim %[[KEYS]], %c1
// CHECK: %[[WIDTH:.*]] = arith.constant 4096 : index
// CHECK: %[[MERGED:.*]]:2 = linalg.generic {{.*}} outs(
// CHECK:   %[[LINE:.*]] = linalg.index 0
// CHECK:   %[[P:.*]] = linalg.index 1
// CHECK:   %[[PAIR:.*]] = arith.shli %[[WIDTH]], %c1
// CHECK:   %[[PAIR_INDEX:.*]] = arith.divui %[[P]], %[[PAIR]]
// CHECK:   %[[START:.*]] = arith.muli %[[PAIR_INDEX]], %[[PAIR]]
// CHECK:   %[[A_END_UNCLAMPED:.*]] = arith.addi %[[START]], %[[WIDTH]]
// CHECK:   %[[A_END:.*]] = arith.minui %[[A_END_UNCLAMPED]], %[[N]]
// CHECK:   scf.while
// CHECK:     arith.cmpi ult
// CHECK:   } do {
// CHECK:     %[[B:.*]] = tensor.extract %[[RUNS]]#0[%[[LINE]], %{{.*}}]
// CHECK:     %[[A:.*]] = tensor.extract %[[RUNS]]#0[%[[LINE]], %{{.*}}]
// CHECK:     %[[B_FIRST:.*]] = arith.cmpf olt, %[[B]], %[[A]]
// CHECK:     arith.select %[[B_FIRST]]
// CHECK:     scf.yield
// CHECK:   }
// CHECK:   %[[SOURCE:.*]] = arith.select
// CHECK:   %[[KEY:.*]] = tensor.extract %[[RUNS]]#0[%[[LINE]], %[[SOURCE]]]
// CHECK:   %[[VALUE:.*]] = tensor.extract %[[RUNS]]#1[%[[LINE]], %[[SOURCE]]]
// CHECK:   linalg.yield %[[KEY]], %[[VALUE]]
// CHECK: arith.constant 8192 : index
// CHECK: %[[MERGED_2:.*]]:2 = linalg.generic
// CHECK:   tensor.extract %[[MERGED]]#0
// CHECK: arith.constant 16384 : index
// CHECK: %[[MERGED_3:.*]]:2 = linalg.generic
// CHECK:   tensor.extract %[[MERGED_2]]#0
// CHECK-NOT: linalg.generic
// CHECK: return %[[MERGED_3]]#0, %[[MERGED_3]]#1
func.func @long(%keys: tensor<2x20000xf32>, %values: tensor<2x20000xi32>) -> (tensor<2x20000xf32>, tensor<2x20000xi32>) {
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%keys, %values : tensor<2x20000xf32>, tensor<2x20000xi32>) {
  ^bb0(%a: f32, %b: f32, %i: i32, %j: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<2x20000xf32>, tensor<2x20000xi32>
  return %r#0, %r#1 : tensor<2x20000xf32>, tensor<2x20000xi32>
}

// -----

// A length known only at run time may be long: a host loop of merge passes while the
// runs are shorter than the line (zero passes if it is one run). Keys alone (f32, 8188
// in LDS): runs of 4096.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[KEYS:[a-z0-9]+]]: tensor<?xf32>
// CHECK: %[[RUNS:.*]] = iree_linalg_ext.sort {kiln.sort_run_length = 4096 : i64} dimension(0) outs(%[[KEYS]]
// CHECK: %[[N:.*]] = tensor.dim %[[KEYS]], %c0
// CHECK: %[[PASSES:.*]]:2 = scf.while (%[[W:.*]] = %c4096, %{{.*}} = %[[RUNS]])
// CHECK:   arith.cmpi ult, %[[W]], %[[N]]
// CHECK: } do {
// CHECK: ^bb0(%[[WIDTH:.*]]: index, %[[K:.*]]: tensor<?xf32>):
// CHECK:   %[[NEXT:.*]] = arith.shli %[[WIDTH]]
// CHECK:   %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK:   %[[MERGED:.*]] = linalg.generic {{.*}} outs(%[[E]]
// CHECK:     arith.shli %[[WIDTH]]
// CHECK:     tensor.extract %[[K]]
// CHECK:   scf.yield %[[NEXT]], %[[MERGED]]
// CHECK: return %[[PASSES]]#1
func.func @dynamic(%keys: tensor<?xf32>) -> tensor<?xf32> {
  %r = iree_linalg_ext.sort dimension(0) outs(%keys : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Lines that fit in LDS keep the one-workgroup sort, unchanged and without a remark.
// CHECK-LABEL: func.func @short(
// CHECK: iree_linalg_ext.sort dimension(1)
// CHECK-NOT: kiln.sort_run_length
// CHECK-NOT: scf.while
func.func @short(%keys: tensor<7x1000xf32>) -> tensor<7x1000xf32> {
  %r = iree_linalg_ext.sort dimension(1) outs(%keys : tensor<7x1000xf32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<7x1000xf32>
  return %r : tensor<7x1000xf32>
}

// -----

// A comparator with control flow cannot be inlined into a merge pass: the sort stays.
// CHECK-LABEL: func.func @branching(
// CHECK-NOT: kiln.sort_run_length
func.func @branching(%keys: tensor<20000xf32>) -> tensor<20000xf32> {
  // expected-remark @below {{'iree_linalg_ext.sort' is not split into sorted runs and merge passes: its comparator computes 'scf.if'}}
  %r = iree_linalg_ext.sort dimension(0) outs(%keys : tensor<20000xf32>) {
  ^bb0(%a: f32, %b: f32):
    %nan = arith.cmpf uno, %a, %a : f32
    %lt = scf.if %nan -> i1 {
      %false = arith.constant false
      scf.yield %false : i1
    } else {
      %c = arith.cmpf olt, %a, %b : f32
      scf.yield %c : i1
    }
    iree_linalg_ext.yield %lt : i1
  } -> tensor<20000xf32>
  return %r : tensor<20000xf32>
}
