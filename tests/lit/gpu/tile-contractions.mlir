// RUN: kiln-opt %s -split-input-file -kiln-gpu-tile-contractions -verify-diagnostics | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kiln-gpu-tile-contractions="mfma=true mfma-i8-depth=16 mfma-f8=true" -verify-diagnostics | FileCheck %s --check-prefix=MFMA
// RUN: kiln-opt %s -split-input-file -kiln-gpu-tile-contractions="mfma=true mfma-i8-depth=8" -verify-diagnostics | FileCheck %s --check-prefix=GFX90A
// RUN: kiln-opt %s -split-input-file -kiln-gpu-tile-contractions="wmma=true" -verify-diagnostics | FileCheck %s --check-prefix=WMMA

// With MFMAs, each wave's 32x32 block takes tile_k / k MFMAs per step (f32: 16 / 2), its
// accumulator 16 values per lane.
// MFMA-LABEL: func.func @mm(
// MFMA: memref.alloca() : memref<16xf32>
// MFMA: gpu.barrier
// MFMA-COUNT-8: amdgpu.mfma 32x32x2
// MFMA: gpu.barrier
// MFMA-LABEL: func.func @mm_f16(
// MFMA: gpu.barrier
// MFMA-COUNT-4: amdgpu.mfma 32x32x8
// MFMA-NOT: amdgpu.mfma
// MFMA: gpu.barrier
// MFMA-LABEL: func.func @mm_i8(
// MFMA: memref.alloc() : memref<64x32xi8, #gpu.address_space<workgroup>>
// MFMA: memref.alloca() : memref<16xi32>
// MFMA-COUNT-2: amdgpu.mfma 32x32x16 {{.*}} : vector<8xi8>, vector<8xi8>, vector<16xi32>
// f8 (FNUZ, gfx942 only): 32-deep LDS steps of 32x32x16 MFMAs, 8 values (64 bits) per lane
// and operand; the two formats may be mixed.
// MFMA-LABEL: func.func @mm_f8(
// MFMA: memref.alloc() : memref<64x32xf8E4M3FNUZ, #gpu.address_space<workgroup>>
// MFMA: memref.alloca() : memref<16xf32>
// MFMA: gpu.barrier
// MFMA-COUNT-2: amdgpu.mfma 32x32x16 {{.*}} : vector<8xf8E4M3FNUZ>, vector<8xf8E4M3FNUZ>, vector<16xf32>
// MFMA-NOT: amdgpu.mfma
// MFMA: gpu.barrier
// MFMA-LABEL: func.func @mm_f8_mixed(
// MFMA-COUNT-2: amdgpu.mfma 32x32x16 {{.*}} : vector<8xf8E5M2FNUZ>, vector<8xf8E4M3FNUZ>, vector<16xf32>
// MFMA-LABEL: func.func @mm_f8_fn(
// MFMA-NOT: amdgpu.mfma
// MFMA: linalg.generic

// gfx90a has MFMAs of depth 8 for i8 and none for f8 (SIMT register tiles).
// GFX90A-LABEL: func.func @mm_i8(
// GFX90A-COUNT-4: amdgpu.mfma 32x32x8 {{.*}} : vector<4xi8>, vector<4xi8>, vector<16xi32>
// GFX90A-LABEL: func.func @mm_f8(
// GFX90A-NOT: amdgpu.mfma
// GFX90A: memref.alloca() : memref<4x4xf32>

