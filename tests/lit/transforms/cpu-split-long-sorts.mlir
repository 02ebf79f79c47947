// RUN: kiln-opt %s -split-input-file -kiln-cpu-split-long-sorts | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kiln-cpu-split-long-sorts=runs=4 | FileCheck %s --check-prefix=FOUR
// RUN: not kiln-opt %s -kiln-cpu-split-long-sorts=runs=3 2>&1 | FileCheck %s --check-prefix=BAD

// A static line of 2^20 keys and indices: the runs sort (fresh outputs from the original
// operands), then one merge pass of the two runs; the comparator is kept in both.
// CHECK-LABEL: func.func @long(
// CHECK-SAME: %[[KEYS:[a-z0-9]+]]: tensor<1048576xf32>, %[[VALUES:[a-z0-9]+]]: tensor<1048576xi32>
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<1048576xf32>
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<1048576xi32>
// CHECK: %[[RUNS:.*]]:2 = iree_linalg_ext.sort {kiln.sort_run_count = 2 : i64} dimension(0) ins(%[[KEYS]], %[[VALUES]] : {{.*}}) outs(%[[E0]], %[[E1]] :
// CHECK:   arith.cmpf olt
// CHECK: %[[MERGED:.*]]:2 = iree_linalg_ext.sort {kiln.sort_merge = array<i64: 2, 1>} dimension(0) ins(%[[RUNS]]#0, %[[RUNS]]#1 : {{.*}}) outs(
// CHECK:   arith.cmpf olt
// CHECK: return %[[MERGED]]#0, %[[MERGED]]#1
// FOUR-LABEL: func.func @long(
// FOUR: iree_linalg_ext.sort {kiln.sort_run_count = 4 : i64}
// FOUR: iree_linalg_ext.sort {kiln.sort_merge = array<i64: 4, 1>}
// FOUR: iree_linalg_ext.sort {kiln.sort_merge = array<i64: 4, 2>}
// FOUR-NOT: iree_linalg_ext.sort
// BAD: runs must be a power of two of at least 2, got 3
func.func @long(%keys: tensor<1048576xf32>, %values: tensor<1048576xi32>) -> (tensor<1048576xf32>, tensor<1048576xi32>) {
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %values : tensor<1048576xf32>, tensor<1048576xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<1048576xf32>, tensor<1048576xi32>
  return %r#0, %r#1 : tensor<1048576xf32>, tensor<1048576xi32>
}

// -----

// A dynamic length is split too (the run length follows it at run time), and so is one
// line of a rank-2 tensor whose other dimension is 1.
// CHECK-LABEL: func.func @dynamic(
// FOUR-LABEL: func.func @dynamic(
// CHECK: %[[DIM:.*]] = tensor.dim
// CHECK: tensor.empty(%[[DIM]]) : tensor<?xi32>
// CHECK: iree_linalg_ext.sort {kiln.sort_run_count = 2 : i64} dimension(0) ins(
// CHECK: iree_linalg_ext.sort {kiln.sort_merge = array<i64: 2, 1>} dimension(0) ins(
func.func @dynamic(%keys: tensor<?xi32>) -> tensor<?xi32> {
  %r = iree_linalg_ext.sort dimension(0) outs(%keys : tensor<?xi32>) {
  ^bb0(%a: i32, %b: i32):
    %gt = arith.cmpi sgt, %a, %b : i32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// CHECK-LABEL: func.func @one_row(
// CHECK: iree_linalg_ext.sort {kiln.sort_run_count = 2 : i64} dimension(1) ins(
// CHECK: iree_linalg_ext.sort {kiln.sort_merge = array<i64: 2, 1>} dimension(1) ins(
func.func @one_row(%keys: tensor<1x200000xf32>) -> tensor<1x200000xf32> {
  %r = iree_linalg_ext.sort dimension(1) outs(%keys : tensor<1x200000xf32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<1x200000xf32>
  return %r : tensor<1x200000xf32>
}

// -----

// Left alone: a static line below min-length (131072), and several lines (the workgroups
// already share them out by line).
// CHECK-LABEL: func.func @short_or_many(
// CHECK: iree_linalg_ext.sort dimension(0) outs(
// CHECK: iree_linalg_ext.sort dimension(1) outs(
// CHECK-NOT: kiln.sort
func.func @short_or_many(%a: tensor<100000xf32>, %b: tensor<2x200000xf32>) -> (tensor<100000xf32>, tensor<2x200000xf32>) {
  %r = iree_linalg_ext.sort dimension(0) outs(%a : tensor<100000xf32>) {
  ^bb0(%x: f32, %y: f32):
    %lt = arith.cmpf olt, %x, %y : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<100000xf32>
  %s = iree_linalg_ext.sort dimension(1) outs(%b : tensor<2x200000xf32>) {
  ^bb0(%x: f32, %y: f32):
    %lt = arith.cmpf olt, %x, %y : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<2x200000xf32>
  return %r, %s : tensor<100000xf32>, tensor<2x200000xf32>
}
