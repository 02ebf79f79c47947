// REQUIRES: cpu-avx512_vnni
// The functions of matmul_low_precision.mlir compiled for AVX-512 CPUs without one or both
// of the instructions the host has: cascadelake (VNNI: i8 on vpdpbusd, bf16 on loops)
// and skylake-avx512 (neither: both on loops); this host must run their code.
// RUN: rm -rf %t && %python %S/Inputs/low_precision_operands.py %t
// RUN: kiln-compile %S/matmul_low_precision.mlir -o %t/cascadelake.kiln --target-cpu=cascadelake
// RUN: kiln-compile %S/matmul_low_precision.mlir -o %t/skx.kiln --target-cpu=skylake-avx512
// RUN: kiln-run --module=%t/cascadelake.kiln --device=cpu --function=bf16_nn_37x130x61 --input=37x130xbf16=@%t/bf16_a_37x130x61.npy --input=130x61xbf16=@%t/bf16_b_37x130x61.npy --expected_output=@%t/bf16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/skx.kiln --device=cpu-sync --function=bf16_nn_37x130x61 --input=37x130xbf16=@%t/bf16_a_37x130x61.npy --input=130x61xbf16=@%t/bf16_b_37x130x61.npy --expected_output=@%t/bf16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/cascadelake.kiln --device=cpu --function=bf16_nt_37x130x61 --input=37x130xbf16=@%t/bf16_a_37x130x61.npy --input=61x130xbf16=@%t/bf16_w_37x130x61.npy --expected_output=@%t/bf16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/skx.kiln --device=cpu-sync --function=bf16_nt_37x130x61 --input=37x130xbf16=@%t/bf16_a_37x130x61.npy --input=61x130xbf16=@%t/bf16_w_37x130x61.npy --expected_output=@%t/bf16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/cascadelake.kiln --device=cpu --function=i8_nn_37x130x61 --input=@%t/i8_a_37x130x61.npy --input=@%t/i8_b_37x130x61.npy --expected_output=@%t/i8_ref_37x130x61.npy
// RUN: kiln-run --module=%t/skx.kiln --device=cpu-sync --function=i8_nn_37x130x61 --input=@%t/i8_a_37x130x61.npy --input=@%t/i8_b_37x130x61.npy --expected_output=@%t/i8_ref_37x130x61.npy
// RUN: kiln-run --module=%t/cascadelake.kiln --device=cpu --function=i8_nt_37x130x61 --input=@%t/i8_a_37x130x61.npy --input=@%t/i8_w_37x130x61.npy --expected_output=@%t/i8_ref_37x130x61.npy
// RUN: kiln-run --module=%t/skx.kiln --device=cpu-sync --function=i8_nt_37x130x61 --input=@%t/i8_a_37x130x61.npy --input=@%t/i8_w_37x130x61.npy --expected_output=@%t/i8_ref_37x130x61.npy
// RUN: kiln-run --module=%t/cascadelake.kiln --device=cpu --function=bf16_nn_37x131x61 --input=37x131xbf16=@%t/bf16_a_37x131x61.npy --input=131x61xbf16=@%t/bf16_b_37x131x61.npy --expected_output=@%t/bf16_ref_37x131x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/skx.kiln --device=cpu-sync --function=bf16_nn_37x131x61 --input=37x131xbf16=@%t/bf16_a_37x131x61.npy --input=131x61xbf16=@%t/bf16_b_37x131x61.npy --expected_output=@%t/bf16_ref_37x131x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/cascadelake.kiln --device=cpu --function=bf16_nt_37x131x61 --input=37x131xbf16=@%t/bf16_a_37x131x61.npy --input=61x131xbf16=@%t/bf16_w_37x131x61.npy --expected_output=@%t/bf16_ref_37x131x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/skx.kiln --device=cpu-sync --function=bf16_nt_37x131x61 --input=37x131xbf16=@%t/bf16_a_37x131x61.npy --input=61x131xbf16=@%t/bf16_w_37x131x61.npy --expected_output=@%t/bf16_ref_37x131x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/cascadelake.kiln --device=cpu --function=i8_nn_37x131x61 --input=@%t/i8_a_37x131x61.npy --input=@%t/i8_b_37x131x61.npy --expected_output=@%t/i8_ref_37x131x61.npy
// RUN: kiln-run --module=%t/skx.kiln --device=cpu-sync --function=i8_nn_37x131x61 --input=@%t/i8_a_37x131x61.npy --input=@%t/i8_b_37x131x61.npy --expected_output=@%t/i8_ref_37x131x61.npy
// RUN: kiln-run --module=%t/cascadelake.kiln --device=cpu --function=i8_nt_37x131x61 --input=@%t/i8_a_37x131x61.npy --input=@%t/i8_w_37x131x61.npy --expected_output=@%t/i8_ref_37x131x61.npy
// RUN: kiln-run --module=%t/skx.kiln --device=cpu-sync --function=i8_nt_37x131x61 --input=@%t/i8_a_37x131x61.npy --input=@%t/i8_w_37x131x61.npy --expected_output=@%t/i8_ref_37x131x61.npy
// RUN: kiln-run --module=%t/cascadelake.kiln --device=cpu --function=bf16_nn_45x517x70 --input=45x517xbf16=@%t/bf16_a_45x517x70.npy --input=517x70xbf16=@%t/bf16_b_45x517x70.npy --expected_output=@%t/bf16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/skx.kiln --device=cpu-sync --function=bf16_nn_45x517x70 --input=45x517xbf16=@%t/bf16_a_45x517x70.npy --input=517x70xbf16=@%t/bf16_b_45x517x70.npy --expected_output=@%t/bf16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/cascadelake.kiln --device=cpu --function=bf16_nt_45x517x70 --input=45x517xbf16=@%t/bf16_a_45x517x70.npy --input=70x517xbf16=@%t/bf16_w_45x517x70.npy --expected_output=@%t/bf16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/skx.kiln --device=cpu-sync --function=bf16_nt_45x517x70 --input=45x517xbf16=@%t/bf16_a_45x517x70.npy --input=70x517xbf16=@%t/bf16_w_45x517x70.npy --expected_output=@%t/bf16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/cascadelake.kiln --device=cpu --function=i8_nn_45x517x70 --input=@%t/i8_a_45x517x70.npy --input=@%t/i8_b_45x517x70.npy --expected_output=@%t/i8_ref_45x517x70.npy
// RUN: kiln-run --module=%t/skx.kiln --device=cpu-sync --function=i8_nn_45x517x70 --input=@%t/i8_a_45x517x70.npy --input=@%t/i8_b_45x517x70.npy --expected_output=@%t/i8_ref_45x517x70.npy
// RUN: kiln-run --module=%t/cascadelake.kiln --device=cpu --function=i8_nt_45x517x70 --input=@%t/i8_a_45x517x70.npy --input=@%t/i8_w_45x517x70.npy --expected_output=@%t/i8_ref_45x517x70.npy
// RUN: kiln-run --module=%t/skx.kiln --device=cpu-sync --function=i8_nt_45x517x70 --input=@%t/i8_a_45x517x70.npy --input=@%t/i8_w_45x517x70.npy --expected_output=@%t/i8_ref_45x517x70.npy
