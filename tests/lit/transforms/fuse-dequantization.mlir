// RUN: kiln-opt %s -kiln-fuse-dequantization -split-input-file | FileCheck %s

// An int4 linear layer with group scales (groups of 32 along k): the dequantization joins
// the matmul, which reads the i4 weights and the scales itself.
// CHECK-LABEL: func.func @grouped_i4
// CHECK-SAME: (%[[X:.*]]: tensor<2x64xf32>, %[[W:.*]]: tensor<16x64xi4>, %[[S:.*]]: tensor<16x2xf32>
// CHECK-NOT: outs(%{{.*}} : tensor<16x64xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[W]], %[[S]] : tensor<2x64xf32>, tensor<16x64xi4>, tensor<16x2xf32>)
// CHECK: arith.extsi {{.*}} : i4 to i32
// CHECK: arith.sitofp
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: return %[[Y]]
func.func @grouped_i4(%x: tensor<2x64xf32>, %w: tensor<16x64xi4>, %scale: tensor<16x2xf32>) -> tensor<2x16xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %weights = linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (n, k floordiv 32)>, affine_map<(n, k) -> (n, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %scale : tensor<16x64xi4>, tensor<16x2xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%q: i4, %s: f32, %o: f32):
    %i = arith.extsi %q : i4 to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.mulf %f, %s : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<2x16xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<2x16xf32>) -> tensor<2x16xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %weights : tensor<2x64xf32>, tensor<16x64xf32>) outs(%fy : tensor<2x16xf32>) -> tensor<2x16xf32>
  return %y : tensor<2x16xf32>
}

// -----

// Used by two contractions (the gate and up projections of an MLP share nothing, but one
// weight may feed two products): fused into both; the dequantized tensor is gone.
// CHECK-LABEL: func.func @two_products
// CHECK-NOT: outs(%{{.*}} : tensor<8x32xf32>)
// CHECK-COUNT-2: ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<{{.*}}xf32>, tensor<8x32xi8>, tensor<8xf32>)
func.func @two_products(%a: tensor<1x32xf32>, %b: tensor<4x32xf32>, %w: tensor<8x32xi8>, %scale: tensor<8xf32>) -> (tensor<1x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<8x32xf32>
  %weights = linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (n)>, affine_map<(n, k) -> (n, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %scale : tensor<8x32xi8>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%q: i8, %s: f32, %o: f32):
    %f = arith.sitofp %q : i8 to f32
    %v = arith.mulf %f, %s : f32
    linalg.yield %v : f32
  } -> tensor<8x32xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8xf32>) -> tensor<1x8xf32>
  %y1 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %weights : tensor<1x32xf32>, tensor<8x32xf32>) outs(%f1 : tensor<1x8xf32>) -> tensor<1x8xf32>
  %e4 = tensor.empty() : tensor<4x8xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y4 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%b, %weights : tensor<4x32xf32>, tensor<8x32xf32>) outs(%f4 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y1, %y4 : tensor<1x8xf32>, tensor<4x8xf32>
}

// -----

// A dequantized tensor that is also returned stays (its copy is asked for), and the
// matmul keeps reading it.
// CHECK-LABEL: func.func @also_returned
// CHECK: %[[W:.*]] = linalg.generic
// CHECK: } -> tensor<8x32xf32>
// CHECK: linalg.matmul {{.*}} ins(%{{.*}}, %[[W]]
func.func @also_returned(%a: tensor<1x32xf32>, %w: tensor<8x32xi8>, %scale: tensor<8xf32>) -> (tensor<1x8xf32>, tensor<8x32xf32>) {
  %e = tensor.empty() : tensor<8x32xf32>
  %weights = linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (n)>, affine_map<(n, k) -> (n, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %scale : tensor<8x32xi8>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%q: i8, %s: f32, %o: f32):
    %f = arith.sitofp %q : i8 to f32
    %v = arith.mulf %f, %s : f32
    linalg.yield %v : f32
  } -> tensor<8x32xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8xf32>) -> tensor<1x8xf32>
  %y1 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %weights : tensor<1x32xf32>, tensor<8x32xf32>) outs(%f1 : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %y1, %weights : tensor<1x8xf32>, tensor<8x32xf32>
}

// -----

