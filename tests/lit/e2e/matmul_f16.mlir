// f16 x f16 -> f32 matmuls, B[K, N] and W[N, K], against numpy
// (Inputs/low_precision_operands.py: f16 operands, float64 reference; the products are
// exact in f32, so results differ only by the f32 rounding of the sums). With 512-bit
// vectors both operands are widened to f32 while packed (kiln-cpu-tile-contractions) and
// the f32 register tiles run; the shapes leave remainders of the 6-row groups of A, of the
// 64-column blocks of B and of the 16 x 16 widening transposes, depths of several 128-deep
// blocks, rows spread over several workgroups, and dynamic rows; 4 rows (f16 and
// bf16, which has too few rows for its group-dot kernel) take packing from B[K, N] and
// dot-product tiles that widen what they load from W[N, K] (a W of 2 MiB or more with 4 x 6
// tiles reading its rows in order, ContractionTiling.cc). Compiled for this machine and
// for haswell (AVX2: the matmuls stay loops, except the 4-row W[N, K] ones, which take
// dot-product tiles there too).
// RUN: rm -rf %t && %python %S/Inputs/low_precision_operands.py %t
// RUN: kiln-compile %s -o %t/host.kiln
// RUN: kiln-compile %s -o %t/haswell.kiln --target-cpu=haswell
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nn_37x130x61 --input=@%t/f16_a_37x130x61.npy --input=@%t/f16_b_37x130x61.npy --expected_output=@%t/f16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nn_37x130x61 --input=@%t/f16_a_37x130x61.npy --input=@%t/f16_b_37x130x61.npy --expected_output=@%t/f16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=f16_nn_37x130x61 --input=@%t/f16_a_37x130x61.npy --input=@%t/f16_b_37x130x61.npy --expected_output=@%t/f16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nt_37x130x61 --input=@%t/f16_a_37x130x61.npy --input=@%t/f16_w_37x130x61.npy --expected_output=@%t/f16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nt_37x130x61 --input=@%t/f16_a_37x130x61.npy --input=@%t/f16_w_37x130x61.npy --expected_output=@%t/f16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=f16_nt_37x130x61 --input=@%t/f16_a_37x130x61.npy --input=@%t/f16_w_37x130x61.npy --expected_output=@%t/f16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nn_45x517x70 --input=@%t/f16_a_45x517x70.npy --input=@%t/f16_b_45x517x70.npy --expected_output=@%t/f16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nn_45x517x70 --input=@%t/f16_a_45x517x70.npy --input=@%t/f16_b_45x517x70.npy --expected_output=@%t/f16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=f16_nn_45x517x70 --input=@%t/f16_a_45x517x70.npy --input=@%t/f16_b_45x517x70.npy --expected_output=@%t/f16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nt_45x517x70 --input=@%t/f16_a_45x517x70.npy --input=@%t/f16_w_45x517x70.npy --expected_output=@%t/f16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nt_45x517x70 --input=@%t/f16_a_45x517x70.npy --input=@%t/f16_w_45x517x70.npy --expected_output=@%t/f16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=f16_nt_45x517x70 --input=@%t/f16_a_45x517x70.npy --input=@%t/f16_w_45x517x70.npy --expected_output=@%t/f16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nn_77x1152x70 --input=@%t/f16_a_77x1152x70.npy --input=@%t/f16_b_77x1152x70.npy --expected_output=@%t/f16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nn_77x1152x70 --input=@%t/f16_a_77x1152x70.npy --input=@%t/f16_b_77x1152x70.npy --expected_output=@%t/f16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=f16_nn_77x1152x70 --input=@%t/f16_a_77x1152x70.npy --input=@%t/f16_b_77x1152x70.npy --expected_output=@%t/f16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nt_77x1152x70 --input=@%t/f16_a_77x1152x70.npy --input=@%t/f16_w_77x1152x70.npy --expected_output=@%t/f16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nt_77x1152x70 --input=@%t/f16_a_77x1152x70.npy --input=@%t/f16_w_77x1152x70.npy --expected_output=@%t/f16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=f16_nt_77x1152x70 --input=@%t/f16_a_77x1152x70.npy --input=@%t/f16_w_77x1152x70.npy --expected_output=@%t/f16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nn_64x192x32 --input=@%t/f16_a_64x192x32.npy --input=@%t/f16_b_64x192x32.npy --expected_output=@%t/f16_ref_64x192x32.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nn_64x192x32 --input=@%t/f16_a_64x192x32.npy --input=@%t/f16_b_64x192x32.npy --expected_output=@%t/f16_ref_64x192x32.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=f16_nn_64x192x32 --input=@%t/f16_a_64x192x32.npy --input=@%t/f16_b_64x192x32.npy --expected_output=@%t/f16_ref_64x192x32.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nt_64x192x32 --input=@%t/f16_a_64x192x32.npy --input=@%t/f16_w_64x192x32.npy --expected_output=@%t/f16_ref_64x192x32.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nt_64x192x32 --input=@%t/f16_a_64x192x32.npy --input=@%t/f16_w_64x192x32.npy --expected_output=@%t/f16_ref_64x192x32.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=f16_nt_64x192x32 --input=@%t/f16_a_64x192x32.npy --input=@%t/f16_w_64x192x32.npy --expected_output=@%t/f16_ref_64x192x32.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nn_40x128x600 --input=@%t/f16_a_40x128x600.npy --input=@%t/f16_b_40x128x600.npy --expected_output=@%t/f16_ref_40x128x600.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nn_40x128x600 --input=@%t/f16_a_40x128x600.npy --input=@%t/f16_b_40x128x600.npy --expected_output=@%t/f16_ref_40x128x600.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=f16_nn_40x128x600 --input=@%t/f16_a_40x128x600.npy --input=@%t/f16_b_40x128x600.npy --expected_output=@%t/f16_ref_40x128x600.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nt_40x128x600 --input=@%t/f16_a_40x128x600.npy --input=@%t/f16_w_40x128x600.npy --expected_output=@%t/f16_ref_40x128x600.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nt_40x128x600 --input=@%t/f16_a_40x128x600.npy --input=@%t/f16_w_40x128x600.npy --expected_output=@%t/f16_ref_40x128x600.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=f16_nt_40x128x600 --input=@%t/f16_a_40x128x600.npy --input=@%t/f16_w_40x128x600.npy --expected_output=@%t/f16_ref_40x128x600.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nt_dynamic_rows --input=77x1152xf16=@%t/f16_a_77x1152x70.npy --input=@%t/f16_w_77x1152x70.npy --expected_output=@%t/f16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nt_dynamic_rows --input=77x1152xf16=@%t/f16_a_77x1152x70.npy --input=@%t/f16_w_77x1152x70.npy --expected_output=@%t/f16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nn_4x517x70 --input=@%t/f16_a_4x517x70.npy --input=@%t/f16_b_4x517x70.npy --expected_output=@%t/f16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nn_4x517x70 --input=@%t/f16_a_4x517x70.npy --input=@%t/f16_b_4x517x70.npy --expected_output=@%t/f16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=f16_nn_4x517x70 --input=@%t/f16_a_4x517x70.npy --input=@%t/f16_b_4x517x70.npy --expected_output=@%t/f16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nt_4x517x70 --input=@%t/f16_a_4x517x70.npy --input=@%t/f16_w_4x517x70.npy --expected_output=@%t/f16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nt_4x517x70 --input=@%t/f16_a_4x517x70.npy --input=@%t/f16_w_4x517x70.npy --expected_output=@%t/f16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=f16_nt_4x517x70 --input=@%t/f16_a_4x517x70.npy --input=@%t/f16_w_4x517x70.npy --expected_output=@%t/f16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=f16_nt_4x1040x1030 --input=@%t/f16_a_4x1040x1030.npy --input=@%t/f16_w_4x1040x1030.npy --expected_output=@%t/f16_ref_4x1040x1030.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=f16_nt_4x1040x1030 --input=@%t/f16_a_4x1040x1030.npy --input=@%t/f16_w_4x1040x1030.npy --expected_output=@%t/f16_ref_4x1040x1030.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=bf16_nn_4x517x70 --input=4x517xbf16=@%t/bf16_a_4x517x70.npy --input=517x70xbf16=@%t/bf16_b_4x517x70.npy --expected_output=@%t/bf16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=bf16_nn_4x517x70 --input=4x517xbf16=@%t/bf16_a_4x517x70.npy --input=517x70xbf16=@%t/bf16_b_4x517x70.npy --expected_output=@%t/bf16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=bf16_nn_4x517x70 --input=4x517xbf16=@%t/bf16_a_4x517x70.npy --input=517x70xbf16=@%t/bf16_b_4x517x70.npy --expected_output=@%t/bf16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=bf16_nt_4x517x70 --input=4x517xbf16=@%t/bf16_a_4x517x70.npy --input=70x517xbf16=@%t/bf16_w_4x517x70.npy --expected_output=@%t/bf16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=bf16_nt_4x517x70 --input=4x517xbf16=@%t/bf16_a_4x517x70.npy --input=70x517xbf16=@%t/bf16_w_4x517x70.npy --expected_output=@%t/bf16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=bf16_nt_4x517x70 --input=4x517xbf16=@%t/bf16_a_4x517x70.npy --input=70x517xbf16=@%t/bf16_w_4x517x70.npy --expected_output=@%t/bf16_ref_4x517x70.npy --atol=1e-4 --rtol=1e-5

