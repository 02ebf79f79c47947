// Matmul with a fused fill, static and with a dynamic row count.
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run --module=%t.kiln --device=cpu --function=static_mm --input=2x3xf32=1,2,3,4,5,6 --input=3x2xf32=7,8,9,10,11,12 --expected_output=2x2xf32=58,64,139,154
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=static_mm --input=2x3xf32=1,2,3,4,5,6 --input=3x2xf32=7,8,9,10,11,12 --expected_output=2x2xf32=58,64,139,154
// RUN: kiln-run --module=%t.kiln --device=cpu --function=dynamic_mm --input=3x2xf32=1,2,3,4,5,6 --input=2x2xf32=1,0,0,1 --expected_output=3x2xf32=1,2,3,4,5,6
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=dynamic_mm --input=1x2xf32=1,2 --input=2x2xf32=1,1,1,1 --expected_output=1x2xf32=3,3
// Wrong shapes are refused at the function boundary.
// RUN: not kiln-run --module=%t.kiln --device=cpu --function=static_mm --input=3x3xf32=1 --input=3x2xf32=1 2>&1 | FileCheck %s --check-prefix=SHAPE
// The same on the AMD GPU path: compiled for gfx942, run on hip-sim (the host twin).
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=static_mm --input=2x3xf32=1,2,3,4,5,6 --input=3x2xf32=7,8,9,10,11,12 --expected_output=2x2xf32=58,64,139,154
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=dynamic_mm --input=3x2xf32=1,2,3,4,5,6 --input=2x2xf32=1,0,0,1 --expected_output=3x2xf32=1,2,3,4,5,6
// SHAPE: kiln-run:
// SHAPE-SAME: expected a buffer view of 2x3xf32, got 3x3xf32
// SHAPE-SAME: matmul.mlir:{{[0-9]+}}:22

func.func @static_mm(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @dynamic_mm(%a: tensor<?x2xf32>, %b: tensor<2x2xf32>) -> tensor<?x2xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x2xf32>
  %e = tensor.empty(%n) : tensor<?x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x2xf32>) -> tensor<?x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x2xf32>, tensor<2x2xf32>) outs(%f : tensor<?x2xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
