// Code for a CPU with AMX runs on tiles, and says so: compiled for sapphirerapids, a bf16
// and an i8 matmul become tdpbf16ps and tdpbssd between a tile configuration and its
// release, and the executable exports kiln_executable_needs (AMX tile registers, which the
// CPU driver requests from Linux before loading it). For znver4 (no AMX) neither. Runs on
// any machine: nothing is executed (matmul_amx.mlir runs the code where the CPU has AMX).
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-compile %s -o %t/spr.kiln --target-cpu=sapphirerapids
// RUN: kiln-dump %t/spr.kiln --extract-executables=%t/spr
// RUN: llvm-objdump-22 -d --no-show-raw-insn %t/spr/*.so | FileCheck %s --check-prefix=SPR
// RUN: llvm-nm-22 -D %t/spr/*.so | FileCheck %s --check-prefix=NEEDS
// RUN: kiln-compile %s -o %t/zen.kiln --target-cpu=znver4
// RUN: kiln-dump %t/zen.kiln --extract-executables=%t/zen
// RUN: llvm-objdump-22 -d --no-show-raw-insn %t/zen/*.so | FileCheck %s --check-prefix=ZEN
// RUN: llvm-nm-22 -D %t/zen/*.so | FileCheck %s --check-prefix=NONE
// SPR-DAG: ldtilecfg
// SPR-DAG: tileloadd
// SPR-DAG: tdpbf16ps
// SPR-DAG: tdpbssd
// SPR-DAG: tilestored
// SPR-DAG: tilerelease
// NEEDS: kiln_executable_needs
// ZEN-NOT: tdp
// ZEN: vdpbf16ps
// ZEN-NOT: tdp
// NONE-NOT: kiln_executable_needs

func.func @bf16(%a: tensor<64x256xbf16>, %b: tensor<256x64xbf16>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x256xbf16>, tensor<256x64xbf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @i8(%a: tensor<64x256xi8>, %b: tensor<256x64xi8>) -> tensor<64x64xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<64x64xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<64x64xi32>) -> tensor<64x64xi32>
  %r = linalg.matmul ins(%a, %b : tensor<64x256xi8>, tensor<256x64xi8>) outs(%f : tensor<64x64xi32>) -> tensor<64x64xi32>
  return %r : tensor<64x64xi32>
}
