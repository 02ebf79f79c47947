// REQUIRES: cpu-avx512_fp16
// f16 x f16 -> f16 matmuls (products and sums in f16, as the op says), B[K, N] and
// W[N, K], compiled for sapphirerapids (AVX512_FP16: kiln-cpu-tile-contractions'
// f16-vectors, 16 x 32 register tiles of vfmadd231ph on packed blocks) and for
// skylake-avx512 (no AVX512_FP16: f32 sums rounded once, kiln-widen-matmul-accumulators),
// against an exact reference
// (Inputs/low_precision_operands.py: values in {-1, 0, 1}, so every partial sum is exact
// in f16 in any order). The shapes leave remainders of the 16-row groups, the 32-column
// blocks and the 32 x 32 packing squares, depths of one to five blocks, rows over several
// workgroups, a decode-shaped product of 4 rows and dynamic rows.
// RUN: rm -rf %t && %python %S/Inputs/low_precision_operands.py %t
// RUN: kiln-compile %s -o %t/spr.kiln --target-cpu=sapphirerapids
// RUN: kiln-compile %s -o %t/skx.kiln --target-cpu=skylake-avx512
// RUN: kiln-dump %t/spr.kiln --extract-executables=%t/x && llvm-objdump-22 -d --no-show-raw-insn %t/x/*.so | FileCheck %s --check-prefix=CODE
// CODE: vfmadd231ph {{.*}}%zmm
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=f16_nn_37x130x61 --input=@%t/f16i_a_37x130x61.npy --input=@%t/f16i_b_37x130x61.npy --expected_output=@%t/f16i_ref_37x130x61.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=f16_nn_37x130x61 --input=@%t/f16i_a_37x130x61.npy --input=@%t/f16i_b_37x130x61.npy --expected_output=@%t/f16i_ref_37x130x61.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/skx.kiln --device=cpu --function=f16_nn_37x130x61 --input=@%t/f16i_a_37x130x61.npy --input=@%t/f16i_b_37x130x61.npy --expected_output=@%t/f16i_ref_37x130x61.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=f16_nt_37x130x61 --input=@%t/f16i_a_37x130x61.npy --input=@%t/f16i_w_37x130x61.npy --expected_output=@%t/f16i_ref_37x130x61.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=f16_nt_37x130x61 --input=@%t/f16i_a_37x130x61.npy --input=@%t/f16i_w_37x130x61.npy --expected_output=@%t/f16i_ref_37x130x61.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/skx.kiln --device=cpu --function=f16_nt_37x130x61 --input=@%t/f16i_a_37x130x61.npy --input=@%t/f16i_w_37x130x61.npy --expected_output=@%t/f16i_ref_37x130x61.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=f16_nn_45x517x70 --input=@%t/f16i_a_45x517x70.npy --input=@%t/f16i_b_45x517x70.npy --expected_output=@%t/f16i_ref_45x517x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=f16_nn_45x517x70 --input=@%t/f16i_a_45x517x70.npy --input=@%t/f16i_b_45x517x70.npy --expected_output=@%t/f16i_ref_45x517x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/skx.kiln --device=cpu --function=f16_nn_45x517x70 --input=@%t/f16i_a_45x517x70.npy --input=@%t/f16i_b_45x517x70.npy --expected_output=@%t/f16i_ref_45x517x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=f16_nt_45x517x70 --input=@%t/f16i_a_45x517x70.npy --input=@%t/f16i_w_45x517x70.npy --expected_output=@%t/f16i_ref_45x517x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=f16_nt_45x517x70 --input=@%t/f16i_a_45x517x70.npy --input=@%t/f16i_w_45x517x70.npy --expected_output=@%t/f16i_ref_45x517x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/skx.kiln --device=cpu --function=f16_nt_45x517x70 --input=@%t/f16i_a_45x517x70.npy --input=@%t/f16i_w_45x517x70.npy --expected_output=@%t/f16i_ref_45x517x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=f16_nn_77x1152x70 --input=@%t/f16i_a_77x1152x70.npy --input=@%t/f16i_b_77x1152x70.npy --expected_output=@%t/f16i_ref_77x1152x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=f16_nn_77x1152x70 --input=@%t/f16i_a_77x1152x70.npy --input=@%t/f16i_b_77x1152x70.npy --expected_output=@%t/f16i_ref_77x1152x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/skx.kiln --device=cpu --function=f16_nn_77x1152x70 --input=@%t/f16i_a_77x1152x70.npy --input=@%t/f16i_b_77x1152x70.npy --expected_output=@%t/f16i_ref_77x1152x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=f16_nt_77x1152x70 --input=@%t/f16i_a_77x1152x70.npy --input=@%t/f16i_w_77x1152x70.npy --expected_output=@%t/f16i_ref_77x1152x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=f16_nt_77x1152x70 --input=@%t/f16i_a_77x1152x70.npy --input=@%t/f16i_w_77x1152x70.npy --expected_output=@%t/f16i_ref_77x1152x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/skx.kiln --device=cpu --function=f16_nt_77x1152x70 --input=@%t/f16i_a_77x1152x70.npy --input=@%t/f16i_w_77x1152x70.npy --expected_output=@%t/f16i_ref_77x1152x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=f16_nn_40x128x600 --input=@%t/f16i_a_40x128x600.npy --input=@%t/f16i_b_40x128x600.npy --expected_output=@%t/f16i_ref_40x128x600.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=f16_nn_40x128x600 --input=@%t/f16i_a_40x128x600.npy --input=@%t/f16i_b_40x128x600.npy --expected_output=@%t/f16i_ref_40x128x600.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/skx.kiln --device=cpu --function=f16_nn_40x128x600 --input=@%t/f16i_a_40x128x600.npy --input=@%t/f16i_b_40x128x600.npy --expected_output=@%t/f16i_ref_40x128x600.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=f16_nt_40x128x600 --input=@%t/f16i_a_40x128x600.npy --input=@%t/f16i_w_40x128x600.npy --expected_output=@%t/f16i_ref_40x128x600.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=f16_nt_40x128x600 --input=@%t/f16i_a_40x128x600.npy --input=@%t/f16i_w_40x128x600.npy --expected_output=@%t/f16i_ref_40x128x600.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/skx.kiln --device=cpu --function=f16_nt_40x128x600 --input=@%t/f16i_a_40x128x600.npy --input=@%t/f16i_w_40x128x600.npy --expected_output=@%t/f16i_ref_40x128x600.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=f16_nn_4x517x70 --input=@%t/f16i_a_4x517x70.npy --input=@%t/f16i_b_4x517x70.npy --expected_output=@%t/f16i_ref_4x517x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=f16_nn_4x517x70 --input=@%t/f16i_a_4x517x70.npy --input=@%t/f16i_b_4x517x70.npy --expected_output=@%t/f16i_ref_4x517x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/skx.kiln --device=cpu --function=f16_nn_4x517x70 --input=@%t/f16i_a_4x517x70.npy --input=@%t/f16i_b_4x517x70.npy --expected_output=@%t/f16i_ref_4x517x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=f16_nt_4x517x70 --input=@%t/f16i_a_4x517x70.npy --input=@%t/f16i_w_4x517x70.npy --expected_output=@%t/f16i_ref_4x517x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=f16_nt_4x517x70 --input=@%t/f16i_a_4x517x70.npy --input=@%t/f16i_w_4x517x70.npy --expected_output=@%t/f16i_ref_4x517x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/skx.kiln --device=cpu --function=f16_nt_4x517x70 --input=@%t/f16i_a_4x517x70.npy --input=@%t/f16i_w_4x517x70.npy --expected_output=@%t/f16i_ref_4x517x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=f16_nt_dynamic_rows --input=77x1152xf16=@%t/f16i_a_77x1152x70.npy --input=@%t/f16i_w_77x1152x70.npy --expected_output=@%t/f16i_ref_77x1152x70.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=f16_nt_dynamic_rows --input=77x1152xf16=@%t/f16i_a_77x1152x70.npy --input=@%t/f16i_w_77x1152x70.npy --expected_output=@%t/f16i_ref_77x1152x70.npy --atol=0 --rtol=0

