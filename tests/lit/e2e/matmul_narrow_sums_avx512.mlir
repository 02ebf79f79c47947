// REQUIRES: cpu-avx512_bf16
// The functions of matmul_narrow_sums.mlir compiled for znver4 (AVX-512 with BF16, no
// AVX512_FP16): f16 sums widened while packed into the f32 kernel (or loaded widened by the
// dot-product tiles), bf16 sums on vdpbf16ps; this host must run its code.
// RUN: rm -rf %t && %python %S/Inputs/narrow_sum_operands.py %t
// RUN: kiln-compile %S/matmul_narrow_sums.mlir -o %t/zen.kiln --target-cpu=znver4
// RUN: kiln-run --module=%t/zen.kiln --device=cpu-sync --function=f16_nn_37x517x70 --input=@%t/f16_a_37x517x70.npy --input=@%t/f16_b_37x517x70.npy --expected_output=@%t/f16_ref_37x517x70.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/zen.kiln --device=cpu --function=f16_nt_37x517x70 --input=@%t/f16_a_37x517x70.npy --input=@%t/f16_w_37x517x70.npy --expected_output=@%t/f16_ref_37x517x70.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/zen.kiln --device=cpu-sync --function=f16_nt_4x517x70 --input=@%t/f16_a_4x517x70.npy --input=@%t/f16_w_4x517x70.npy --expected_output=@%t/f16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/zen.kiln --device=cpu-sync --function=f16_nn_into_c_37x517x70 --input=@%t/f16_a_37x517x70.npy --input=@%t/f16_b_37x517x70.npy --input=@%t/f16_c_37x517x70.npy --expected_output=@%t/f16_ref_c_37x517x70.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/zen.kiln --device=cpu-sync --function=f16_batch_into_c_3x37x130x61 --input=@%t/f16_a_3x37x130x61.npy --input=@%t/f16_b_3x37x130x61.npy --input=@%t/f16_c_3x37x130x61.npy --expected_output=@%t/f16_ref_c_3x37x130x61.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/zen.kiln --device=cpu --function=f16_batch_nt_3x37x130x61 --input=@%t/f16_a_3x37x130x61.npy --input=@%t/f16_w_3x37x130x61.npy --expected_output=@%t/f16_ref_3x37x130x61.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/zen.kiln --device=cpu-sync --function=f16_batch_nt_3x4x517x70 --input=@%t/f16_a_3x4x517x70.npy --input=@%t/f16_w_3x4x517x70.npy --expected_output=@%t/f16_ref_3x4x517x70.npy --atol=1e-4 --rtol=1e-3
// RUN: kiln-run --module=%t/zen.kiln --device=cpu-sync --function=bf16_nn_37x517x70 --input=37x517xbf16=@%t/bf16_a_37x517x70.npy --input=517x70xbf16=@%t/bf16_b_37x517x70.npy --expected_output=37x70xbf16=@%t/bf16_ref_37x517x70.npy --atol=1e-4 --rtol=8e-3
// RUN: kiln-run --module=%t/zen.kiln --device=cpu --function=bf16_nt_4x517x70 --input=4x517xbf16=@%t/bf16_a_4x517x70.npy --input=70x517xbf16=@%t/bf16_w_4x517x70.npy --expected_output=4x70xbf16=@%t/bf16_ref_4x517x70.npy --atol=1e-4 --rtol=8e-3
// RUN: kiln-run --module=%t/zen.kiln --device=cpu-sync --function=bf16_batch_3x37x130x61 --input=3x37x130xbf16=@%t/bf16_a_3x37x130x61.npy --input=3x130x61xbf16=@%t/bf16_b_3x37x130x61.npy --expected_output=3x37x61xbf16=@%t/bf16_ref_3x37x130x61.npy --atol=1e-4 --rtol=8e-3
// RUN: kiln-run --module=%t/zen.kiln --device=cpu --function=bf16_batch_nt_3x4x517x70 --input=3x4x517xbf16=@%t/bf16_a_3x4x517x70.npy --input=3x70x517xbf16=@%t/bf16_w_3x4x517x70.npy --expected_output=3x4x70xbf16=@%t/bf16_ref_3x4x517x70.npy --atol=1e-4 --rtol=8e-3
// RUN: kiln-run --module=%t/zen.kiln --device=cpu-sync --function=f16_sum_4096 --input=4x4096xf16=1 --input=4096x8xf16=0.001 --expected_output=4x8xf16=4.098 --atol=0 --rtol=0
// RUN: kiln-run --module=%t/zen.kiln --device=cpu-sync --function=bf16_sum_4096 --input=4x4096xbf16=1 --input=8x4096xbf16=0.001 --expected_output=4x8xbf16=4.09375 --atol=0 --rtol=0