// WMMA (gfx1100, wave32): eight waves of 16 x 32 blocks, each two 16x16 accumulators of
// 8 values per lane sharing the A fragment (16 values of one row per lane); tile_k / 16
// steps of two WMMAs, in a k loop LLVM must not unroll. f32 and f8 keep SIMT tiles.
// WMMA-LABEL: func.func @mm(
// WMMA-NOT: amdgpu.wmma
// WMMA: vector.contract
// WMMA-LABEL: func.func @mm_f16(
// WMMA-DAG: %[[LDS_A:.*]] = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// WMMA-DAG: %[[LDS_B:.*]] = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// WMMA-DAG: %[[ACC:.*]] = memref.alloca() : memref<16xf32>
// WMMA: gpu.barrier
// WMMA-DAG: vector.load %[[ACC]][%c0] : memref<16xf32>, vector<8xf32>
// WMMA-DAG: vector.load %[[ACC]][%c8] : memref<16xf32>, vector<8xf32>
// WMMA: %[[A0:.*]] = vector.load %[[LDS_A]][%{{.*}}, %c0] : {{.*}}, vector<16xf16>
// WMMA: vector.load %[[LDS_B]][%{{.*}}, %c0] : {{.*}}, vector<16xf16>
// WMMA: amdgpu.wmma 16x16x16 %[[A0]] * {{.*}} : vector<16xf16>, vector<16xf16>, vector<8xf32>
// WMMA: vector.load %[[LDS_B]][%{{.*}}, %c0] : {{.*}}, vector<16xf16>
// WMMA: amdgpu.wmma 16x16x16 %[[A0]] * {{.*}} : vector<16xf16>, vector<16xf16>, vector<8xf32>
// WMMA: vector.load %[[LDS_A]][%{{.*}}, %c16] : {{.*}}, vector<16xf16>
// WMMA-COUNT-2: amdgpu.wmma 16x16x16
// WMMA-NOT: amdgpu.wmma
// WMMA: gpu.barrier
// WMMA: } {llvm.loop_annotation = #[[NO_UNROLL:.*]]}
// WMMA-DAG: #[[DISABLE:.*]] = #llvm.loop_unroll<disable = true>
// WMMA-DAG: #[[NO_UNROLL]] = #llvm.loop_annotation<unroll = #[[DISABLE]]>
// WMMA-LABEL: func.func @mm_i8(
// WMMA-COUNT-4: amdgpu.wmma 16x16x16 {{.*}} : vector<16xi8>, vector<16xi8>, vector<8xi32>
// WMMA-LABEL: func.func @mm_f8(
// WMMA-NOT: amdgpu.wmma
// WMMA: memref.alloca() : memref<4x4xf32>

// A 130x100x70 f32 matmul: 64x64 output tiles per workgroup of 256 work-items, each with a
// 4x4 register tile (private); 16-deep k-slices of both operands staged through LDS
// between two barriers with 128-bit loads (element by element at the unaligned edges);
// the fill initialises the register tile. The register tile's product goes 4 depths at a
// time, its operands the tile's rows and columns (not broadcast), in a k loop LLVM must
// not unroll (unrolled, gfx1100 hoisted every step's LDS reads: 256 VGPRs and scratch).
// CHECK-LABEL: func.func @mm(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<130x70xf32>, %[[B:[a-z0-9]+]]: memref<70x100xf32>, %[[C:[a-z0-9]+]]: memref<130x100xf32>, %[[ID:[a-z0-9]+]]: index, %[[COUNT:[a-z0-9]+]]: index)
// CHECK-SAME: kiln.distributed
// CHECK-SAME: kiln.gpu.workgroup_size = array<i32: 256, 1, 1>
// CHECK-SAME: kiln.gpu.workgroup_workers
// CHECK-DAG: %[[LDS_A:.*]] = memref.alloc() : memref<16x64xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[LDS_B:.*]] = memref.alloc() : memref<16x64xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[ACC:.*]] = memref.alloca() : memref<4x4xf32>
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// CHECK: scf.for %[[TILE:.*]] = %[[ID]] to %{{.*}} step %[[COUNT]]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[ACC]] : memref<4x4xf32>)
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c70 step %c16
// CHECK: scf.if %{{.*}} -> (vector<4xf32>)
// CHECK: vector.load %[[A]]{{.*}} : memref<130x70xf32>, vector<4xf32>
// CHECK: } else {
// CHECK: memref.load %[[A]]
// CHECK: memref.store %{{.*}}, %[[LDS_A]]
// CHECK: scf.if %{{.*}} -> (vector<4xf32>)
// CHECK: vector.load %[[B]]{{.*}} : memref<70x100xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}}, %[[LDS_B]]
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c4
// CHECK: vector.contract {{.*}} : vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>
// CHECK: vector.transfer_write %{{.*}}, %[[ACC]]
// CHECK: gpu.barrier
// CHECK: } {llvm.loop_annotation = #{{.*}}}
// CHECK: scf.if
// CHECK: memref.load %[[ACC]]
// CHECK: memref.store %{{.*}}, %[[C]]
// CHECK-NOT: linalg.matmul
module @kiln_executable attributes {kiln.executable} {
  func.func @mm(%a: memref<130x70xf32>, %b: memref<70x100xf32>, %c: memref<130x100xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64, kiln.workgroup_strategy = "gpu.workgroup_contraction"} {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<130x100xf32>)
    linalg.matmul {kiln.root} ins(%a, %b : memref<130x70xf32>, memref<70x100xf32>) outs(%c : memref<130x100xf32>)
    return
  }
}

