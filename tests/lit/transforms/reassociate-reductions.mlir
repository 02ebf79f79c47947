// RUN: kiln-opt %s -kiln-cpu-reassociate-reductions | FileCheck %s

// The op combining an element with the accumulator may be reassociated; the rest of the
// body keeps strict semantics, and ops without reduction loops are untouched.
// CHECK-LABEL: func.func @sum_of_squares
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK-LABEL: func.func @row_max
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK-LABEL: func.func @elementwise
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: fastmath
func.func @sum_of_squares(%x: memref<64xf32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : memref<64xf32>) outs(%out : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  }
  return
}

func.func @row_max(%x: memref<4x64xf32>, %out: memref<4xf32>) {
  linalg.reduce ins(%x : memref<4x64xf32>) outs(%out : memref<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maxnumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return
}

func.func @elementwise(%x: memref<64xf32>, %out: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<64xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %o : f32
    linalg.yield %s : f32
  }
  return
}
