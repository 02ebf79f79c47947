// REQUIRES: cpu-amx_bf16, cpu-amx_int8
// bf16 x bf16 -> f32 and i8 x i8 -> i32 matmuls on AMX tiles (tdpbf16ps, tdpbssd;
// MatrixTileProducts.h), compiled for sapphirerapids: depths that are a multiple of 64 k,
// B[K, N] and W[N, K], rows after the last 32-row tile (77 = 2 x 32 + 8 + 5), columns
// after the last 32 (70), several blocks of k and of columns (600), dynamic rows; against numpy
// (Inputs/low_precision_operands.py): i8 exactly, bf16 within f32 rounding of the sums.
// The disassembly shows that the tiles are AMX's (amx-code.mlir checks the same code on
// any machine, without running it).
// RUN: rm -rf %t && %python %S/Inputs/low_precision_operands.py %t
// RUN: kiln-compile %s -o %t/spr.kiln --target-cpu=sapphirerapids
// RUN: kiln-dump %t/spr.kiln --extract-executables=%t/x && llvm-objdump-22 -d --no-show-raw-insn %t/x/*.so | FileCheck %s --check-prefix=CODE
// CODE-DAG: tdpbf16ps
// CODE-DAG: tdpbssd
// CODE-DAG: vdpbf16ps
// CODE-DAG: vpdpbusd
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=bf16_nn_77x1152x70 --input=77x1152xbf16=@%t/bf16_a_77x1152x70.npy --input=1152x70xbf16=@%t/bf16_b_77x1152x70.npy --expected_output=@%t/bf16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=bf16_nt_77x1152x70 --input=77x1152xbf16=@%t/bf16_a_77x1152x70.npy --input=70x1152xbf16=@%t/bf16_w_77x1152x70.npy --expected_output=@%t/bf16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=i8_nn_77x1152x70 --input=@%t/i8_a_77x1152x70.npy --input=@%t/i8_b_77x1152x70.npy --expected_output=@%t/i8_ref_77x1152x70.npy
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=i8_nt_77x1152x70 --input=@%t/i8_a_77x1152x70.npy --input=@%t/i8_w_77x1152x70.npy --expected_output=@%t/i8_ref_77x1152x70.npy
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=bf16_nn_77x1152x70 --input=77x1152xbf16=@%t/bf16_a_77x1152x70.npy --input=1152x70xbf16=@%t/bf16_b_77x1152x70.npy --expected_output=@%t/bf16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=bf16_nt_77x1152x70 --input=77x1152xbf16=@%t/bf16_a_77x1152x70.npy --input=70x1152xbf16=@%t/bf16_w_77x1152x70.npy --expected_output=@%t/bf16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=i8_nn_77x1152x70 --input=@%t/i8_a_77x1152x70.npy --input=@%t/i8_b_77x1152x70.npy --expected_output=@%t/i8_ref_77x1152x70.npy
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=i8_nt_77x1152x70 --input=@%t/i8_a_77x1152x70.npy --input=@%t/i8_w_77x1152x70.npy --expected_output=@%t/i8_ref_77x1152x70.npy
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=bf16_nn_64x192x32 --input=64x192xbf16=@%t/bf16_a_64x192x32.npy --input=192x32xbf16=@%t/bf16_b_64x192x32.npy --expected_output=@%t/bf16_ref_64x192x32.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=bf16_nt_64x192x32 --input=64x192xbf16=@%t/bf16_a_64x192x32.npy --input=32x192xbf16=@%t/bf16_w_64x192x32.npy --expected_output=@%t/bf16_ref_64x192x32.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=i8_nn_64x192x32 --input=@%t/i8_a_64x192x32.npy --input=@%t/i8_b_64x192x32.npy --expected_output=@%t/i8_ref_64x192x32.npy
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=i8_nt_64x192x32 --input=@%t/i8_a_64x192x32.npy --input=@%t/i8_w_64x192x32.npy --expected_output=@%t/i8_ref_64x192x32.npy
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=bf16_nn_64x192x32 --input=64x192xbf16=@%t/bf16_a_64x192x32.npy --input=192x32xbf16=@%t/bf16_b_64x192x32.npy --expected_output=@%t/bf16_ref_64x192x32.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=bf16_nt_64x192x32 --input=64x192xbf16=@%t/bf16_a_64x192x32.npy --input=32x192xbf16=@%t/bf16_w_64x192x32.npy --expected_output=@%t/bf16_ref_64x192x32.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=i8_nn_64x192x32 --input=@%t/i8_a_64x192x32.npy --input=@%t/i8_b_64x192x32.npy --expected_output=@%t/i8_ref_64x192x32.npy
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=i8_nt_64x192x32 --input=@%t/i8_a_64x192x32.npy --input=@%t/i8_w_64x192x32.npy --expected_output=@%t/i8_ref_64x192x32.npy
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=i8_nn_dynamic_rows --input=@%t/i8_a_77x1152x70.npy --input=@%t/i8_b_77x1152x70.npy --expected_output=@%t/i8_ref_77x1152x70.npy
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=bf16_nt_dynamic_rows --input=77x1152xbf16=@%t/bf16_a_77x1152x70.npy --input=70x1152xbf16=@%t/bf16_w_77x1152x70.npy --expected_output=@%t/bf16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=i8_nn_dynamic_rows --input=@%t/i8_a_77x1152x70.npy --input=@%t/i8_b_77x1152x70.npy --expected_output=@%t/i8_ref_77x1152x70.npy
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=bf16_nt_dynamic_rows --input=77x1152xbf16=@%t/bf16_a_77x1152x70.npy --input=70x1152xbf16=@%t/bf16_w_77x1152x70.npy --expected_output=@%t/bf16_ref_77x1152x70.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=bf16_nn_40x128x600 --input=40x128xbf16=@%t/bf16_a_40x128x600.npy --input=128x600xbf16=@%t/bf16_b_40x128x600.npy --expected_output=@%t/bf16_ref_40x128x600.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/spr.kiln --device=cpu --function=i8_nt_40x128x600 --input=@%t/i8_a_40x128x600.npy --input=@%t/i8_w_40x128x600.npy --expected_output=@%t/i8_ref_40x128x600.npy
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=bf16_nn_40x128x600 --input=40x128xbf16=@%t/bf16_a_40x128x600.npy --input=128x600xbf16=@%t/bf16_b_40x128x600.npy --expected_output=@%t/bf16_ref_40x128x600.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/spr.kiln --device=cpu-sync --function=i8_nt_40x128x600 --input=@%t/i8_a_40x128x600.npy --input=@%t/i8_w_40x128x600.npy --expected_output=@%t/i8_ref_40x128x600.npy

