// Element types through dispatches: integers of 1 to 64 bits, f16, bf16, f32, f64, and
// conversions between them (round to nearest even).
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run --module=%t.kiln --device=cpu --function=add_i8 --input=4xi8=1,-2,127,-128 --input=4xi8=1,1,1,-1 --expected_output=4xi8=2,-1,-128,127
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=mul_i64 --input=2xi64=3000000000,-5 --input=2xi64=3,7 --expected_output=2xi64=9000000000,-35
// RUN: kiln-run --module=%t.kiln --device=cpu --function=less_than --input=3xi32=1,5,-3 --input=3xi32=2,5,-4 --expected_output=3xi1=1,0,0
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=add_f16 --input=3xf16=1,0.5,65504 --input=3xf16=0.25,0.25,65504 --expected_output=3xf16=1.25,0.75,inf
// RUN: kiln-run --module=%t.kiln --device=cpu --function=add_bf16 --input=2xbf16=1,256 --input=2xbf16=0.5,1 --expected_output=2xbf16=1.5,256
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=f64_sqrt --input=2xf64=2,9 --expected_output=2xf64=1.4142135623730951,3 --atol=0 --rtol=1e-15
// RUN: kiln-run --module=%t.kiln --device=cpu --function=f32_to_f16 --input=3xf32=1.00048828125,1.00146484375,70000 --expected_output=3xf16=1,1.001953125,inf --atol=0 --rtol=0
// RUN: kiln-run --module=%t.kiln --device=cpu --function=f32_to_bf16 --input=2xf32=1.00390625,1.01171875 --expected_output=2xbf16=1,1.015625 --atol=0 --rtol=0
// The same on the AMD GPU path: compiled for gfx942, run on hip-sim (the host twin).
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=add_i8 --input=4xi8=1,-2,127,-128 --input=4xi8=1,1,1,-1 --expected_output=4xi8=2,-1,-128,127
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=less_than --input=3xi32=1,5,-3 --input=3xi32=2,5,-4 --expected_output=3xi1=1,0,0
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=add_bf16 --input=2xbf16=1,256 --input=2xbf16=0.5,1 --expected_output=2xbf16=1.5,256
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=f32_to_f16 --input=3xf32=1.00048828125,1.00146484375,70000 --expected_output=3xf16=1,1.001953125,inf --atol=0 --rtol=0
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=f32_to_bf16 --input=2xf32=1.00390625,1.01171875 --expected_output=2xbf16=1,1.015625 --atol=0 --rtol=0

func.func @add_i8(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %r = arith.addi %a, %b : tensor<4xi8>
  return %r : tensor<4xi8>
}
func.func @mul_i64(%a: tensor<2xi64>, %b: tensor<2xi64>) -> tensor<2xi64> {
  %r = arith.muli %a, %b : tensor<2xi64>
  return %r : tensor<2xi64>
}
func.func @less_than(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi1> {
  %r = arith.cmpi slt, %a, %b : tensor<3xi32>
  return %r : tensor<3xi1>
}
func.func @add_f16(%a: tensor<3xf16>, %b: tensor<3xf16>) -> tensor<3xf16> {
  %r = arith.addf %a, %b : tensor<3xf16>
  return %r : tensor<3xf16>
}
func.func @add_bf16(%a: tensor<2xbf16>, %b: tensor<2xbf16>) -> tensor<2xbf16> {
  %r = arith.addf %a, %b : tensor<2xbf16>
  return %r : tensor<2xbf16>
}
func.func @f64_sqrt(%a: tensor<2xf64>) -> tensor<2xf64> {
  %r = math.sqrt %a : tensor<2xf64>
  return %r : tensor<2xf64>
}
func.func @f32_to_f16(%a: tensor<3xf32>) -> tensor<3xf16> {
  %r = arith.truncf %a : tensor<3xf32> to tensor<3xf16>
  return %r : tensor<3xf16>
}
func.func @f32_to_bf16(%a: tensor<2xf32>) -> tensor<2xbf16> {
  %r = arith.truncf %a : tensor<2xf32> to tensor<2xbf16>
  return %r : tensor<2xbf16>
}
