// f16 matmuls on the CPU's own instructions, read off the code (nothing is executed, so
// this runs on any machine; matmul_f16.mlir and matmul_f16_native.mlir run the code).
// For sapphirerapids (AVX512_FP16), f16 into f16 multiplies in f16: vfmadd231ph with the
// broadcast row value as an embedded broadcast ({1to32}). For znver4 (no AVX512_FP16),
// f16 into f32 widens while packing (vcvtph2ps) and runs the f32 kernel (vfmadd231ps), and
// f16 into f16 too, its f32 sums rounded once (vcvtps2ph, kiln-widen-matmul-accumulators);
// there is no vfmadd231ph.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-compile %s -o %t/spr.kiln --target-cpu=sapphirerapids
// RUN: kiln-dump %t/spr.kiln --extract-executables=%t/spr
// RUN: llvm-objdump-22 -d --no-show-raw-insn %t/spr/*.so | FileCheck %s --check-prefix=SPR
// RUN: kiln-compile %s -o %t/zen.kiln --target-cpu=znver4
// RUN: kiln-dump %t/zen.kiln --extract-executables=%t/zen
// RUN: llvm-objdump-22 -d --no-show-raw-insn %t/zen/*.so | FileCheck %s --check-prefix=ZEN
// SPR: vfmadd231ph {{.*}}{1to32}, %zmm
// ZEN-NOT: vfmadd231ph
// ZEN-DAG: vcvtph2ps {{.*}}%zmm
// ZEN-DAG: vfmadd231ps {{.*}}%zmm
// ZEN-DAG: vcvtps2ph {{.*}}%zmm
// ZEN-NOT: vfmadd231ph

func.func @f16_into_f16(%a: tensor<64x256xf16>, %b: tensor<256x64xf16>) -> tensor<64x64xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x64xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
  %r = linalg.matmul ins(%a, %b : tensor<64x256xf16>, tensor<256x64xf16>) outs(%f : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}

func.func @f16_into_f32(%a: tensor<64x256xf16>, %w: tensor<64x256xf16>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %w : tensor<64x256xf16>, tensor<64x256xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
