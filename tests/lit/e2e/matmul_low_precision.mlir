// bf16 x bf16 -> f32 and i8 x i8 -> i32 matmuls, B[K, N] and W[N, K], with remainders of
// the 8-row and 32-column register tiles and of the k groups (K odd, K % 4 = 2) and depths
// spanning three cache blocks, against numpy (Inputs/low_precision_operands.py): i8 exactly
// (every int8 value, -128 included), bf16 within f32 rounding of the sums (the products
// are exact; the order of the additions is the kernel's). Compiled for this machine (with
// AVX512_BF16 and AVX512_VNNI, vdpbf16ps and vpdpbusd: kiln-cpu-tile-contractions'
// dot-bf16 and dot-i8), and for haswell (AVX2: neither), which takes the loops instead;
// matmul_low_precision_avx512.mlir runs them compiled for AVX-512 CPUs without one or both.
// RUN: rm -rf %t && %python %S/Inputs/low_precision_operands.py %t
// RUN: kiln-compile %s -o %t/host.kiln
// RUN: kiln-compile %s -o %t/haswell.kiln --target-cpu=haswell
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=bf16_nn_37x130x61 --input=37x130xbf16=@%t/bf16_a_37x130x61.npy --input=130x61xbf16=@%t/bf16_b_37x130x61.npy --expected_output=@%t/bf16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=bf16_nn_37x130x61 --input=37x130xbf16=@%t/bf16_a_37x130x61.npy --input=130x61xbf16=@%t/bf16_b_37x130x61.npy --expected_output=@%t/bf16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=bf16_nn_37x130x61 --input=37x130xbf16=@%t/bf16_a_37x130x61.npy --input=130x61xbf16=@%t/bf16_b_37x130x61.npy --expected_output=@%t/bf16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=bf16_nt_37x130x61 --input=37x130xbf16=@%t/bf16_a_37x130x61.npy --input=61x130xbf16=@%t/bf16_w_37x130x61.npy --expected_output=@%t/bf16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=bf16_nt_37x130x61 --input=37x130xbf16=@%t/bf16_a_37x130x61.npy --input=61x130xbf16=@%t/bf16_w_37x130x61.npy --expected_output=@%t/bf16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=bf16_nt_37x130x61 --input=37x130xbf16=@%t/bf16_a_37x130x61.npy --input=61x130xbf16=@%t/bf16_w_37x130x61.npy --expected_output=@%t/bf16_ref_37x130x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=i8_nn_37x130x61 --input=@%t/i8_a_37x130x61.npy --input=@%t/i8_b_37x130x61.npy --expected_output=@%t/i8_ref_37x130x61.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=i8_nn_37x130x61 --input=@%t/i8_a_37x130x61.npy --input=@%t/i8_b_37x130x61.npy --expected_output=@%t/i8_ref_37x130x61.npy
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=i8_nn_37x130x61 --input=@%t/i8_a_37x130x61.npy --input=@%t/i8_b_37x130x61.npy --expected_output=@%t/i8_ref_37x130x61.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=i8_nt_37x130x61 --input=@%t/i8_a_37x130x61.npy --input=@%t/i8_w_37x130x61.npy --expected_output=@%t/i8_ref_37x130x61.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=i8_nt_37x130x61 --input=@%t/i8_a_37x130x61.npy --input=@%t/i8_w_37x130x61.npy --expected_output=@%t/i8_ref_37x130x61.npy
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=i8_nt_37x130x61 --input=@%t/i8_a_37x130x61.npy --input=@%t/i8_w_37x130x61.npy --expected_output=@%t/i8_ref_37x130x61.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=bf16_nn_37x131x61 --input=37x131xbf16=@%t/bf16_a_37x131x61.npy --input=131x61xbf16=@%t/bf16_b_37x131x61.npy --expected_output=@%t/bf16_ref_37x131x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=bf16_nn_37x131x61 --input=37x131xbf16=@%t/bf16_a_37x131x61.npy --input=131x61xbf16=@%t/bf16_b_37x131x61.npy --expected_output=@%t/bf16_ref_37x131x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=bf16_nn_37x131x61 --input=37x131xbf16=@%t/bf16_a_37x131x61.npy --input=131x61xbf16=@%t/bf16_b_37x131x61.npy --expected_output=@%t/bf16_ref_37x131x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=bf16_nt_37x131x61 --input=37x131xbf16=@%t/bf16_a_37x131x61.npy --input=61x131xbf16=@%t/bf16_w_37x131x61.npy --expected_output=@%t/bf16_ref_37x131x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=bf16_nt_37x131x61 --input=37x131xbf16=@%t/bf16_a_37x131x61.npy --input=61x131xbf16=@%t/bf16_w_37x131x61.npy --expected_output=@%t/bf16_ref_37x131x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=bf16_nt_37x131x61 --input=37x131xbf16=@%t/bf16_a_37x131x61.npy --input=61x131xbf16=@%t/bf16_w_37x131x61.npy --expected_output=@%t/bf16_ref_37x131x61.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=i8_nn_37x131x61 --input=@%t/i8_a_37x131x61.npy --input=@%t/i8_b_37x131x61.npy --expected_output=@%t/i8_ref_37x131x61.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=i8_nn_37x131x61 --input=@%t/i8_a_37x131x61.npy --input=@%t/i8_b_37x131x61.npy --expected_output=@%t/i8_ref_37x131x61.npy
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=i8_nn_37x131x61 --input=@%t/i8_a_37x131x61.npy --input=@%t/i8_b_37x131x61.npy --expected_output=@%t/i8_ref_37x131x61.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=i8_nt_37x131x61 --input=@%t/i8_a_37x131x61.npy --input=@%t/i8_w_37x131x61.npy --expected_output=@%t/i8_ref_37x131x61.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=i8_nt_37x131x61 --input=@%t/i8_a_37x131x61.npy --input=@%t/i8_w_37x131x61.npy --expected_output=@%t/i8_ref_37x131x61.npy
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=i8_nt_37x131x61 --input=@%t/i8_a_37x131x61.npy --input=@%t/i8_w_37x131x61.npy --expected_output=@%t/i8_ref_37x131x61.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=bf16_nn_45x517x70 --input=45x517xbf16=@%t/bf16_a_45x517x70.npy --input=517x70xbf16=@%t/bf16_b_45x517x70.npy --expected_output=@%t/bf16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=bf16_nn_45x517x70 --input=45x517xbf16=@%t/bf16_a_45x517x70.npy --input=517x70xbf16=@%t/bf16_b_45x517x70.npy --expected_output=@%t/bf16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=bf16_nn_45x517x70 --input=45x517xbf16=@%t/bf16_a_45x517x70.npy --input=517x70xbf16=@%t/bf16_b_45x517x70.npy --expected_output=@%t/bf16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=bf16_nt_45x517x70 --input=45x517xbf16=@%t/bf16_a_45x517x70.npy --input=70x517xbf16=@%t/bf16_w_45x517x70.npy --expected_output=@%t/bf16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=bf16_nt_45x517x70 --input=45x517xbf16=@%t/bf16_a_45x517x70.npy --input=70x517xbf16=@%t/bf16_w_45x517x70.npy --expected_output=@%t/bf16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=bf16_nt_45x517x70 --input=45x517xbf16=@%t/bf16_a_45x517x70.npy --input=70x517xbf16=@%t/bf16_w_45x517x70.npy --expected_output=@%t/bf16_ref_45x517x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=i8_nn_45x517x70 --input=@%t/i8_a_45x517x70.npy --input=@%t/i8_b_45x517x70.npy --expected_output=@%t/i8_ref_45x517x70.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=i8_nn_45x517x70 --input=@%t/i8_a_45x517x70.npy --input=@%t/i8_b_45x517x70.npy --expected_output=@%t/i8_ref_45x517x70.npy
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=i8_nn_45x517x70 --input=@%t/i8_a_45x517x70.npy --input=@%t/i8_b_45x517x70.npy --expected_output=@%t/i8_ref_45x517x70.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=i8_nt_45x517x70 --input=@%t/i8_a_45x517x70.npy --input=@%t/i8_w_45x517x70.npy --expected_output=@%t/i8_ref_45x517x70.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=i8_nt_45x517x70 --input=@%t/i8_a_45x517x70.npy --input=@%t/i8_w_45x517x70.npy --expected_output=@%t/i8_ref_45x517x70.npy
// RUN: kiln-run --module=%t/haswell.kiln --device=cpu --function=i8_nt_45x517x70 --input=@%t/i8_a_45x517x70.npy --input=@%t/i8_w_45x517x70.npy --expected_output=@%t/i8_ref_45x517x70.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=i8_nn_dynamic_rows --input=@%t/i8_a_45x517x70.npy --input=@%t/i8_b_45x517x70.npy --expected_output=@%t/i8_ref_45x517x70.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=i8_nn_dynamic_rows --input=@%t/i8_a_45x517x70.npy --input=@%t/i8_b_45x517x70.npy --expected_output=@%t/i8_ref_45x517x70.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=bf16_nn_biased --input=520x600xbf16=@%t/bf16_a_520x600x1040.npy --input=600x1040xbf16=@%t/bf16_b_520x600x1040.npy --expected_output=@%t/bf16_biased_ref_520x600x1040.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=bf16_nt_biased --input=520x600xbf16=@%t/bf16_a_520x600x1040.npy --input=1040x600xbf16=@%t/bf16_w_520x600x1040.npy --expected_output=@%t/bf16_biased_ref_520x600x1040.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu --function=i8_nt_biased --input=@%t/i8_a_520x600x1040.npy --input=@%t/i8_w_520x600x1040.npy --expected_output=@%t/i8_biased_ref_520x600x1040.npy
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=bf16_nn_biased --input=520x600xbf16=@%t/bf16_a_520x600x1040.npy --input=600x1040xbf16=@%t/bf16_b_520x600x1040.npy --expected_output=@%t/bf16_biased_ref_520x600x1040.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=bf16_nt_biased --input=520x600xbf16=@%t/bf16_a_520x600x1040.npy --input=1040x600xbf16=@%t/bf16_w_520x600x1040.npy --expected_output=@%t/bf16_biased_ref_520x600x1040.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/host.kiln --device=cpu-sync --function=i8_nt_biased --input=@%t/i8_a_520x600x1040.npy --input=@%t/i8_w_520x600x1040.npy --expected_output=@%t/i8_biased_ref_520x600x1040.npy

