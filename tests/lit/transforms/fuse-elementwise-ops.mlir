// RUN: kiln-opt %s -split-input-file -kiln-fuse-elementwise-ops | FileCheck %s

// A linear layer whose result is split into heads stays a matmul; the expand_shape stays
// after it (MLIR's linalg-fuse-elementwise-ops makes a generic with loops [8, 2, 4] x 16).
// CHECK-LABEL: func.func @matmul_into_heads
// CHECK: %[[MM:.*]] = linalg.matmul
// CHECK-SAME: -> tensor<8x8xf32>
// CHECK: %[[HEADS:.*]] = tensor.expand_shape %[[MM]] {{\[\[}}0], [1, 2]] output_shape [8, 2, 4]
// CHECK: return %[[HEADS]]
func.func @matmul_into_heads(%x: tensor<8x16xf32>, %w: tensor<8x16xf32>) -> tensor<8x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<8x16xf32>, tensor<8x16xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %h = tensor.expand_shape %y [[0], [1, 2]] output_shape [8, 2, 4] : tensor<8x8xf32> into tensor<8x2x4xf32>
  return %h : tensor<8x2x4xf32>
}

// -----

// Heads collapsed into a matmul's input: the collapse stays before the matmul.
// CHECK-LABEL: func.func @heads_into_matmul
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape
// CHECK: linalg.matmul {{.*}}ins(%[[FLAT]], %{{.*}} : tensor<8x8xf32>, tensor<4x8xf32>)
func.func @heads_into_matmul(%a: tensor<8x2x4xf32>, %w: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %flat = tensor.collapse_shape %a [[0], [1, 2]] : tensor<8x2x4xf32> into tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%flat, %w : tensor<8x8xf32>, tensor<4x8xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// -----

// Elementwise ops still fuse, and a reshape still moves through them.
// CHECK-LABEL: func.func @elementwise
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel"]
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]] : tensor<8x2x4xf32>
func.func @elementwise(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x2x4xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.addf %x, %y : f32
    linalg.yield %t : f32
  } -> tensor<8x8xf32>
  %sg = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.mulf %x, %x : f32
    linalg.yield %t : f32
  } -> tensor<8x8xf32>
  %h = tensor.expand_shape %sg [[0], [1, 2]] output_shape [8, 2, 4] : tensor<8x8xf32> into tensor<8x2x4xf32>
  return %h : tensor<8x2x4xf32>
}