func.func @f16_nn_37x130x61(%a: tensor<37x130xf16>, %b: tensor<130x61xf16>) -> tensor<37x61xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %r = linalg.matmul ins(%a, %b : tensor<37x130xf16>, tensor<130x61xf16>) outs(%f : tensor<37x61xf32>) -> tensor<37x61xf32>
  return %r : tensor<37x61xf32>
}

func.func @f16_nt_37x130x61(%a: tensor<37x130xf16>, %b: tensor<61x130xf16>) -> tensor<37x61xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<37x130xf16>, tensor<61x130xf16>) outs(%f : tensor<37x61xf32>) -> tensor<37x61xf32>
  return %r : tensor<37x61xf32>
}

func.func @f16_nn_45x517x70(%a: tensor<45x517xf16>, %b: tensor<517x70xf16>) -> tensor<45x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<45x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<45x70xf32>) -> tensor<45x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<45x517xf16>, tensor<517x70xf16>) outs(%f : tensor<45x70xf32>) -> tensor<45x70xf32>
  return %r : tensor<45x70xf32>
}

func.func @f16_nt_45x517x70(%a: tensor<45x517xf16>, %b: tensor<70x517xf16>) -> tensor<45x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<45x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<45x70xf32>) -> tensor<45x70xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<45x517xf16>, tensor<70x517xf16>) outs(%f : tensor<45x70xf32>) -> tensor<45x70xf32>
  return %r : tensor<45x70xf32>
}