func.func @bf16_nn_37x130x61(%a: tensor<37x130xbf16>, %b: tensor<130x61xbf16>) -> tensor<37x61xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %r = linalg.matmul ins(%a, %b : tensor<37x130xbf16>, tensor<130x61xbf16>) outs(%f : tensor<37x61xf32>) -> tensor<37x61xf32>
  return %r : tensor<37x61xf32>
}

func.func @bf16_nt_37x130x61(%a: tensor<37x130xbf16>, %b: tensor<61x130xbf16>) -> tensor<37x61xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<37x130xbf16>, tensor<61x130xbf16>) outs(%f : tensor<37x61xf32>) -> tensor<37x61xf32>
  return %r : tensor<37x61xf32>
}

func.func @i8_nn_37x130x61(%a: tensor<37x130xi8>, %b: tensor<130x61xi8>) -> tensor<37x61xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<37x61xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<37x61xi32>) -> tensor<37x61xi32>
  %r = linalg.matmul ins(%a, %b : tensor<37x130xi8>, tensor<130x61xi8>) outs(%f : tensor<37x61xi32>) -> tensor<37x61xi32>
  return %r : tensor<37x61xi32>
}

func.func @i8_nt_37x130x61(%a: tensor<37x130xi8>, %b: tensor<61x130xi8>) -> tensor<37x61xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<37x61xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<37x61xi32>) -> tensor<37x61xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<37x130xi8>, tensor<61x130xi8>) outs(%f : tensor<37x61xi32>) -> tensor<37x61xi32>
  return %r : tensor<37x61xi32>
}

