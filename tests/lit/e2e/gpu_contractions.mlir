// Contractions through the GPU's workgroup strategy (kiln-gpu-tile-contractions) on
// hip-sim, against numpy references and the CPU: MFMA tiles on gfx942 and gfx90a (f32,
// f16 and bf16 into f32, i8 into i32 with each chip's k, f8E4M3FNUZ and f8E5M2FNUZ into
// f32 on gfx942 only, weights transposed, batched, a dynamic row count), WMMA tiles on
// gfx1100 (wave32: f16 and bf16 into f32, i8 into i32), SIMT register tiles for f64, for
// f32 on gfx1100 and for f8 on gfx90a. Shapes leave remainders in every dimension and k
// spans several LDS steps (hip-sim simulates a gfx1100 for the gfx1100 module).
// Operands are small integers, or 8-bit floats whose sums are exact, so results compare
// exactly; one f8 product takes every finite code (subnormals too) and compares within
// f32 rounding of a float64 reference.
// RUN: rm -rf %t && %python %S/Inputs/contraction_operands.py %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln
// RUN: kiln-compile --target=gfx1100 %s -o %t/gfx1100.kiln
// RUN: kiln-compile --target=gfx90a %s -o %t/gfx90a.kiln
// RUN: env KILN_HSA_SIM_AGENTS=gfx90a kiln-run --module=%t/gfx90a.kiln --device=hip-sim --function=mm_i8 --input=@%t/i8_a.npy --input=@%t/i8_b.npy --expected_output=@%t/i8_ref.npy
// RUN: env KILN_HSA_SIM_AGENTS=gfx90a kiln-run --module=%t/gfx90a.kiln --device=hip-sim --function=mm_f16 --input=@%t/f16_a.npy --input=@%t/f16_b.npy --expected_output=@%t/f16_ref.npy --atol=0 --rtol=0
// RUN: kiln-compile %s -o %t/cpu.kiln
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=mm_f32 --input=@%t/f32_a.npy --input=@%t/f32_b.npy --expected_output=@%t/f32_ref.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=mm_dynamic_rows --input=@%t/f32_a.npy --input=@%t/f32_b.npy --expected_output=@%t/f32_ref.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=mm_f16 --input=@%t/f16_a.npy --input=@%t/f16_b.npy --expected_output=@%t/f16_ref.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=mm_bf16 --input=96x200xbf16=@%t/bf16_a.npy --input=200x72xbf16=@%t/bf16_b.npy --expected_output=@%t/f16_ref.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=linear --input=@%t/nt_a.npy --input=@%t/nt_w.npy --expected_output=@%t/nt_ref.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=batch --input=@%t/batch_a.npy --input=@%t/batch_b.npy --expected_output=@%t/batch_ref.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=mm_i8 --input=@%t/i8_a.npy --input=@%t/i8_b.npy --expected_output=@%t/i8_ref.npy
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=mm_f32 --input=@%t/f32_a.npy --input=@%t/f32_b.npy --expected_output=@%t/f32_ref.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=mm_f16 --input=@%t/f16_a.npy --input=@%t/f16_b.npy --expected_output=@%t/f16_ref.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=linear --input=@%t/nt_a.npy --input=@%t/nt_w.npy --expected_output=@%t/nt_ref.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=mm_bf16 --input=96x200xbf16=@%t/bf16_a.npy --input=200x72xbf16=@%t/bf16_b.npy --expected_output=@%t/f16_ref.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=mm_i8 --input=@%t/i8_a.npy --input=@%t/i8_b.npy --expected_output=@%t/i8_ref.npy
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=odd_f16 --input=@%t/odd_f16_a.npy --input=@%t/odd_f16_b.npy --expected_output=@%t/odd_ref.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=odd_bf16_dynamic --input=67x33xbf16=@%t/odd_bf16_a.npy --input=33x45xbf16=@%t/odd_bf16_b.npy --expected_output=@%t/odd_ref.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=odd_i8 --input=@%t/odd_i8_a.npy --input=@%t/odd_i8_b.npy --expected_output=@%t/odd_i8_ref.npy
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=odd_f16 --input=@%t/odd_f16_a.npy --input=@%t/odd_f16_b.npy --expected_output=@%t/odd_ref.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=mm_f8 --input=67x33xf8E4M3FNUZ=@%t/f8_a.npy --input=33x45xf8E4M3FNUZ=@%t/f8_b.npy --expected_output=@%t/f8_ref.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=mm_bf8 --input=67x33xf8E5M2FNUZ=@%t/bf8_a.npy --input=33x45xf8E5M2FNUZ=@%t/bf8_b.npy --expected_output=@%t/bf8_ref.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=mm_f8_mixed_dynamic --input=70x90xf8E4M3FNUZ=@%t/f8_mixed_a.npy --input=90x66xf8E5M2FNUZ=@%t/f8_mixed_b.npy --expected_output=@%t/f8_mixed_ref.npy --atol=1 --rtol=1e-5
// RUN: env KILN_HSA_SIM_AGENTS=gfx90a kiln-run --module=%t/gfx90a.kiln --device=hip-sim --function=mm_f8 --input=67x33xf8E4M3FNUZ=@%t/f8_a.npy --input=33x45xf8E4M3FNUZ=@%t/f8_b.npy --expected_output=@%t/f8_ref.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=mm_f8_mixed_dynamic --input=70x90xf8E4M3FNUZ=@%t/f8_mixed_a.npy --input=90x66xf8E5M2FNUZ=@%t/f8_mixed_b.npy --expected_output=@%t/f8_mixed_ref.npy --atol=1 --rtol=1e-5
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=mm_bf16 --input=96x200xbf16=@%t/bf16_a.npy --input=200x72xbf16=@%t/bf16_b.npy --expected_output=@%t/f16_ref.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=mm_i8 --input=@%t/i8_a.npy --input=@%t/i8_b.npy --expected_output=@%t/i8_ref.npy