func.func @f16_nn_37x130x61(%a: tensor<37x130xf16>, %b: tensor<130x61xf16>) -> tensor<37x61xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<37x61xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<37x61xf16>) -> tensor<37x61xf16>
  %r = linalg.matmul ins(%a, %b : tensor<37x130xf16>, tensor<130x61xf16>) outs(%f : tensor<37x61xf16>) -> tensor<37x61xf16>
  return %r : tensor<37x61xf16>
}

func.func @f16_nt_37x130x61(%a: tensor<37x130xf16>, %b: tensor<61x130xf16>) -> tensor<37x61xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<37x61xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<37x61xf16>) -> tensor<37x61xf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<37x130xf16>, tensor<61x130xf16>) outs(%f : tensor<37x61xf16>) -> tensor<37x61xf16>
  return %r : tensor<37x61xf16>
}

func.func @f16_nn_45x517x70(%a: tensor<45x517xf16>, %b: tensor<517x70xf16>) -> tensor<45x70xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<45x70xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<45x70xf16>) -> tensor<45x70xf16>
  %r = linalg.matmul ins(%a, %b : tensor<45x517xf16>, tensor<517x70xf16>) outs(%f : tensor<45x70xf16>) -> tensor<45x70xf16>
  return %r : tensor<45x70xf16>
}

