// RUN: kiln-opt %s -split-input-file -kiln-widen-reduction-accumulators | FileCheck %s

// An f16 row sum accumulates in f32 from a widened fill, then rounds once.
// CHECK-LABEL: func.func @row_sum
// CHECK: %[[ZERO:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} outs(%[[INIT]] : tensor<2xf32>)
// CHECK: ^bb0(%[[X:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK:   %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f16
// CHECK:   %[[W:.*]] = arith.extf %[[SQ]] : f16 to f32
// CHECK:   %[[T:.*]] = arith.addf %[[W]], %[[ACC]] : f32
// CHECK:   linalg.yield %[[T]] : f32
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<2xf32>)
// CHECK:   arith.truncf %{{.*}} : f32 to f16
// CHECK: return %[[R]]
func.func @row_sum(%x: tensor<2x64xf16>) -> tensor<2xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<2xf16>) -> tensor<2xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x64xf16>) outs(%f : tensor<2xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %sq = arith.mulf %in, %in : f16
    %s = arith.addf %sq, %acc : f16
    linalg.yield %s : f16
  } -> tensor<2xf16>
  return %r : tensor<2xf16>
}

// -----

// Not widened: an f32 sum, and an f16 max (not a sum).
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
func.func @untouched(%x: tensor<64xf32>, %y: tensor<64xf16>, %a: tensor<f32>, %b: tensor<f16>) -> (tensor<f32>, tensor<f16>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<64xf32>) outs(%a : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%y : tensor<64xf16>) outs(%b : tensor<f16>) {
  ^bb0(%in: f16, %acc: f16):
    %s = arith.maximumf %in, %acc : f16
    linalg.yield %s : f16
  } -> tensor<f16>
  return %r, %m : tensor<f32>, tensor<f16>
}
