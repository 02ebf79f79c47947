// RUN: kiln-opt %s -split-input-file -kiln-gpu-keep-flash-attention -verify-diagnostics | FileCheck %s
// RUN: kiln-opt %s -kiln-gpu-keep-flash-attention=cpu-too -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=CPU
// RUN: kiln-opt %s -kiln-gpu-keep-flash-attention=cpu-too -split-input-file 2>/dev/null | FileCheck %s --check-prefix=CPU-IR

// Batch loops (two), a query row, dot product, key and value loop, a float mask
// broadcast over one batch loop, f16 operands: kept whole for the flash strategy.
// CHECK-LABEL: func.func @kept(
// CHECK: iree_linalg_ext.attention
// CHECK-SAME: kiln.undecomposed
// With the CPU among the targets, it is decomposed for all of them.
// CPU: remark: 'iree_linalg_ext.attention' is decomposed and runs per work-item on the GPU, without flash tiles through LDS: the CPU is a target too, and the CPU decomposes it
// CPU-IR-LABEL: func.func @kept(
// CPU-IR-NOT: kiln.undecomposed
func.func @kept(%q: tensor<2x3x10x32xf16>, %k: tensor<2x3x20x32xf16>, %v: tensor<2x3x20x16xf16>, %mask: tensor<3x10x20xf32>) -> tensor<2x3x10x16xf16> {
  %scale = arith.constant 0.5 : f16
  %e = tensor.empty() : tensor<2x3x10x16xf16>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(a, b, m, k1, k2, n) -> (a, b, m, k1)>,
                                                   affine_map<(a, b, m, k1, k2, n) -> (a, b, k2, k1)>,
                                                   affine_map<(a, b, m, k1, k2, n) -> (a, b, k2, n)>,
                                                   affine_map<(a, b, m, k1, k2, n) -> ()>,
                                                   affine_map<(a, b, m, k1, k2, n) -> (b, m, k2)>,
                                                   affine_map<(a, b, m, k1, k2, n) -> (a, b, m, n)>]}
      ins(%q, %k, %v, %scale, %mask : tensor<2x3x10x32xf16>, tensor<2x3x20x32xf16>, tensor<2x3x20x16xf16>, f16, tensor<3x10x20xf32>)
      outs(%e : tensor<2x3x10x16xf16>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x10x16xf16>
  return %o : tensor<2x3x10x16xf16>
}

// -----

// A head size known only at run time: decomposed, with a remark.
// CHECK-LABEL: func.func @dynamic_head(
// CHECK-NOT: kiln.undecomposed
func.func @dynamic_head(%q: tensor<4x?xf32>, %k: tensor<6x?xf32>, %v: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %scale = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+1 {{'iree_linalg_ext.attention' is decomposed and runs per work-item on the GPU, without flash tiles through LDS: its head sizes are not static and at most 256}}
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(m, k1, k2, n) -> (m, k1)>, affine_map<(m, k1, k2, n) -> (k2, k1)>,
                                                   affine_map<(m, k1, k2, n) -> (k2, n)>, affine_map<(m, k1, k2, n) -> ()>,
                                                   affine_map<(m, k1, k2, n) -> (m, n)>]}
      ins(%q, %k, %v, %scale : tensor<4x?xf32>, tensor<6x?xf32>, tensor<6x8xf32>, f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// Two query row loops (m1, m2, the output's and Q's but not K's).
func.func @two_rows(%q: tensor<2x4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x8xf32>) -> tensor<2x4x8xf32> {
  %scale = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<2x4x8xf32>
  // expected-remark @+1 {{'iree_linalg_ext.attention' is decomposed and runs per work-item on the GPU, without flash tiles through LDS: it has other than one query row, dot product, key and value loop}}
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(m1, m2, k1, k2, n) -> (m1, m2, k1)>, affine_map<(m1, m2, k1, k2, n) -> (k2, k1)>,
                                                   affine_map<(m1, m2, k1, k2, n) -> (k2, n)>, affine_map<(m1, m2, k1, k2, n) -> ()>,
                                                   affine_map<(m1, m2, k1, k2, n) -> (m1, m2, n)>]}
      ins(%q, %k, %v, %scale : tensor<2x4x8xf32>, tensor<6x8xf32>, tensor<6x8xf32>, f32) outs(%e : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// An 8-bit Q (its scores are scaled after the region): decomposed, with a remark.
func.func @f8_query(%q: tensor<4x8xf8E4M3FNUZ>, %k: tensor<6x8xf32>, %v: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %scale = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+1 {{its Q, K or V elements have 8 bits or fewer, or more than 32}}
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(m, k1, k2, n) -> (m, k1)>, affine_map<(m, k1, k2, n) -> (k2, k1)>,
                                                   affine_map<(m, k1, k2, n) -> (k2, n)>, affine_map<(m, k1, k2, n) -> ()>,
                                                   affine_map<(m, k1, k2, n) -> (m, n)>]}
      ins(%q, %k, %v, %scale : tensor<4x8xf8E4M3FNUZ>, tensor<6x8xf32>, tensor<6x8xf32>, f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// K as a view of a cache (a slice of a function argument, which becomes a binding): kept
// whole, the kernel reads through the view. A slice of a slice is not read through.
// CHECK-LABEL: func.func @sliced_keys(
// CHECK: iree_linalg_ext.attention {{.*}}kiln.undecomposed
func.func @sliced_keys(%q: tensor<4x8xf32>, %cache: tensor<100x8xf32>, %v: tensor<6x8xf32>, %at: index) -> tensor<4x8xf32> {
  %scale = arith.constant 1.0 : f32
  %k = tensor.extract_slice %cache[%at, 0] [6, 8] [1, 1] : tensor<100x8xf32> to tensor<6x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(m, k1, k2, n) -> (m, k1)>, affine_map<(m, k1, k2, n) -> (k2, k1)>,
                                                   affine_map<(m, k1, k2, n) -> (k2, n)>, affine_map<(m, k1, k2, n) -> ()>,
                                                   affine_map<(m, k1, k2, n) -> (m, n)>]}
      ins(%q, %k, %v, %scale : tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x8xf32>, f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @twice_sliced_keys(
// CHECK-NOT: kiln.undecomposed
func.func @twice_sliced_keys(%q: tensor<4x8xf32>, %cache: tensor<100x8xf32>, %v: tensor<6x8xf32>, %at: index) -> tensor<4x8xf32> {
  %scale = arith.constant 1.0 : f32
  %rows = tensor.extract_slice %cache[%at, 0] [12, 8] [1, 1] : tensor<100x8xf32> to tensor<12x8xf32>
  %k = tensor.extract_slice %rows[0, 0] [6, 8] [2, 1] : tensor<12x8xf32> to tensor<6x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+1 {{an operand is a slice of a 'tensor.extract_slice'}}
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(m, k1, k2, n) -> (m, k1)>, affine_map<(m, k1, k2, n) -> (k2, k1)>,
                                                   affine_map<(m, k1, k2, n) -> (k2, n)>, affine_map<(m, k1, k2, n) -> ()>,
                                                   affine_map<(m, k1, k2, n) -> (m, n)>]}
      ins(%q, %k, %v, %scale : tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x8xf32>, f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
