// RUN: kiln-opt %s -split-input-file -kiln-split-long-reductions=cpu=true -cse | FileCheck %s

// Only CPU targets: a whole sum of 16M elements becomes 64 partials of 262144 (chunks of at
// least 65536 that grow to about 64 partials), one per chunk, then their combination.
// CHECK-LABEL: func.func @sum_16m
// CHECK-SAME: (%[[X:.*]]: tensor<16777216xf32>)
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: %[[CUT:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [64, 262144]
// CHECK: %[[PARTIALS:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%[[CUT]] : tensor<64x262144xf32>) outs(%{{.*}} : tensor<64xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[PARTIALS]] : tensor<64xf32>) outs(%[[INIT]] : tensor<f32>)
// CHECK: return %[[SUM]]
func.func @sum_16m(%x: tensor<16777216xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<16777216xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

// -----

// Shorter than two chunks of 65536: one workgroup reduces it whole, as before (on a GPU
// it would be 6 chunks of 16384).
// CHECK-LABEL: func.func @sum_100k
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.reduce
func.func @sum_100k(%x: tensor<100000xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<100000xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

// -----

// 64 long rows: the rows already spread over the workers (a GPU would split them).
// CHECK-LABEL: func.func @row_sums_64
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.reduce
func.func @row_sums_64(%x: tensor<64x262144xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.reduce ins(%x : tensor<64x262144xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<64xf32>
}

// -----

// A dynamic extent stays whole (a GPU would split it at run time): most are short, and
// split they would add two dispatches to every call.
// CHECK-LABEL: func.func @dynamic_sum
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.reduce
func.func @dynamic_sum(%x: tensor<?xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<?xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}
