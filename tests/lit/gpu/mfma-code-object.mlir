// The matmul kernels for gfx942 issue MFMAs (f32: 32x32x2, f16: 32x32x8, i8: 32x32x16, f8
// FNUZ: 32x32x16, fp8 x fp8 and fp8 x bf8), stage operands with 128-bit (8-bit types:
// 64-bit) global loads, and use no scratch; gfx1100 (no MFMA) issues 16x16x16 WMMAs for f16 and i8 (without scratch)
// and keeps SIMT register tiles for f32 and f8. The code objects are read back with
// llvm-objdump after kiln-dump extracts them.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln --report=%t/report.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.txt
// RUN: kiln-dump %t/gfx942.kiln --extract-executables=%t/gfx942
// RUN: llvm-objdump-22 -d --mcpu=gfx942 %t/gfx942/kiln_executable.gfx942.hsaco | FileCheck %s --check-prefix=GFX942
// RUN: kiln-compile --target=gfx1100 %s -o %t/gfx1100.kiln --report=%t/report1100.txt
// RUN: FileCheck %s --check-prefix=REPORT1100 < %t/report1100.txt
// RUN: kiln-dump %t/gfx1100.kiln --extract-executables=%t/gfx1100
// RUN: llvm-objdump-22 -d --mcpu=gfx1100 %t/gfx1100/kiln_executable.gfx1100.hsaco | FileCheck %s --check-prefix=GFX1100

// REPORT-DAG: mm_f16_dispatch_{{[0-9]+}}_matmul: workgroup 256x1x1 (distributed), {{.*}}, LDS 8192 B, scratch 0 B/work-item
// REPORT-DAG: mm_f32_dispatch_{{[0-9]+}}_matmul: workgroup 256x1x1 (distributed), {{.*}}, LDS 8192 B, scratch 0 B/work-item
// REPORT-DAG: mm_f8_dispatch_{{[0-9]+}}_matmul: workgroup 256x1x1 (distributed), {{.*}}, LDS 4096 B, scratch 0 B/work-item
// REPORT1100-DAG: mm_f16_dispatch_{{[0-9]+}}_matmul: workgroup 256x1x1 (distributed), {{.*}}, LDS 8192 B, scratch 0 B/work-item
// REPORT1100-DAG: mm_i8_dispatch_{{[0-9]+}}_matmul: workgroup 256x1x1 (distributed), {{.*}}, LDS 4096 B, scratch 0 B/work-item
// A long static k, unaligned: the WMMA k loop stays a loop (unrolled, LLVM defers every
// step's WMMAs to the end and spills their fragments).
// REPORT1100-DAG: mm_f16_long_k_dispatch_{{[0-9]+}}_matmul: workgroup 256x1x1 (distributed), {{.*}}, LDS 8192 B, scratch 0 B/work-item

// GFX942-DAG: v_mfma_f32_32x32x2_f32
// GFX942-DAG: v_mfma_f32_32x32x8_f16
// GFX942-DAG: v_mfma_i32_32x32x16_i8
// GFX942-DAG: v_mfma_f32_32x32x16_fp8_fp8
// GFX942-DAG: v_mfma_f32_32x32x16_fp8_bf8
// GFX942-DAG: global_load_dwordx4
// 8-bit operands (i8, f8) stage 64 x 32 slices with one 64-bit load per work-item.
// GFX942-DAG: global_load_dwordx2
// GFX942-NOT: scratch_store
// GFX1100-NOT: v_mfma
// GFX1100-DAG: v_wmma_f32_16x16x16_f16
// GFX1100-DAG: v_wmma_i32_16x16x16_iu8
// GFX1100-NOT: v_mfma
// GFX1100: s_endpgm

func.func @mm_f32(%a: tensor<130x70xf32>, %b: tensor<70x100xf32>) -> tensor<130x100xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<130x100xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<130x100xf32>) -> tensor<130x100xf32>
  %r = linalg.matmul ins(%a, %b : tensor<130x70xf32>, tensor<70x100xf32>) outs(%f : tensor<130x100xf32>) -> tensor<130x100xf32>
  return %r : tensor<130x100xf32>
}

func.func @mm_f16(%a: tensor<64x96xf16>, %b: tensor<96x64xf16>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x96xf16>, tensor<96x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @mm_i8(%a: tensor<64x128xi8>, %b: tensor<128x64xi8>) -> tensor<64x64xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<64x64xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<64x64xi32>) -> tensor<64x64xi32>
  %r = linalg.matmul ins(%a, %b : tensor<64x128xi8>, tensor<128x64xi8>) outs(%f : tensor<64x64xi32>) -> tensor<64x64xi32>
  return %r : tensor<64x64xi32>
}

func.func @mm_f8(%a: tensor<64x96xf8E4M3FNUZ>, %b: tensor<96x64xf8E4M3FNUZ>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x96xf8E4M3FNUZ>, tensor<96x64xf8E4M3FNUZ>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @mm_f8_mixed(%a: tensor<64x96xf8E4M3FNUZ>, %b: tensor<96x64xf8E5M2FNUZ>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x96xf8E4M3FNUZ>, tensor<96x64xf8E5M2FNUZ>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @mm_f16_long_k(%a: tensor<64x200xf16>, %b: tensor<200x64xf16>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x200xf16>, tensor<200x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