func.func @mm_f32(%a: tensor<130x70xf32>, %b: tensor<70x100xf32>) -> tensor<130x100xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<130x100xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<130x100xf32>) -> tensor<130x100xf32>
  %r = linalg.matmul ins(%a, %b : tensor<130x70xf32>, tensor<70x100xf32>) outs(%f : tensor<130x100xf32>) -> tensor<130x100xf32>
  return %r : tensor<130x100xf32>
}

func.func @mm_dynamic_rows(%a: tensor<?x70xf32>, %b: tensor<70x100xf32>) -> tensor<?x100xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x70xf32>
  %e = tensor.empty(%m) : tensor<?x100xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x100xf32>) -> tensor<?x100xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x70xf32>, tensor<70x100xf32>) outs(%f : tensor<?x100xf32>) -> tensor<?x100xf32>
  return %r : tensor<?x100xf32>
}

func.func @mm_f16(%a: tensor<96x200xf16>, %b: tensor<200x72xf16>) -> tensor<96x72xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x72xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<96x72xf32>) -> tensor<96x72xf32>
  %r = linalg.matmul ins(%a, %b : tensor<96x200xf16>, tensor<200x72xf16>) outs(%f : tensor<96x72xf32>) -> tensor<96x72xf32>
  return %r : tensor<96x72xf32>
}

func.func @mm_bf16(%a: tensor<96x200xbf16>, %b: tensor<200x72xbf16>) -> tensor<96x72xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x72xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<96x72xf32>) -> tensor<96x72xf32>
  %r = linalg.matmul ins(%a, %b : tensor<96x200xbf16>, tensor<200x72xbf16>) outs(%f : tensor<96x72xf32>) -> tensor<96x72xf32>
  return %r : tensor<96x72xf32>
}