// -----

// f16 operands: 32-deep k-slices (the same LDS bytes), the products' extensions kept.
// CHECK-LABEL: func.func @mm_f16(
// CHECK-DAG: memref.alloc() : memref<32x64xf16, #gpu.address_space<workgroup>>
// CHECK: arith.extf {{.*}} to vector<
// CHECK: vector.contract
module @kiln_executable attributes {kiln.executable} {
  func.func @mm_f16(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64, kiln.workgroup_strategy = "gpu.workgroup_contraction"} {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
    linalg.matmul {kiln.root} ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
    return
  }
}

// -----

// The output is also read after the product: a work-item's tile would not be the whole
// story, so the dispatch stays on one work-item, and says so.
// CHECK-LABEL: func.func @mm_reread(
// CHECK: linalg.matmul
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'mm_reread' runs on one work-item: its output is also used by 'memref.copy'}}
  func.func @mm_reread(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>, %d: memref<8x8xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64, kiln.workgroup_strategy = "gpu.workgroup_contraction"} {
    linalg.matmul {kiln.root} ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
    memref.copy %c, %d : memref<8x8xf32> to memref<8x8xf32>
    return
  }
}

// -----

// i8 into i32: SIMT tiles without MFMA; 32x32x16 MFMAs with mfma-i8-depth = 16.
// CHECK-LABEL: func.func @mm_i8(
// CHECK: vector.contract
module @kiln_executable attributes {kiln.executable} {
  func.func @mm_i8(%a: memref<64x64xi8>, %b: memref<64x64xi8>, %c: memref<64x64xi32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64, kiln.workgroup_strategy = "gpu.workgroup_contraction"} {
    %zero = arith.constant 0 : i32
    linalg.fill ins(%zero : i32) outs(%c : memref<64x64xi32>)
    linalg.matmul {kiln.root} ins(%a, %b : memref<64x64xi8>, memref<64x64xi8>) outs(%c : memref<64x64xi32>)
    return
  }
}

// -----

module @kiln_executable attributes {kiln.executable} {
  func.func @mm_f8(%a: memref<64x64xf8E4M3FNUZ>, %b: memref<64x64xf8E4M3FNUZ>, %c: memref<64x64xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64, kiln.workgroup_strategy = "gpu.workgroup_contraction"} {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
    linalg.matmul {kiln.root} ins(%a, %b : memref<64x64xf8E4M3FNUZ>, memref<64x64xf8E4M3FNUZ>) outs(%c : memref<64x64xf32>)
    return
  }
}

// -----

module @kiln_executable attributes {kiln.executable} {
  func.func @mm_f8_mixed(%a: memref<64x64xf8E5M2FNUZ>, %b: memref<64x64xf8E4M3FNUZ>, %c: memref<64x64xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64, kiln.workgroup_strategy = "gpu.workgroup_contraction"} {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
    linalg.matmul {kiln.root} ins(%a, %b : memref<64x64xf8E5M2FNUZ>, memref<64x64xf8E4M3FNUZ>) outs(%c : memref<64x64xf32>)
    return
  }
}

// -----

// The OCP formats (f8E4M3FN) have no MFMA on gfx942: SIMT tiles.
module @kiln_executable attributes {kiln.executable} {
  func.func @mm_f8_fn(%a: memref<64x64xf8E4M3FN>, %b: memref<64x64xf8E4M3FN>, %c: memref<64x64xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64, kiln.workgroup_strategy = "gpu.workgroup_contraction"} {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
    linalg.matmul {kiln.root} ins(%a, %b : memref<64x64xf8E4M3FN>, memref<64x64xf8E4M3FN>) outs(%c : memref<64x64xf32>)
    return
  }
}