func.func @bf16_nn_37x131x61(%a: tensor<37x131xbf16>, %b: tensor<131x61xbf16>) -> tensor<37x61xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %r = linalg.matmul ins(%a, %b : tensor<37x131xbf16>, tensor<131x61xbf16>) outs(%f : tensor<37x61xf32>) -> tensor<37x61xf32>
  return %r : tensor<37x61xf32>
}

func.func @bf16_nt_37x131x61(%a: tensor<37x131xbf16>, %b: tensor<61x131xbf16>) -> tensor<37x61xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x61xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x61xf32>) -> tensor<37x61xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<37x131xbf16>, tensor<61x131xbf16>) outs(%f : tensor<37x61xf32>) -> tensor<37x61xf32>
  return %r : tensor<37x61xf32>
}

func.func @i8_nn_37x131x61(%a: tensor<37x131xi8>, %b: tensor<131x61xi8>) -> tensor<37x61xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<37x61xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<37x61xi32>) -> tensor<37x61xi32>
  %r = linalg.matmul ins(%a, %b : tensor<37x131xi8>, tensor<131x61xi8>) outs(%f : tensor<37x61xi32>) -> tensor<37x61xi32>
  return %r : tensor<37x61xi32>
}

func.func @i8_nt_37x131x61(%a: tensor<37x131xi8>, %b: tensor<61x131xi8>) -> tensor<37x61xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<37x61xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<37x61xi32>) -> tensor<37x61xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<37x131xi8>, tensor<61x131xi8>) outs(%f : tensor<37x61xi32>) -> tensor<37x61xi32>
  return %r : tensor<37x61xi32>
}

