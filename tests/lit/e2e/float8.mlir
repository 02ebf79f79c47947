// 8-bit floats in kernels and in memory: rounding to nearest even, each format's overflow,
// NaN and zero rules, and an FP8 linear layer (f8 operands, f32 accumulation).
// RUN: kiln-compile %s -o %t.kiln
// f8E4M3FN: ties to even (1.0625 -> 1, 1.1875 -> 1.25, 464 -> 448), 500 overflows to NaN
// (no infinity), 2^-9 is the smallest subnormal, -2^-10 ties to -0.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=roundtrip_e4m3fn --input=8xf32=1,1.0625,1.1875,448,464,500,0.001953125,-0.0009765625 --expected_output=8xf32=1,1,1.25,448,448,nan,0.001953125,-0 --atol=0 --rtol=0
// f8E4M3FNUZ: max 240, overflow and -0 rules (no negative zero), smallest subnormal 2^-10.
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=roundtrip_e4m3fnuz --input=6xf32=240,250,-1e-9,0.0009765625,-3.25,inf --expected_output=6xf32=240,nan,0,0.0009765625,-3.25,nan --atol=0 --rtol=0
// f8E5M2: infinities exist; 57344 is the largest finite value, 61440 rounds to inf.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=roundtrip_e5m2 --input=6xf32=57344,61440,-inf,nan,1.125,0.0000152587890625 --expected_output=6xf32=57344,inf,-inf,nan,1,0.0000152587890625 --atol=0 --rtol=0
// f8E5M2FNUZ: bias 16, no infinities.
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=roundtrip_e5m2fnuz --input=4xf32=57344,70000,-0.0,3 --expected_output=4xf32=57344,nan,0,3 --atol=0 --rtol=0
// An FP8 linear layer: both operands rounded to f8 by their own dispatches, then a matmul
// reading f8 from memory and accumulating in f32.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=fp8_linear --input=2x3xf32=1,2,3,0.5,0.25,1.1 --input=3x2xf32=1,0,0,1,1,1 --expected_output=2x2xf32=4,5,1.625,1.375 --atol=0 --rtol=0
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=fp8_linear_fnuz --input=2x3xf32=1,2,3,0.5,0.25,1.1 --input=3x2xf32=1,0,0,1,1,1 --expected_output=2x2xf32=4,5,1.625,1.375 --atol=0 --rtol=0
// f8 values at the tools' boundary: kiln-run parses them (1.0625 -> 1, 300 -> 288, -0 ->
// +0 without a negative zero), the program doubles them (576 overflows to NaN), and the
// results compare as numbers.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=double_e4m3fn --input=5xf8E4M3FN=1,1.0625,224,300,-0.001953125 --expected_output=5xf8E4M3FN=2,2,448,nan,-0.00390625 --atol=0 --rtol=0
// RUN: kiln-run --module=%t.kiln --device=cpu --function=double_e5m2fnuz --input=4xf8E5M2FNUZ=-0.0,-3,40000,0.0000152587890625 --expected_output=4xf8E5M2FNUZ=0,-6,nan,0.000030517578125 --atol=0 --rtol=0
// The same on the AMD GPU path: compiled for gfx942, run on hip-sim (the host twin).
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=roundtrip_e4m3fn --input=8xf32=1,1.0625,1.1875,448,464,500,0.001953125,-0.0009765625 --expected_output=8xf32=1,1,1.25,448,448,nan,0.001953125,-0 --atol=0 --rtol=0
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=roundtrip_e5m2 --input=6xf32=57344,61440,-inf,nan,1.125,0.0000152587890625 --expected_output=6xf32=57344,inf,-inf,nan,1,0.0000152587890625 --atol=0 --rtol=0
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=fp8_linear --input=2x3xf32=1,2,3,0.5,0.25,1.1 --input=3x2xf32=1,0,0,1,1,1 --expected_output=2x2xf32=4,5,1.625,1.375 --atol=0 --rtol=0

func.func @roundtrip_e4m3fn(%x: tensor<8xf32>) -> tensor<8xf32> {
  %t = arith.truncf %x : tensor<8xf32> to tensor<8xf8E4M3FN>
  %r = arith.extf %t : tensor<8xf8E4M3FN> to tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @double_e4m3fn(%x: tensor<5xf8E4M3FN>) -> tensor<5xf8E4M3FN> {
  %r = arith.addf %x, %x : tensor<5xf8E4M3FN>
  return %r : tensor<5xf8E4M3FN>
}
func.func @double_e5m2fnuz(%x: tensor<4xf8E5M2FNUZ>) -> tensor<4xf8E5M2FNUZ> {
  %r = arith.addf %x, %x : tensor<4xf8E5M2FNUZ>
  return %r : tensor<4xf8E5M2FNUZ>
}
func.func @roundtrip_e4m3fnuz(%x: tensor<6xf32>) -> tensor<6xf32> {
  %t = arith.truncf %x : tensor<6xf32> to tensor<6xf8E4M3FNUZ>
  %r = arith.extf %t : tensor<6xf8E4M3FNUZ> to tensor<6xf32>
  return %r : tensor<6xf32>
}
func.func @roundtrip_e5m2(%x: tensor<6xf32>) -> tensor<6xf32> {
  %t = arith.truncf %x : tensor<6xf32> to tensor<6xf8E5M2>
  %r = arith.extf %t : tensor<6xf8E5M2> to tensor<6xf32>
  return %r : tensor<6xf32>
}
func.func @roundtrip_e5m2fnuz(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = arith.truncf %x : tensor<4xf32> to tensor<4xf8E5M2FNUZ>
  %r = arith.extf %t : tensor<4xf8E5M2FNUZ> to tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @fp8_linear(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %x8 = arith.truncf %x : tensor<2x3xf32> to tensor<2x3xf8E4M3FN>
  %w8 = arith.truncf %w : tensor<3x2xf32> to tensor<3x2xf8E4M3FN>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.matmul ins(%x8, %w8 : tensor<2x3xf8E4M3FN>, tensor<3x2xf8E4M3FN>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
func.func @fp8_linear_fnuz(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %x8 = arith.truncf %x : tensor<2x3xf32> to tensor<2x3xf8E4M3FNUZ>
  %w8 = arith.truncf %w : tensor<3x2xf32> to tensor<3x2xf8E4M3FNUZ>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.matmul ins(%x8, %w8 : tensor<2x3xf8E4M3FNUZ>, tensor<3x2xf8E4M3FNUZ>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