// A linear layer's product: weights [N, K] (x W^T).
func.func @linear(%x: tensor<33x80xf32>, %w: tensor<65x80xf32>) -> tensor<33x65xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x65xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<33x65xf32>) -> tensor<33x65xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
       ins(%x, %w : tensor<33x80xf32>, tensor<65x80xf32>) outs(%f : tensor<33x65xf32>) -> tensor<33x65xf32>
  return %r : tensor<33x65xf32>
}

func.func @batch(%a: tensor<3x40x50xf32>, %b: tensor<3x50x70xf32>) -> tensor<3x40x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x40x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x40x70xf32>) -> tensor<3x40x70xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x40x50xf32>, tensor<3x50x70xf32>) outs(%f : tensor<3x40x70xf32>) -> tensor<3x40x70xf32>
  return %r : tensor<3x40x70xf32>
}

func.func @mm_i8(%a: tensor<70x90xi8>, %b: tensor<90x66xi8>) -> tensor<70x66xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<70x66xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<70x66xi32>) -> tensor<70x66xi32>
  %r = linalg.matmul ins(%a, %b : tensor<70x90xi8>, tensor<90x66xi8>) outs(%f : tensor<70x66xi32>) -> tensor<70x66xi32>
  return %r : tensor<70x66xi32>
}

// Unaligned in every dimension: 67 x 45 x 33.
func.func @odd_f16(%a: tensor<67x33xf16>, %b: tensor<33x45xf16>) -> tensor<67x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<67x45xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<67x45xf32>) -> tensor<67x45xf32>
  %r = linalg.matmul ins(%a, %b : tensor<67x33xf16>, tensor<33x45xf16>) outs(%f : tensor<67x45xf32>) -> tensor<67x45xf32>
  return %r : tensor<67x45xf32>
}

// Every dimension dynamic.
func.func @odd_bf16_dynamic(%a: tensor<?x?xbf16>, %b: tensor<?x?xbf16>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xbf16>
  %n = tensor.dim %b, %c1 : tensor<?x?xbf16>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @odd_i8(%a: tensor<67x33xi8>, %b: tensor<33x45xi8>) -> tensor<67x45xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<67x45xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<67x45xi32>) -> tensor<67x45xi32>
  %r = linalg.matmul ins(%a, %b : tensor<67x33xi8>, tensor<33x45xi8>) outs(%f : tensor<67x45xi32>) -> tensor<67x45xi32>
  return %r : tensor<67x45xi32>
}

func.func @mm_f8(%a: tensor<67x33xf8E4M3FNUZ>, %b: tensor<33x45xf8E4M3FNUZ>) -> tensor<67x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<67x45xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<67x45xf32>) -> tensor<67x45xf32>
  %r = linalg.matmul ins(%a, %b : tensor<67x33xf8E4M3FNUZ>, tensor<33x45xf8E4M3FNUZ>) outs(%f : tensor<67x45xf32>) -> tensor<67x45xf32>
  return %r : tensor<67x45xf32>
}

func.func @mm_bf8(%a: tensor<67x33xf8E5M2FNUZ>, %b: tensor<33x45xf8E5M2FNUZ>) -> tensor<67x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<67x45xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<67x45xf32>) -> tensor<67x45xf32>
  %r = linalg.matmul ins(%a, %b : tensor<67x33xf8E5M2FNUZ>, tensor<33x45xf8E5M2FNUZ>) outs(%f : tensor<67x45xf32>) -> tensor<67x45xf32>
  return %r : tensor<67x45xf32>
}

// Mixed formats (v_mfma_f32_32x32x16_fp8_bf8), a dynamic row count.
func.func @mm_f8_mixed_dynamic(%a: tensor<?x90xf8E4M3FNUZ>, %b: tensor<90x66xf8E5M2FNUZ>) -> tensor<?x66xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x90xf8E4M3FNUZ>
  %e = tensor.empty(%m) : tensor<?x66xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x66xf32>) -> tensor<?x66xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x90xf8E4M3FNUZ>, tensor<90x66xf8E5M2FNUZ>) outs(%f : tensor<?x66xf32>) -> tensor<?x66xf32>
  return %r : tensor<?x66xf32>
}