// A prefill (128 rows) keeps the dequantization: the matmul kernels then run on f32 W.
// CHECK-LABEL: func.func @prefill
// CHECK: %[[W:.*]] = linalg.generic
// CHECK: linalg.matmul {{.*}} ins(%{{.*}}, %[[W]]
func.func @prefill(%a: tensor<128x32xf32>, %w: tensor<8x32xi8>, %scale: tensor<8xf32>) -> tensor<128x8xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %weights = linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (n)>, affine_map<(n, k) -> (n, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %scale : tensor<8x32xi8>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%q: i8, %s: f32, %o: f32):
    %f = arith.sitofp %q : i8 to f32
    %v = arith.mulf %f, %s : f32
    linalg.yield %v : f32
  } -> tensor<8x32xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<128x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<128x8xf32>) -> tensor<128x8xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %weights : tensor<128x32xf32>, tensor<8x32xf32>) outs(%f1 : tensor<128x8xf32>) -> tensor<128x8xf32>
  return %y : tensor<128x8xf32>
}

// -----

// Blocks (GGUF's Q8_0: [N, blocks, 32] values and a scale per block) dequantized and then
// collapsed to [N, K] for the product: the product is expanded through the collapse (its
// k loop becomes (block, element), x is reshaped to [M, blocks, 32]) and the
// dequantization fused into it; nothing dequantized is left. Two functions in one module:
// each fused product stays in its own function.
// CHECK-LABEL: func.func @blocks
// CHECK-SAME: (%[[X:.*]]: tensor<1x64xf32>, %[[Q:.*]]: tensor<8x2x32xi8>, %[[D:.*]]: tensor<8x2xf16>
// CHECK: %[[XB:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [1, 2, 32]
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[XB]], %[[Q]], %[[D]] : tensor<1x2x32xf32>, tensor<8x2x32xi8>, tensor<8x2xf16>)
// CHECK: return %[[Y]]
// CHECK-LABEL: func.func @blocks_again
// CHECK: %[[Y2:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x2x32xf32>, tensor<8x2x32xi8>, tensor<8x2xf16>)
// CHECK: return %[[Y2]]
func.func @blocks(%x: tensor<1x64xf32>, %q: tensor<8x2x32xi8>, %d: tensor<8x2xf16>) -> tensor<1x8xf32> {
  %e = tensor.empty() : tensor<8x2x32xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(n, b, t) -> (n, b, t)>, affine_map<(n, b, t) -> (n, b)>, affine_map<(n, b, t) -> (n, b, t)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q, %d : tensor<8x2x32xi8>, tensor<8x2xf16>) outs(%e : tensor<8x2x32xf32>) {
  ^bb0(%qv: i8, %dv: f16, %o: f32):
    %i = arith.sitofp %qv : i8 to f32
    %s = arith.extf %dv : f16 to f32
    %v = arith.mulf %i, %s : f32
    linalg.yield %v : f32
  } -> tensor<8x2x32xf32>
  %wk = tensor.collapse_shape %w [[0], [1, 2]] : tensor<8x2x32xf32> into tensor<8x64xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<1x8xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<1x8xf32>) -> tensor<1x8xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wk : tensor<1x64xf32>, tensor<8x64xf32>) outs(%fy : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}
func.func @blocks_again(%x: tensor<4x64xf32>, %q: tensor<8x2x32xi8>, %d: tensor<8x2xf16>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<8x2x32xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(n, b, t) -> (n, b, t)>, affine_map<(n, b, t) -> (n, b)>, affine_map<(n, b, t) -> (n, b, t)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q, %d : tensor<8x2x32xi8>, tensor<8x2xf16>) outs(%e : tensor<8x2x32xf32>) {
  ^bb0(%qv: i8, %dv: f16, %o: f32):
    %i = arith.sitofp %qv : i8 to f32
    %s = arith.extf %dv : f16 to f32
    %v = arith.mulf %i, %s : f32
    linalg.yield %v : f32
  } -> tensor<8x2x32xf32>
  %wk = tensor.collapse_shape %w [[0], [1, 2]] : tensor<8x2x32xf32> into tensor<8x64xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<4x8xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wk : tensor<4x64xf32>, tensor<8x64xf32>) outs(%fy : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
