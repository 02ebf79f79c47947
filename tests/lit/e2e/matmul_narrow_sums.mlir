// f16 x f16 -> f16 and bf16 x bf16 -> bf16 matmuls (B[K, N], W[N, K], a decode-shaped
// product, accumulation into a given C, batch_matmul of both layouts) on CPUs without arithmetic in the
// narrow type, which sum them in f32 and round once (kiln-widen-matmul-accumulators, as
// IREE's CPU microkernels): compiled here for x86-64-v3 (AVX2 and F16C: loops on widened
// values) and in matmul_narrow_sums_avx512.mlir for znver4 (widened packs and bf16 dot
// products). The references (Inputs/narrow_sum_operands.py) are exact products rounded
// once: a tolerance of one unit in the last place of the output (f16 2^-10, bf16 2^-7
// relative) separates f32 sums from sums rounded at every step. The sums of 4096 x 0.001
// show the difference plainly: 4.098 in f16 (4.09375 in bf16), where f16 steps stall.
// RUN: rm -rf %t && %python %S/Inputs/narrow_sum_operands.py %t
// RUN: kiln-compile %s -o %t/v3.kiln --target-cpu=x86-64-v3
// RUN: kiln-run --module=%t/v3.kiln --device=cpu --function=f16_nn_37x517x70 --input=@%t/f16_a_37x517x70.npy --input=@%t/f16_b_37x517x70.npy --expected_output=@%t/f16_ref_37x517x70.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/v3.kiln --device=cpu-sync --function=f16_nt_37x517x70 --input=@%t/f16_a_37x517x70.npy --input=@%t/f16_w_37x517x70.npy --expected_output=@%t/f16_ref_37x517x70.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/v3.kiln --device=cpu --function=f16_nt_4x517x70 --input=@%t/f16_a_4x517x70.npy --input=@%t/f16_w_4x517x70.npy --expected_output=@%t/f16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/v3.kiln --device=cpu --function=f16_nn_into_c_37x517x70 --input=@%t/f16_a_37x517x70.npy --input=@%t/f16_b_37x517x70.npy --input=@%t/f16_c_37x517x70.npy --expected_output=@%t/f16_ref_c_37x517x70.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/v3.kiln --device=cpu --function=f16_batch_into_c_3x37x130x61 --input=@%t/f16_a_3x37x130x61.npy --input=@%t/f16_b_3x37x130x61.npy --input=@%t/f16_c_3x37x130x61.npy --expected_output=@%t/f16_ref_c_3x37x130x61.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/v3.kiln --device=cpu-sync --function=f16_batch_nt_3x37x130x61 --input=@%t/f16_a_3x37x130x61.npy --input=@%t/f16_w_3x37x130x61.npy --expected_output=@%t/f16_ref_3x37x130x61.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/v3.kiln --device=cpu --function=f16_batch_nt_3x4x517x70 --input=@%t/f16_a_3x4x517x70.npy --input=@%t/f16_w_3x4x517x70.npy --expected_output=@%t/f16_ref_3x4x517x70.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/v3.kiln --device=cpu --function=bf16_nn_37x517x70 --input=37x517xbf16=@%t/bf16_a_37x517x70.npy --input=517x70xbf16=@%t/bf16_b_37x517x70.npy --expected_output=37x70xbf16=@%t/bf16_ref_37x517x70.npy --atol=1e-4 --rtol=8e-3
// RUN: kiln-run --module=%t/v3.kiln --device=cpu-sync --function=bf16_nt_4x517x70 --input=4x517xbf16=@%t/bf16_a_4x517x70.npy --input=70x517xbf16=@%t/bf16_w_4x517x70.npy --expected_output=4x70xbf16=@%t/bf16_ref_4x517x70.npy --atol=1e-4 --rtol=8e-3
// RUN: kiln-run --module=%t/v3.kiln --device=cpu --function=bf16_batch_3x37x130x61 --input=3x37x130xbf16=@%t/bf16_a_3x37x130x61.npy --input=3x130x61xbf16=@%t/bf16_b_3x37x130x61.npy --expected_output=3x37x61xbf16=@%t/bf16_ref_3x37x130x61.npy --atol=1e-4 --rtol=8e-3
// RUN: kiln-run --module=%t/v3.kiln --device=cpu-sync --function=bf16_batch_nt_3x4x517x70 --input=3x4x517xbf16=@%t/bf16_a_3x4x517x70.npy --input=3x70x517xbf16=@%t/bf16_w_3x4x517x70.npy --expected_output=3x4x70xbf16=@%t/bf16_ref_3x4x517x70.npy --atol=1e-4 --rtol=8e-3
// RUN: kiln-run --module=%t/v3.kiln --device=cpu --function=f16_sum_4096 --input=4x4096xf16=1 --input=4096x8xf16=0.001 --expected_output=4x8xf16=4.098 --atol=0 --rtol=0
// RUN: kiln-run --module=%t/v3.kiln --device=cpu --function=bf16_sum_4096 --input=4x4096xbf16=1 --input=8x4096xbf16=0.001 --expected_output=4x8xbf16=4.09375 --atol=0 --rtol=0

#nt = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]

func.func @f16_nn_37x517x70(%a: tensor<37x517xf16>, %b: tensor<517x70xf16>) -> tensor<37x70xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<37x70xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<37x70xf16>) -> tensor<37x70xf16>
  %r = linalg.matmul ins(%a, %b : tensor<37x517xf16>, tensor<517x70xf16>) outs(%f : tensor<37x70xf16>) -> tensor<37x70xf16>
  return %r : tensor<37x70xf16>
}

