// RUN: kiln-opt %s -kiln-cpu-keep-flash-attention | FileCheck %s

// f32 attention without a mask, Q (b, m, k1), K (b, k2, k1), V (b, k2, n), O (b, m, n):
// kept whole for the CPU's flash lowering.
// CHECK-LABEL: func.func @plain
// CHECK: iree_linalg_ext.attention {{.*}}kiln.undecomposed
func.func @plain(%q: tensor<2x37x16xf32>, %k: tensor<2x50x16xf32>, %v: tensor<2x50x8xf32>) -> tensor<2x37x8xf32> {
  %scale = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<2x37x8xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale : tensor<2x37x16xf32>, tensor<2x50x16xf32>, tensor<2x50x8xf32>, f32)
      outs(%e : tensor<2x37x8xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x37x8xf32>
  return %o : tensor<2x37x8xf32>
}

// A mask, a score region on f16 values, f8 operands or a transposed output: left to the
// decomposition.
// CHECK-LABEL: func.func @masked
// CHECK-NOT: kiln.undecomposed
func.func @masked(%q: tensor<2x37x16xf32>, %k: tensor<2x50x16xf32>, %v: tensor<2x50x8xf32>, %mask: tensor<37x50xi1>) -> tensor<2x37x8xf32> {
  %scale = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<2x37x8xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (m, k2)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale, %mask : tensor<2x37x16xf32>, tensor<2x50x16xf32>, tensor<2x50x8xf32>, f32, tensor<37x50xi1>)
      outs(%e : tensor<2x37x8xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x37x8xf32>
  return %o : tensor<2x37x8xf32>
}

// f16 operands with a region that yields its score: kept (the flash loops widen them).
// CHECK-LABEL: func.func @half
// CHECK: iree_linalg_ext.attention {{.*}}kiln.undecomposed
func.func @half(%q: tensor<2x37x16xf16>, %k: tensor<2x50x16xf16>, %v: tensor<2x50x8xf16>) -> tensor<2x37x8xf16> {
  %scale = arith.constant 0.25 : f16
  %e = tensor.empty() : tensor<2x37x8xf16>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale : tensor<2x37x16xf16>, tensor<2x50x16xf16>, tensor<2x50x8xf16>, f16)
      outs(%e : tensor<2x37x8xf16>) {
  ^bb0(%s: f16):
    iree_linalg_ext.yield %s : f16
  } -> tensor<2x37x8xf16>
  return %o : tensor<2x37x8xf16>
}

// CHECK-LABEL: func.func @half_softcap
// CHECK-NOT: kiln.undecomposed
func.func @half_softcap(%q: tensor<2x37x16xf16>, %k: tensor<2x50x16xf16>, %v: tensor<2x50x8xf16>) -> tensor<2x37x8xf16> {
  %scale = arith.constant 0.25 : f16
  %e = tensor.empty() : tensor<2x37x8xf16>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale : tensor<2x37x16xf16>, tensor<2x50x16xf16>, tensor<2x50x8xf16>, f16)
      outs(%e : tensor<2x37x8xf16>) {
  ^bb0(%s: f16):
    %t = math.tanh %s : f16
    iree_linalg_ext.yield %t : f16
  } -> tensor<2x37x8xf16>
  return %o : tensor<2x37x8xf16>
}

// CHECK-LABEL: func.func @f8
// CHECK-NOT: kiln.undecomposed
func.func @f8(%q: tensor<2x37x16xf8E4M3FN>, %k: tensor<2x50x16xf8E4M3FN>, %v: tensor<2x50x8xf8E4M3FN>) -> tensor<2x37x8xf32> {
  %scale = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<2x37x8xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale : tensor<2x37x16xf8E4M3FN>, tensor<2x50x16xf8E4M3FN>, tensor<2x50x8xf8E4M3FN>, f32)
      outs(%e : tensor<2x37x8xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x37x8xf32>
  return %o : tensor<2x37x8xf32>
}

// CHECK-LABEL: func.func @transposed_output
// CHECK-NOT: kiln.undecomposed
func.func @transposed_output(%q: tensor<2x37x16xf32>, %k: tensor<2x50x16xf32>, %v: tensor<2x50x8xf32>) -> tensor<37x2x8xf32> {
  %scale = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<37x2x8xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (m, b, n)>]}
      ins(%q, %k, %v, %scale : tensor<2x37x16xf32>, tensor<2x50x16xf32>, tensor<2x50x8xf32>, f32)
      outs(%e : tensor<37x2x8xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<37x2x8xf32>
  return %o : tensor<37x2x8xf32>
}
