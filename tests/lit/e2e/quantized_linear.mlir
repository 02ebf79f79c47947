// Weight-only quantized linear layers, y = x dequant(W)^T, dequantized inside the product
// (kiln-fuse-dequantization; on the CPU kiln-cpu-vectorize-dequantizing-products' vector
// tiles): i4 weights packed two a byte with f32 scales per group of 32 and of 128 along k,
// unsigned nibbles with a zero point per group, f16 scales, and i8 weights with a scale
// per row; 101 columns and M = 1, 5 and 8 rows; exact results (numpy references) on cpu,
// cpu-sync and hip-sim.
// RUN: rm -rf %t && %python %S/Inputs/quantized_linear_operands.py %t
// RUN: kiln-compile %s -o %t/cpu.kiln
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=w4_g32_m1 --input=@%t/x1.npy --input=101x256xi4=@%t/w4.bin --input=@%t/scale32.npy --expected_output=@%t/y_w4_32_1.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=w4_g32_m5 --input=@%t/x5.npy --input=101x256xi4=@%t/w4.bin --input=@%t/scale32.npy --expected_output=@%t/y_w4_32_5.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=w4_g128_m8 --input=@%t/x8.npy --input=101x256xi4=@%t/w4.bin --input=@%t/scale128.npy --expected_output=@%t/y_w4_128_8.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=u4_zero_m5 --input=@%t/x5.npy --input=101x256xi4=@%t/u4.bin --input=@%t/scale32.npy --input=@%t/zero32.npy --expected_output=@%t/y_u4_5.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=w4_f16_scales_m1 --input=@%t/x1.npy --input=101x256xi4=@%t/w4.bin --input=@%t/scale32_f16.npy --expected_output=@%t/y_w4_32_1.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=w8_m8 --input=@%t/x8.npy --input=101x256xi8=@%t/w8.bin --input=@%t/scale8.npy --expected_output=@%t/y_w8_8.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=w4_g32_m5 --input=@%t/x5.npy --input=101x256xi4=@%t/w4.bin --input=@%t/scale32.npy --expected_output=@%t/y_w4_32_5.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=u4_zero_m5 --input=@%t/x5.npy --input=101x256xi4=@%t/u4.bin --input=@%t/scale32.npy --input=@%t/zero32.npy --expected_output=@%t/y_u4_5.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=w8_m8 --input=@%t/x8.npy --input=101x256xi8=@%t/w8.bin --input=@%t/scale8.npy --expected_output=@%t/y_w8_8.npy --atol=0 --rtol=0
// On gfx942 the kernels read the packed bytes with vector loads (dwordx4), never byte by byte.
// RUN: kiln-dump %t/gfx942.kiln --extract-executables=%t/gfx942
// RUN: llvm-objdump-22 -d --mcpu=gfx942 %t/gfx942/kiln_executable.gfx942.hsaco | FileCheck %s --check-prefix=GFX942
// GFX942-LABEL: <w4_g32_m1_dispatch_1_generic>:
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942: global_load_dwordx4
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942-LABEL: <w4_g32_m5_dispatch_1_generic>:
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942: global_load_dwordx4
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942-LABEL: <w4_g128_m8_dispatch_1_generic>:
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942: global_load_dwordx4
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942-LABEL: <u4_zero_m5_dispatch_1_generic>:
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942: global_load_dwordx4
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942-LABEL: <w4_f16_scales_m1_dispatch_1_generic>:
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942: global_load_dwordx4
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942-LABEL: <w8_m8_dispatch_1_generic>:
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942: global_load_dwordx4
// GFX942-NOT: global_load_{{[us]byte}}
// On the CPU each product is one dispatch whose weights binding is the packed bytes, and
// no dequantized [101, 256] tensor is stored.
// RUN: rm -rf %t/d && kiln-compile %s -o %t/d.kiln --dump-dispatches=%t/d && cat %t/d/* | FileCheck %s
// CHECK-NOT: memref<101x256xf32>
// CHECK: memref<101x128xi8>
// CHECK-NOT: memref<101x256xf32>

#weights = affine_map<(n, k) -> (n, k)>
#group32 = affine_map<(n, k) -> (n, k floordiv 32)>
#group128 = affine_map<(n, k) -> (n, k floordiv 128)>
#row = affine_map<(n, k) -> (n)>
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#y = affine_map<(m, n, k) -> (m, n)>


func.func @w4_g32_m1(%x: tensor<1x256xf32>, %w: tensor<101x256xi4>, %scale: tensor<101x8xf32>) -> tensor<1x101xf32> {
  %de = tensor.empty() : tensor<101x256xf32>
  %d = linalg.generic {indexing_maps = [#weights, #group32, #weights], iterator_types = ["parallel", "parallel"]}
      ins(%w, %scale : tensor<101x256xi4>, tensor<101x8xf32>) outs(%de : tensor<101x256xf32>) {
  ^bb0(%q: i4, %s: f32, %o: f32):
    %i = arith.extsi %q : i4 to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.mulf %f, %s : f32
    linalg.yield %v : f32
  } -> tensor<101x256xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x101xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x101xf32>) -> tensor<1x101xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %d : tensor<1x256xf32>, tensor<101x256xf32>) outs(%f : tensor<1x101xf32>) -> tensor<1x101xf32>
  return %y : tensor<1x101xf32>
}

