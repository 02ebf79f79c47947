// Fused elementwise math on static and dynamic shapes, on both CPU drivers.
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run --module=%t.kiln --device=cpu --function=fused --input=4xf32=0,1,-1,0.5 --input=4xf32=1,1,1,1 --input=4xf32=1,2,0.5,-2 --expected_output=4xf32=2.7182817,54.59815,1,0.049787067
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=fused --input=4xf32=0,1,-1,0.5 --input=4xf32=1,1,1,1 --input=4xf32=1,2,0.5,-2 --expected_output=4xf32=2.7182817,54.59815,1,0.049787067
// RUN: kiln-run --module=%t.kiln --device=cpu --function=dynamic_add --input=5xf32=1,2,3,4,5 --input=5xf32=10,20,30,40,50 --expected_output=5xf32=11,22,33,44,55
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=dynamic_add --input=0xf32= --input=0xf32= --expected_output=0xf32=
// RUN: not kiln-run --module=%t.kiln --device=cpu --function=dynamic_add --input=3xf32=1,2,3 --input=3xf32=1,2,3 --expected_output=3xf32=2,4,7 | FileCheck %s --check-prefix=MISMATCH
// The same on the AMD GPU path: compiled for gfx942, run on hip-sim (the host twin).
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=fused --input=4xf32=0,1,-1,0.5 --input=4xf32=1,1,1,1 --input=4xf32=1,2,0.5,-2 --expected_output=4xf32=2.7182817,54.59815,1,0.049787067
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=dynamic_add --input=5xf32=1,2,3,4,5 --input=5xf32=10,20,30,40,50 --expected_output=5xf32=11,22,33,44,55
// MISMATCH: [FAILED] result[0]: element at index 2 (6) does not match the expected (7)

func.func @fused(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %y, %z : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.mulf %s, %c : f32
    %x2 = math.exp %m : f32
    linalg.yield %x2 : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @dynamic_add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %r = arith.addf %a, %b : tensor<?xf32>
  return %r : tensor<?xf32>
}
