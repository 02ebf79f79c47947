// Contractions through the GPU's workgroup strategy (kiln-gpu-tile-contractions) on
// hip-sim, against numpy references and the CPU: MFMA tiles on gfx942 and gfx90a (f32,
// f16 and bf16 into f32, i8 into i32 with each chip's k, weights transposed, batched, a
// dynamic row count), SIMT register tiles for f64 and on gfx1100 (wave32, no MFMA). Shapes leave remainders in every dimension
// and k spans several LDS steps (hip-sim simulates a gfx1100 for the gfx1100 module).
// Operands are small integers, so results are exact.
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