func.func @w4_g32_m5(%x: tensor<5x256xf32>, %w: tensor<101x256xi4>, %scale: tensor<101x8xf32>) -> tensor<5x101xf32> {
  %de = tensor.empty() : tensor<101x256xf32>
  %d = linalg.generic {indexing_maps = [#weights, #group32, #weights], iterator_types = ["parallel", "parallel"]}
      ins(%w, %scale : tensor<101x256xi4>, tensor<101x8xf32>) outs(%de : tensor<101x256xf32>) {
  ^bb0(%q: i4, %s: f32, %o: f32):
    %i = arith.extsi %q : i4 to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.mulf %f, %s : f32
    linalg.yield %v : f32
  } -> tensor<101x256xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x101xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x101xf32>) -> tensor<5x101xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %d : tensor<5x256xf32>, tensor<101x256xf32>) outs(%f : tensor<5x101xf32>) -> tensor<5x101xf32>
  return %y : tensor<5x101xf32>
}

func.func @w4_g128_m8(%x: tensor<8x256xf32>, %w: tensor<101x256xi4>, %scale: tensor<101x2xf32>) -> tensor<8x101xf32> {
  %e = tensor.empty() : tensor<101x256xf32>
  %d = linalg.generic {indexing_maps = [#weights, #group128, #weights], iterator_types = ["parallel", "parallel"]}
      ins(%w, %scale : tensor<101x256xi4>, tensor<101x2xf32>) outs(%e : tensor<101x256xf32>) {
  ^bb0(%q: i4, %s: f32, %o: f32):
    %i = arith.extsi %q : i4 to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.mulf %f, %s : f32
    linalg.yield %v : f32
  } -> tensor<101x256xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<8x101xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<8x101xf32>) -> tensor<8x101xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %d : tensor<8x256xf32>, tensor<101x256xf32>) outs(%fy : tensor<8x101xf32>) -> tensor<8x101xf32>
  return %y : tensor<8x101xf32>
}

// Unsigned nibbles with a zero point per group: (q - z) * s.
func.func @u4_zero_m5(%x: tensor<5x256xf32>, %w: tensor<101x256xi4>, %scale: tensor<101x8xf32>, %zero_point: tensor<101x8xf32>) -> tensor<5x101xf32> {
  %e = tensor.empty() : tensor<101x256xf32>
  %d = linalg.generic {indexing_maps = [#weights, #group32, #group32, #weights], iterator_types = ["parallel", "parallel"]}
      ins(%w, %scale, %zero_point : tensor<101x256xi4>, tensor<101x8xf32>, tensor<101x8xf32>) outs(%e : tensor<101x256xf32>) {
  ^bb0(%q: i4, %s: f32, %z: f32, %o: f32):
    %i = arith.extui %q : i4 to i32
    %f = arith.uitofp %i : i32 to f32
    %c = arith.subf %f, %z : f32
    %v = arith.mulf %c, %s : f32
    linalg.yield %v : f32
  } -> tensor<101x256xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<5x101xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<5x101xf32>) -> tensor<5x101xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %d : tensor<5x256xf32>, tensor<101x256xf32>) outs(%fy : tensor<5x101xf32>) -> tensor<5x101xf32>
  return %y : tensor<5x101xf32>
}

// f16 scales, widened where the weight is dequantized.
func.func @w4_f16_scales_m1(%x: tensor<1x256xf32>, %w: tensor<101x256xi4>, %scale: tensor<101x8xf16>) -> tensor<1x101xf32> {
  %e = tensor.empty() : tensor<101x256xf32>
  %d = linalg.generic {indexing_maps = [#weights, #group32, #weights], iterator_types = ["parallel", "parallel"]}
      ins(%w, %scale : tensor<101x256xi4>, tensor<101x8xf16>) outs(%e : tensor<101x256xf32>) {
  ^bb0(%q: i4, %s: f16, %o: f32):
    %i = arith.extsi %q : i4 to i32
    %f = arith.sitofp %i : i32 to f32
    %s32 = arith.extf %s : f16 to f32
    %v = arith.mulf %f, %s32 : f32
    linalg.yield %v : f32
  } -> tensor<101x256xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<1x101xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<1x101xf32>) -> tensor<1x101xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %d : tensor<1x256xf32>, tensor<101x256xf32>) outs(%fy : tensor<1x101xf32>) -> tensor<1x101xf32>
  return %y : tensor<1x101xf32>
}

// i8 weights with a scale per row (Q8-style).
func.func @w8_m8(%x: tensor<8x256xf32>, %w: tensor<101x256xi8>, %scale: tensor<101xf32>) -> tensor<8x101xf32> {
  %e = tensor.empty() : tensor<101x256xf32>
  %d = linalg.generic {indexing_maps = [#weights, #row, #weights], iterator_types = ["parallel", "parallel"]}
      ins(%w, %scale : tensor<101x256xi8>, tensor<101xf32>) outs(%e : tensor<101x256xf32>) {
  ^bb0(%q: i8, %s: f32, %o: f32):
    %f = arith.sitofp %q : i8 to f32
    %v = arith.mulf %f, %s : f32
    linalg.yield %v : f32
  } -> tensor<101x256xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<8x101xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<8x101xf32>) -> tensor<8x101xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %d : tensor<8x256xf32>, tensor<101x256xf32>) outs(%fy : tensor<8x101xf32>) -> tensor<8x101xf32>
  return %y : tensor<8x101xf32>
}
