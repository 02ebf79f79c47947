// RUN: kiln-opt %s -kiln-elide-empty-computations | FileCheck %s

// An elementwise generic whose result has no elements becomes tensor.empty.
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT: linalg.generic
// CHECK: tensor.empty() : tensor<0x8xf32>
// CHECK-NEXT: %[[EMPTY:.*]] = tensor.empty() : tensor<0x8xf32>
// CHECK-NEXT: return %[[EMPTY]]
func.func @elementwise(%a: tensor<0x8xf32>) -> tensor<0x8xf32> {
  %e = tensor.empty() : tensor<0x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<0x8xf32>) outs(%e : tensor<0x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<0x8xf32>
  return %r : tensor<0x8xf32>
}

// A sort of lines of length 0 (both results empty): no sort is left to lower (on the GPU
// its kernel declared less workgroup memory than its host twin needed, and trapped).
// CHECK-LABEL: func.func @sort
// CHECK-NOT: iree_linalg_ext.sort
// CHECK-DAG: %[[KEYS:.*]] = tensor.empty() : tensor<3x0xf32>
// CHECK-DAG: %[[INDICES:.*]] = tensor.empty() : tensor<3x0xi32>
// CHECK: return %[[KEYS]], %[[INDICES]]
func.func @sort(%k: tensor<3x0xf32>, %i: tensor<3x0xi32>) -> (tensor<3x0xf32>, tensor<3x0xi32>) {
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%k, %i : tensor<3x0xf32>, tensor<3x0xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<3x0xf32>, tensor<3x0xi32>
  return %r#0, %r#1 : tensor<3x0xf32>, tensor<3x0xi32>
}

// A product over an empty depth has a result with elements (its fill): it stays.
// CHECK-LABEL: func.func @no_depth
// CHECK: linalg.fill
// CHECK: linalg.matmul
func.func @no_depth(%a: tensor<20x0xf32>, %b: tensor<0x40xf32>) -> tensor<20x40xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<20x40xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<20x40xf32>) -> tensor<20x40xf32>
  %r = linalg.matmul ins(%a, %b : tensor<20x0xf32>, tensor<0x40xf32>) outs(%f : tensor<20x40xf32>) -> tensor<20x40xf32>
  return %r : tensor<20x40xf32>
}

// Dynamic shapes may have elements: they stay.
// CHECK-LABEL: func.func @dynamic
// CHECK: math.exp
func.func @dynamic(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = math.exp %a : tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// Barriers and checks have effects of their own: they stay; the exp between them goes.
// CHECK-LABEL: func.func @barrier_and_check
// CHECK: %[[KEPT:.*]] = util.optimization_barrier
// CHECK-NOT: math.exp
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<0xf32>
// CHECK: check.expect_eq(%[[EMPTY]], %[[KEPT]])
func.func @barrier_and_check(%a: tensor<0xf32>) {
  %b = util.optimization_barrier %a : tensor<0xf32>
  %c = math.exp %b : tensor<0xf32>
  check.expect_eq(%c, %b) : tensor<0xf32>
  return
}