func.func @bf16_nn_45x517x70(%a: tensor<45x517xbf16>, %b: tensor<517x70xbf16>) -> tensor<45x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<45x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<45x70xf32>) -> tensor<45x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<45x517xbf16>, tensor<517x70xbf16>) outs(%f : tensor<45x70xf32>) -> tensor<45x70xf32>
  return %r : tensor<45x70xf32>
}

func.func @bf16_nt_45x517x70(%a: tensor<45x517xbf16>, %b: tensor<70x517xbf16>) -> tensor<45x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<45x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<45x70xf32>) -> tensor<45x70xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<45x517xbf16>, tensor<70x517xbf16>) outs(%f : tensor<45x70xf32>) -> tensor<45x70xf32>
  return %r : tensor<45x70xf32>
}

func.func @i8_nn_45x517x70(%a: tensor<45x517xi8>, %b: tensor<517x70xi8>) -> tensor<45x70xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<45x70xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<45x70xi32>) -> tensor<45x70xi32>
  %r = linalg.matmul ins(%a, %b : tensor<45x517xi8>, tensor<517x70xi8>) outs(%f : tensor<45x70xi32>) -> tensor<45x70xi32>
  return %r : tensor<45x70xi32>
}

func.func @i8_nt_45x517x70(%a: tensor<45x517xi8>, %b: tensor<70x517xi8>) -> tensor<45x70xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<45x70xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<45x70xi32>) -> tensor<45x70xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<45x517xi8>, tensor<70x517xi8>) outs(%f : tensor<45x70xi32>) -> tensor<45x70xi32>
  return %r : tensor<45x70xi32>
}

// Rows known only at run time (the register tiles' remainder is then dynamic too).
func.func @i8_nn_dynamic_rows(%a: tensor<?x517xi8>, %b: tensor<517x70xi8>) -> tensor<?x70xi32> {
  %zero = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x517xi8>
  %e = tensor.empty(%m) : tensor<?x70xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<?x70xi32>) -> tensor<?x70xi32>
  %r = linalg.matmul ins(%a, %b : tensor<?x517xi8>, tensor<517x70xi8>) outs(%f : tensor<?x70xi32>) -> tensor<?x70xi32>
  return %r : tensor<?x70xi32>
}

// Into outputs filled with a value other than zero (a bias), 2.1 MiB (prefetched for
// writing): each register tile writes the fill's value plus its sums in the first block
// of k, reads back its output in the other two (600 = 256 + 256 + 88); 1040 columns are
// 32 whole blocks and 16 of loops, 520 rows 65 tiles of 8.
func.func @bf16_nn_biased(%a: tensor<520x600xbf16>, %b: tensor<600x1040xbf16>) -> tensor<520x1040xf32> {
  %bias = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<520x1040xf32>
  %f = linalg.fill ins(%bias : f32) outs(%e : tensor<520x1040xf32>) -> tensor<520x1040xf32>
  %r = linalg.matmul ins(%a, %b : tensor<520x600xbf16>, tensor<600x1040xbf16>) outs(%f : tensor<520x1040xf32>) -> tensor<520x1040xf32>
  return %r : tensor<520x1040xf32>
}

func.func @bf16_nt_biased(%a: tensor<520x600xbf16>, %b: tensor<1040x600xbf16>) -> tensor<520x1040xf32> {
  %bias = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<520x1040xf32>
  %f = linalg.fill ins(%bias : f32) outs(%e : tensor<520x1040xf32>) -> tensor<520x1040xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<520x600xbf16>, tensor<1040x600xbf16>) outs(%f : tensor<520x1040xf32>) -> tensor<520x1040xf32>
  return %r : tensor<520x1040xf32>
}

func.func @i8_nt_biased(%a: tensor<520x600xi8>, %b: tensor<1040x600xi8>) -> tensor<520x1040xi32> {
  %bias = arith.constant 7 : i32
  %e = tensor.empty() : tensor<520x1040xi32>
  %f = linalg.fill ins(%bias : i32) outs(%e : tensor<520x1040xi32>) -> tensor<520x1040xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<520x600xi8>, tensor<1040x600xi8>) outs(%f : tensor<520x1040xi32>) -> tensor<520x1040xi32>
  return %r : tensor<520x1040xi32>
}
