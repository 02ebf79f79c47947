// Host-side work: a loop of dispatches with a loop-carried tensor, a data-dependent branch
// on a value read back from the device, large constants from read-only data, reshapes.
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run --module=%t.kiln --device=cpu --function=repeat_double --input=3xf32=1,2,3 --input=4 --expected_output=3xf32=16,32,48
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=repeat_double --input=3xf32=1,2,3 --input=0 --expected_output=3xf32=1,2,3
// RUN: kiln-run --module=%t.kiln --device=cpu --function=sign_of_sum --input=3xf32=1,2,3 --expected_output=i32=1
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=sign_of_sum --input=3xf32=-1,-2,0 --expected_output=i32=-1
// RUN: kiln-run --module=%t.kiln --device=cpu --function=add_big_constant --input=100xf32=1 | FileCheck %s --check-prefix=BIG
// BIG: result[0]: hal.buffer_view
// BIG-NEXT: 100xf32=1 2 3 4 5
// BIG-SAME: 99 100
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=flatten_scale --input=2x3xf32=1,2,3,4,5,6 --expected_output=6xf32=2,4,6,8,10,12
// The same on the AMD GPU path: compiled for gfx942, run on hip-sim (the host twin).
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=repeat_double --input=3xf32=1,2,3 --input=4 --expected_output=3xf32=16,32,48
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=sign_of_sum --input=3xf32=1,2,3 --expected_output=i32=1

func.func @repeat_double(%x: tensor<3xf32>, %n: index) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> tensor<3xf32> {
    %d = arith.addf %acc, %acc : tensor<3xf32>
    scf.yield %d : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

func.func @sign_of_sum(%x: tensor<3xf32>) -> i32 {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%x : tensor<3xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %t = arith.addf %a, %acc : f32
      linalg.yield %t : f32
    }
  %v = tensor.extract %s[] : tensor<f32>
  %pos = arith.cmpf ogt, %v, %zero : f32
  %r = scf.if %pos -> i32 {
    %one = arith.constant 1 : i32
    scf.yield %one : i32
  } else {
    %m = arith.constant -1 : i32
    scf.yield %m : i32
  }
  return %r : i32
}

func.func @add_big_constant(%x: tensor<100xf32>) -> tensor<100xf32> {
  %c = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0, 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0, 80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0, 88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0, 96.0, 97.0, 98.0, 99.0]> : tensor<100xf32>
  %r = arith.addf %x, %c : tensor<100xf32>
  return %r : tensor<100xf32>
}

func.func @flatten_scale(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %f = tensor.collapse_shape %x [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %r = arith.addf %f, %f : tensor<6xf32>
  return %r : tensor<6xf32>
}