func.func @bf16_nn_77x1152x70(%a: tensor<77x1152xbf16>, %b: tensor<1152x70xbf16>) -> tensor<77x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<77x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<77x70xf32>) -> tensor<77x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<77x1152xbf16>, tensor<1152x70xbf16>) outs(%f : tensor<77x70xf32>) -> tensor<77x70xf32>
  return %r : tensor<77x70xf32>
}

func.func @bf16_nt_77x1152x70(%a: tensor<77x1152xbf16>, %b: tensor<70x1152xbf16>) -> tensor<77x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<77x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<77x70xf32>) -> tensor<77x70xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<77x1152xbf16>, tensor<70x1152xbf16>) outs(%f : tensor<77x70xf32>) -> tensor<77x70xf32>
  return %r : tensor<77x70xf32>
}

func.func @i8_nn_77x1152x70(%a: tensor<77x1152xi8>, %b: tensor<1152x70xi8>) -> tensor<77x70xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<77x70xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<77x70xi32>) -> tensor<77x70xi32>
  %r = linalg.matmul ins(%a, %b : tensor<77x1152xi8>, tensor<1152x70xi8>) outs(%f : tensor<77x70xi32>) -> tensor<77x70xi32>
  return %r : tensor<77x70xi32>
}

func.func @i8_nt_77x1152x70(%a: tensor<77x1152xi8>, %b: tensor<70x1152xi8>) -> tensor<77x70xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<77x70xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<77x70xi32>) -> tensor<77x70xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<77x1152xi8>, tensor<70x1152xi8>) outs(%f : tensor<77x70xi32>) -> tensor<77x70xi32>
  return %r : tensor<77x70xi32>
}

func.func @bf16_nn_64x192x32(%a: tensor<64x192xbf16>, %b: tensor<192x32xbf16>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x192xbf16>, tensor<192x32xbf16>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

func.func @bf16_nt_64x192x32(%a: tensor<64x192xbf16>, %b: tensor<32x192xbf16>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<64x192xbf16>, tensor<32x192xbf16>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

func.func @i8_nn_64x192x32(%a: tensor<64x192xi8>, %b: tensor<192x32xi8>) -> tensor<64x32xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<64x32xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<64x32xi32>) -> tensor<64x32xi32>
  %r = linalg.matmul ins(%a, %b : tensor<64x192xi8>, tensor<192x32xi8>) outs(%f : tensor<64x32xi32>) -> tensor<64x32xi32>
  return %r : tensor<64x32xi32>
}

func.func @i8_nt_64x192x32(%a: tensor<64x192xi8>, %b: tensor<32x192xi8>) -> tensor<64x32xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<64x32xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<64x32xi32>) -> tensor<64x32xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<64x192xi8>, tensor<32x192xi8>) outs(%f : tensor<64x32xi32>) -> tensor<64x32xi32>
  return %r : tensor<64x32xi32>
}

func.func @i8_nn_dynamic_rows(%a: tensor<?x1152xi8>, %b: tensor<1152x70xi8>) -> tensor<?x70xi32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x1152xi8>
  %zero = arith.constant 0 : i32
  %e = tensor.empty(%m) : tensor<?x70xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<?x70xi32>) -> tensor<?x70xi32>
  %r = linalg.matmul ins(%a, %b : tensor<?x1152xi8>, tensor<1152x70xi8>) outs(%f : tensor<?x70xi32>) -> tensor<?x70xi32>
  return %r : tensor<?x70xi32>
}

func.func @bf16_nt_dynamic_rows(%a: tensor<?x1152xbf16>, %w: tensor<70x1152xbf16>) -> tensor<?x70xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x1152xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x70xf32>) -> tensor<?x70xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : tensor<?x1152xbf16>, tensor<70x1152xbf16>) outs(%f : tensor<?x70xf32>) -> tensor<?x70xf32>
  return %r : tensor<?x70xf32>
}

func.func @bf16_nn_40x128x600(%a: tensor<40x128xbf16>, %b: tensor<128x600xbf16>) -> tensor<40x600xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x600xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x600xf32>) -> tensor<40x600xf32>
  %r = linalg.matmul ins(%a, %b : tensor<40x128xbf16>, tensor<128x600xbf16>) outs(%f : tensor<40x600xf32>) -> tensor<40x600xf32>
  return %r : tensor<40x600xf32>
}

func.func @i8_nt_40x128x600(%a: tensor<40x128xi8>, %w: tensor<600x128xi8>) -> tensor<40x600xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<40x600xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<40x600xi32>) -> tensor<40x600xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : tensor<40x128xi8>, tensor<600x128xi8>) outs(%f : tensor<40x600xi32>) -> tensor<40x600xi32>
  return %r : tensor<40x600xi32>
}
