// RUN: kiln-opt %s -split-input-file -kiln-widen-matmul-accumulators="f16=true bf16=true" | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kiln-widen-matmul-accumulators="f16=false bf16=true" | FileCheck %s --check-prefix=NATIVE

// An f16 matmul in a linear layer's layout sums in f32 from a widened fill, keeps its
// indexing maps, then rounds once. With f16=false (a target that adds f16) it stays.
// CHECK-LABEL: func.func @f16_transpose_b
// CHECK: %[[ZERO:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: %[[WIDE:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<4x16xf16>, tensor<8x16xf16>) outs(%[[INIT]] : tensor<4x8xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[WIDE]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf16>)
// CHECK:   arith.truncf %{{.*}} : f32 to f16
// CHECK: return %[[R]]
// NATIVE-LABEL: func.func @f16_transpose_b
// NATIVE: linalg.matmul {{.*}} outs(%{{.*}} : tensor<4x8xf16>)
// NATIVE-NOT: arith.truncf
func.func @f16_transpose_b(%x: tensor<4x16xf16>, %w: tensor<8x16xf16>) -> tensor<4x8xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x8xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<4x16xf16>, tensor<8x16xf16>) outs(%f : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

// A bf16 batch_matmul that accumulates into a given tensor (dynamic batch) widens that
// tensor elementwise and rounds into it.
// CHECK-LABEL: func.func @bf16_batch_into_c
// CHECK-SAME: %[[C:[a-z0-9]+]]: tensor<?x4x8xbf16>
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<?x4x8xbf16>) outs(%{{.*}} : tensor<?x4x8xf32>)
// CHECK:   arith.extf %{{.*}} : bf16 to f32
// CHECK: %[[WIDE:.*]] = linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<?x4x16xbf16>, tensor<?x16x8xbf16>) outs(%[[INIT]] : tensor<?x4x8xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[WIDE]] : tensor<?x4x8xf32>) outs(%[[C]] : tensor<?x4x8xbf16>)
// CHECK:   arith.truncf %{{.*}} : f32 to bf16
// CHECK: return %[[R]]
// NATIVE-LABEL: func.func @bf16_batch_into_c
// NATIVE: linalg.batch_matmul {{.*}} outs(%{{.*}} : tensor<?x4x8xf32>)
func.func @bf16_batch_into_c(%a: tensor<?x4x16xbf16>, %b: tensor<?x16x8xbf16>, %c: tensor<?x4x8xbf16>) -> tensor<?x4x8xbf16> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<?x4x16xbf16>, tensor<?x16x8xbf16>) outs(%c : tensor<?x4x8xbf16>) -> tensor<?x4x8xbf16>
  return %r : tensor<?x4x8xbf16>
}

// -----

// Left alone: sums that are already f32, inputs the cast to the output's type rounds
// (f32 into f16), integer inputs, and matmuls on buffers.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: arith.truncf
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x16xf16>, tensor<16x8xf16>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x16xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<4x8xf16>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x16xi8>, tensor<16x8xi8>) outs(%{{.*}} : tensor<4x8xf16>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x16xf16>, memref<16x8xf16>) outs(%{{.*}} : memref<4x8xf16>)
// CHECK-NOT: arith.truncf
func.func @unchanged(%a: tensor<4x16xf16>, %b: tensor<16x8xf16>, %c32: tensor<4x8xf32>, %a32: tensor<4x16xf32>,
                     %b32: tensor<16x8xf32>, %c16: tensor<4x8xf16>, %ai: tensor<4x16xi8>, %bi: tensor<16x8xi8>,
                     %ma: memref<4x16xf16>, %mb: memref<16x8xf16>, %mc: memref<4x8xf16>)
    -> (tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xf16>) {
  %0 = linalg.matmul ins(%a, %b : tensor<4x16xf16>, tensor<16x8xf16>) outs(%c32 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.matmul ins(%a32, %b32 : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c16 : tensor<4x8xf16>) -> tensor<4x8xf16>
  %2 = linalg.matmul ins(%ai, %bi : tensor<4x16xi8>, tensor<16x8xi8>) outs(%c16 : tensor<4x8xf16>) -> tensor<4x8xf16>
  linalg.matmul ins(%ma, %mb : memref<4x16xf16>, memref<16x8xf16>) outs(%mc : memref<4x8xf16>)
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xf16>
}

// -----

// 8-bit float inputs are exact in f16, so an f8 matmul into f16 sums in f32 too.
// CHECK-LABEL: func.func @f8_into_f16
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x16xf8E4M3FN>, tensor<16x8xf8E4M3FN>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @f8_into_f16(%a: tensor<4x16xf8E4M3FN>, %b: tensor<16x8xf8E4M3FN>, %c: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<4x16xf8E4M3FN>, tensor<16x8xf8E4M3FN>) outs(%c : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}