func.func @f16_nt_45x517x70(%a: tensor<45x517xf16>, %b: tensor<70x517xf16>) -> tensor<45x70xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<45x70xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<45x70xf16>) -> tensor<45x70xf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<45x517xf16>, tensor<70x517xf16>) outs(%f : tensor<45x70xf16>) -> tensor<45x70xf16>
  return %r : tensor<45x70xf16>
}

func.func @f16_nn_77x1152x70(%a: tensor<77x1152xf16>, %b: tensor<1152x70xf16>) -> tensor<77x70xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<77x70xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<77x70xf16>) -> tensor<77x70xf16>
  %r = linalg.matmul ins(%a, %b : tensor<77x1152xf16>, tensor<1152x70xf16>) outs(%f : tensor<77x70xf16>) -> tensor<77x70xf16>
  return %r : tensor<77x70xf16>
}

func.func @f16_nt_77x1152x70(%a: tensor<77x1152xf16>, %b: tensor<70x1152xf16>) -> tensor<77x70xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<77x70xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<77x70xf16>) -> tensor<77x70xf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<77x1152xf16>, tensor<70x1152xf16>) outs(%f : tensor<77x70xf16>) -> tensor<77x70xf16>
  return %r : tensor<77x70xf16>
}

func.func @f16_nn_40x128x600(%a: tensor<40x128xf16>, %b: tensor<128x600xf16>) -> tensor<40x600xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<40x600xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<40x600xf16>) -> tensor<40x600xf16>
  %r = linalg.matmul ins(%a, %b : tensor<40x128xf16>, tensor<128x600xf16>) outs(%f : tensor<40x600xf16>) -> tensor<40x600xf16>
  return %r : tensor<40x600xf16>
}

func.func @f16_nt_40x128x600(%a: tensor<40x128xf16>, %b: tensor<600x128xf16>) -> tensor<40x600xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<40x600xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<40x600xf16>) -> tensor<40x600xf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<40x128xf16>, tensor<600x128xf16>) outs(%f : tensor<40x600xf16>) -> tensor<40x600xf16>
  return %r : tensor<40x600xf16>
}

func.func @f16_nn_4x517x70(%a: tensor<4x517xf16>, %b: tensor<517x70xf16>) -> tensor<4x70xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x70xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<4x70xf16>) -> tensor<4x70xf16>
  %r = linalg.matmul ins(%a, %b : tensor<4x517xf16>, tensor<517x70xf16>) outs(%f : tensor<4x70xf16>) -> tensor<4x70xf16>
  return %r : tensor<4x70xf16>
}

func.func @f16_nt_4x517x70(%a: tensor<4x517xf16>, %b: tensor<70x517xf16>) -> tensor<4x70xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x70xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<4x70xf16>) -> tensor<4x70xf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<4x517xf16>, tensor<70x517xf16>) outs(%f : tensor<4x70xf16>) -> tensor<4x70xf16>
  return %r : tensor<4x70xf16>
}

func.func @f16_nt_dynamic_rows(%a: tensor<?x1152xf16>, %w: tensor<70x1152xf16>) -> tensor<?x70xf16> {
  %zero = arith.constant 0.0 : f16
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %a, %c0 : tensor<?x1152xf16>
  %e = tensor.empty(%rows) : tensor<?x70xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<?x70xf16>) -> tensor<?x70xf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %w : tensor<?x1152xf16>, tensor<70x1152xf16>) outs(%f : tensor<?x70xf16>) -> tensor<?x70xf16>
  return %r : tensor<?x70xf16>
}
