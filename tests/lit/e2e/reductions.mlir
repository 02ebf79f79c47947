// Reductions and softmax: linalg.reduce over the inner and outer dimension, linalg.softmax.
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run --module=%t.kiln --device=cpu --function=row_sums --input=2x3xf32=1,2,3,4,5,6 --expected_output=2xf32=6,15
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=col_max --input=2x3xf32=1,9,3,4,5,6 --expected_output=3xf32=4,9,6
// RUN: kiln-run --module=%t.kiln --device=cpu --function=softmax --input=2x3xf32=1,2,3,0,0,0 --expected_output=2x3xf32=0.09003057,0.24472848,0.66524094,0.33333334,0.33333334,0.33333334
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=softmax --input=2x3xf32=1,2,3,0,0,0 --expected_output=2x3xf32=0.09003057,0.24472848,0.66524094,0.33333334,0.33333334,0.33333334
// The same on the AMD GPU path: compiled for gfx942, run on hip-sim (the host twin).
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=row_sums --input=2x3xf32=1,2,3,4,5,6 --expected_output=2xf32=6,15
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=softmax --input=2x3xf32=1,2,3,0,0,0 --expected_output=2x3xf32=0.09003057,0.24472848,0.66524094,0.33333334,0.33333334,0.33333334

func.func @row_sums(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.reduce ins(%a : tensor<2x3xf32>) outs(%f : tensor<2xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<2xf32>
}

func.func @col_max(%a: tensor<2x3xf32>) -> tensor<3xf32> {
  %low = arith.constant -3.0e38 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%low : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.reduce ins(%a : tensor<2x3xf32>) outs(%f : tensor<3xf32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %m = arith.maximumf %x, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<3xf32>
}

func.func @softmax(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.softmax dimension(1) ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