func.func @f16_nt_37x517x70(%a: tensor<37x517xf16>, %w: tensor<70x517xf16>) -> tensor<37x70xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<37x70xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<37x70xf16>) -> tensor<37x70xf16>
  %r = linalg.matmul indexing_maps = #nt ins(%a, %w : tensor<37x517xf16>, tensor<70x517xf16>) outs(%f : tensor<37x70xf16>) -> tensor<37x70xf16>
  return %r : tensor<37x70xf16>
}

func.func @f16_nt_4x517x70(%x: tensor<4x517xf16>, %w: tensor<70x517xf16>) -> tensor<4x70xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x70xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<4x70xf16>) -> tensor<4x70xf16>
  %r = linalg.matmul indexing_maps = #nt ins(%x, %w : tensor<4x517xf16>, tensor<70x517xf16>) outs(%f : tensor<4x70xf16>) -> tensor<4x70xf16>
  return %r : tensor<4x70xf16>
}

func.func @f16_nn_into_c_37x517x70(%a: tensor<37x517xf16>, %b: tensor<517x70xf16>, %c: tensor<37x70xf16>) -> tensor<37x70xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<37x517xf16>, tensor<517x70xf16>) outs(%c : tensor<37x70xf16>) -> tensor<37x70xf16>
  return %r : tensor<37x70xf16>
}

func.func @f16_batch_into_c_3x37x130x61(%a: tensor<3x37x130xf16>, %b: tensor<3x130x61xf16>, %c: tensor<3x37x61xf16>) -> tensor<3x37x61xf16> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x37x130xf16>, tensor<3x130x61xf16>) outs(%c : tensor<3x37x61xf16>) -> tensor<3x37x61xf16>
  return %r : tensor<3x37x61xf16>
}

func.func @f16_batch_nt_3x37x130x61(%a: tensor<3x37x130xf16>, %w: tensor<3x61x130xf16>) -> tensor<3x37x61xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<3x37x61xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<3x37x61xf16>) -> tensor<3x37x61xf16>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%a, %w : tensor<3x37x130xf16>, tensor<3x61x130xf16>) outs(%f : tensor<3x37x61xf16>) -> tensor<3x37x61xf16>
  return %r : tensor<3x37x61xf16>
}

func.func @f16_batch_nt_3x4x517x70(%q: tensor<3x4x517xf16>, %k: tensor<3x70x517xf16>) -> tensor<3x4x70xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<3x4x70xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<3x4x70xf16>) -> tensor<3x4x70xf16>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%q, %k : tensor<3x4x517xf16>, tensor<3x70x517xf16>) outs(%f : tensor<3x4x70xf16>) -> tensor<3x4x70xf16>
  return %r : tensor<3x4x70xf16>
}

func.func @bf16_nn_37x517x70(%a: tensor<37x517xbf16>, %b: tensor<517x70xbf16>) -> tensor<37x70xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<37x70xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<37x70xbf16>) -> tensor<37x70xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<37x517xbf16>, tensor<517x70xbf16>) outs(%f : tensor<37x70xbf16>) -> tensor<37x70xbf16>
  return %r : tensor<37x70xbf16>
}

func.func @bf16_nt_4x517x70(%x: tensor<4x517xbf16>, %w: tensor<70x517xbf16>) -> tensor<4x70xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<4x70xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<4x70xbf16>) -> tensor<4x70xbf16>
  %r = linalg.matmul indexing_maps = #nt ins(%x, %w : tensor<4x517xbf16>, tensor<70x517xbf16>) outs(%f : tensor<4x70xbf16>) -> tensor<4x70xbf16>
  return %r : tensor<4x70xbf16>
}

func.func @bf16_batch_3x37x130x61(%a: tensor<3x37x130xbf16>, %b: tensor<3x130x61xbf16>) -> tensor<3x37x61xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<3x37x61xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<3x37x61xbf16>) -> tensor<3x37x61xbf16>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x37x130xbf16>, tensor<3x130x61xbf16>) outs(%f : tensor<3x37x61xbf16>) -> tensor<3x37x61xbf16>
  return %r : tensor<3x37x61xbf16>
}

func.func @bf16_batch_nt_3x4x517x70(%q: tensor<3x4x517xbf16>, %k: tensor<3x70x517xbf16>) -> tensor<3x4x70xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<3x4x70xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<3x4x70xbf16>) -> tensor<3x4x70xbf16>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%q, %k : tensor<3x4x517xbf16>, tensor<3x70x517xbf16>) outs(%f : tensor<3x4x70xbf16>) -> tensor<3x4x70xbf16>
  return %r : tensor<3x4x70xbf16>
}

func.func @f16_sum_4096(%ones: tensor<4x4096xf16>, %b: tensor<4096x8xf16>) -> tensor<4x8xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x8xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  %r = linalg.matmul ins(%ones, %b : tensor<4x4096xf16>, tensor<4096x8xf16>) outs(%f : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

func.func @bf16_sum_4096(%ones: tensor<4x4096xbf16>, %w: tensor<8x4096xbf16>) -> tensor<4x8xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<4x8xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %r = linalg.matmul indexing_maps = #nt ins(%ones, %w : tensor<4x4096xbf16>, tensor<8x4096xbf16>) outs(%f : tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}