// -----

// A convolution as an implicit GEMM: m is (n, oh, ow) = 2 x 7 x 7 flattened, k is
// (kh, kw, c) = 3 x 3 x 8; the input is staged into LDS through its map (oh * 2 + kh with
// the stride) with 128-bit loads along its channels, and the output is written through
// the delinearised rows.
// CHECK-LABEL: func.func @conv(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<2x16x16x8xf32>, %[[W:[a-z0-9]+]]: memref<3x3x8x24xf32>, %[[Y:[a-z0-9]+]]: memref<2x7x7x24xf32>
// CHECK-DAG: %[[LDS_X:.*]] = memref.alloc() : memref<16x64xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[LDS_W:.*]] = memref.alloc() : memref<16x64xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} = %c0 to %c72 step %c16
// CHECK: arith.muli %{{.*}}, %c2
// CHECK: vector.load %[[X]][{{.*}}] : memref<2x16x16x8xf32>, vector<4xf32>
// CHECK: memref.store %{{.*}}, %[[LDS_X]]
// CHECK: vector.load %[[W]][{{.*}}] : memref<3x3x8x24xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}}, %[[LDS_W]]
// CHECK: gpu.barrier
// CHECK: vector.contract
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK-NOT: linalg.conv
// MFMA-LABEL: func.func @conv(
// MFMA-COUNT-8: amdgpu.mfma 32x32x2
module @kiln_executable attributes {kiln.executable} {
  func.func @conv(%x: memref<2x16x16x8xf32>, %w: memref<3x3x8x24xf32>, %y: memref<2x7x7x24xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1, -1, -1>, array<i64: -1, -1, -1, -1>, array<i64: -1, -1, -1, -1>], kiln.input_count = 2 : i64, kiln.workgroup_strategy = "gpu.workgroup_contraction"} {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%y : memref<2x7x7x24xf32>)
    linalg.conv_2d_nhwc_hwcf {kiln.root, dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : memref<2x16x16x8xf32>, memref<3x3x8x24xf32>) outs(%y : memref<2x7x7x24xf32>)
    return
  }
}

// -----

// An elementwise epilogue of the product (bias per column, relu): the register tile goes
// through its body into its output; the product's temporary, its fill and the epilogue
// are gone.
// CHECK-LABEL: func.func @mm_bias_relu(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<70x50xf32>, %[[B:[a-z0-9]+]]: memref<50x40xf32>, %[[BIAS:[a-z0-9]+]]: memref<40xf32>, %[[C:[a-z0-9]+]]: memref<70x40xf32>
// CHECK-NOT: memref.alloc() : memref<70x40xf32>
// CHECK: gpu.barrier
// CHECK: vector.contract
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: %[[V:.*]] = memref.load %{{.*}} : memref<4x4xf32>
// CHECK: %[[BV:.*]] = memref.load %[[BIAS]][%{{.*}}] : memref<40xf32>
// CHECK: %[[S:.*]] = arith.addf %[[V]], %[[BV]]
// CHECK: %[[R:.*]] = arith.maximumf %[[S]]
// CHECK: memref.store %[[R]], %[[C]]
// CHECK-NOT: linalg.
// CHECK-NOT: memref.dealloc
// CHECK: return
module @kiln_executable attributes {kiln.executable} {
  func.func @mm_bias_relu(%a: memref<70x50xf32>, %b: memref<50x40xf32>, %bias: memref<40xf32>, %c: memref<70x40xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1>, array<i64: -1, -1>], kiln.input_count = 3 : i64, kiln.workgroup_strategy = "gpu.workgroup_contraction"} {
    %zero = arith.constant 0.0 : f32
    %t = memref.alloc() : memref<70x40xf32>
    linalg.fill ins(%zero : f32) outs(%t : memref<70x40xf32>)
    linalg.matmul ins(%a, %b : memref<70x50xf32>, memref<50x40xf32>) outs(%t : memref<70x40xf32>)
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%t, %bias : memref<70x40xf32>, memref<40xf32>) outs(%c : memref<70x40xf32>) attrs = {kiln.root} {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
    }
    memref.dealloc %t : memref<70x40xf32>
    return
  }
}