func.func @f16_nn_77x1152x70(%a: tensor<77x1152xf16>, %b: tensor<1152x70xf16>) -> tensor<77x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<77x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<77x70xf32>) -> tensor<77x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<77x1152xf16>, tensor<1152x70xf16>) outs(%f : tensor<77x70xf32>) -> tensor<77x70xf32>
  return %r : tensor<77x70xf32>
}

func.func @f16_nt_77x1152x70(%a: tensor<77x1152xf16>, %b: tensor<70x1152xf16>) -> tensor<77x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<77x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<77x70xf32>) -> tensor<77x70xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<77x1152xf16>, tensor<70x1152xf16>) outs(%f : tensor<77x70xf32>) -> tensor<77x70xf32>
  return %r : tensor<77x70xf32>
}

func.func @f16_nn_64x192x32(%a: tensor<64x192xf16>, %b: tensor<192x32xf16>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x192xf16>, tensor<192x32xf16>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

func.func @f16_nt_64x192x32(%a: tensor<64x192xf16>, %b: tensor<32x192xf16>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<64x192xf16>, tensor<32x192xf16>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

func.func @f16_nn_40x128x600(%a: tensor<40x128xf16>, %b: tensor<128x600xf16>) -> tensor<40x600xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x600xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x600xf32>) -> tensor<40x600xf32>
  %r = linalg.matmul ins(%a, %b : tensor<40x128xf16>, tensor<128x600xf16>) outs(%f : tensor<40x600xf32>) -> tensor<40x600xf32>
  return %r : tensor<40x600xf32>
}

func.func @f16_nt_40x128x600(%a: tensor<40x128xf16>, %b: tensor<600x128xf16>) -> tensor<40x600xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x600xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x600xf32>) -> tensor<40x600xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<40x128xf16>, tensor<600x128xf16>) outs(%f : tensor<40x600xf32>) -> tensor<40x600xf32>
  return %r : tensor<40x600xf32>
}

func.func @f16_nt_dynamic_rows(%a: tensor<?x1152xf16>, %w: tensor<70x1152xf16>) -> tensor<?x70xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %a, %c0 : tensor<?x1152xf16>
  %e = tensor.empty(%rows) : tensor<?x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x70xf32>) -> tensor<?x70xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %w : tensor<?x1152xf16>, tensor<70x1152xf16>) outs(%f : tensor<?x70xf32>) -> tensor<?x70xf32>
  return %r : tensor<?x70xf32>
}

func.func @f16_nn_4x517x70(%a: tensor<4x517xf16>, %b: tensor<517x70xf16>) -> tensor<4x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x70xf32>) -> tensor<4x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x517xf16>, tensor<517x70xf16>) outs(%f : tensor<4x70xf32>) -> tensor<4x70xf32>
  return %r : tensor<4x70xf32>
}
func.func @f16_nt_4x517x70(%a: tensor<4x517xf16>, %b: tensor<70x517xf16>) -> tensor<4x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x70xf32>) -> tensor<4x70xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<4x517xf16>, tensor<70x517xf16>) outs(%f : tensor<4x70xf32>) -> tensor<4x70xf32>
  return %r : tensor<4x70xf32>
}
func.func @f16_nt_4x1040x1030(%a: tensor<4x1040xf16>, %b: tensor<1030x1040xf16>) -> tensor<4x1030xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x1030xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x1030xf32>) -> tensor<4x1030xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<4x1040xf16>, tensor<1030x1040xf16>) outs(%f : tensor<4x1030xf32>) -> tensor<4x1030xf32>
  return %r : tensor<4x1030xf32>
}
func.func @bf16_nn_4x517x70(%a: tensor<4x517xbf16>, %b: tensor<517x70xbf16>) -> tensor<4x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x70xf32>) -> tensor<4x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x517xbf16>, tensor<517x70xbf16>) outs(%f : tensor<4x70xf32>) -> tensor<4x70xf32>
  return %r : tensor<4x70xf32>
}
func.func @bf16_nt_4x517x70(%a: tensor<4x517xbf16>, %b: tensor<70x517xbf16>) -> tensor<4x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x70xf32>) -> tensor<4x70xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<4x517xbf16>, tensor<70x517xbf16>) outs(%f : tensor<4x70xf32>) -> tensor<4x70xf32>
  return %r : tensor<4x70xf32>
}
