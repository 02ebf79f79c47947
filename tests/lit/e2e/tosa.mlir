// TOSA through the upstream lowering: an add with broadcasting, a matmul and a relu clamp.
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run --module=%t.kiln --device=cpu --function=add_bcast --input=2x3xf32=1,2,3,4,5,6 --input=1x3xf32=10,20,30 --expected_output=2x3xf32=11,22,33,14,25,36
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=matmul_relu --input=1x2x2xf32=1,-2,3,4 --input=1x2x2xf32=1,0,0,1 --expected_output=1x2x2xf32=1,0,3,4
// The same on the AMD GPU path: compiled for gfx942, run on hip-sim (the host twin).
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=add_bcast --input=2x3xf32=1,2,3,4,5,6 --input=1x3xf32=10,20,30 --expected_output=2x3xf32=11,22,33,14,25,36

func.func @add_bcast(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %r = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func @matmul_relu(%a: tensor<1x2x2xf32>, %b: tensor<1x2x2xf32>) -> tensor<1x2x2xf32> {
  %azp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %bzp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %azp, %bzp : (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  %r = tosa.clamp %m {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  return %r : tensor<1x2x2xf32>
}
