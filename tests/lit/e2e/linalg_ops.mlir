// Named linalg ops: transpose, broadcast, map, matvec, conv_2d_nhwc_hwcf, pooling_nhwc_max, pack/unpack.
// RUN: kiln-compile %s -o %t.kiln 2>/dev/null
// RUN: kiln-run --module=%t.kiln --device=cpu --function=transpose --input=2x3xf32=1,2,3,4,5,6 --expected_output=3x2xf32=1,4,2,5,3,6
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=broadcast --input=3xf32=1,2,3 --expected_output=2x3xf32=1,2,3,1,2,3
// RUN: kiln-run --module=%t.kiln --device=cpu --function=map --input=3xf32=1,2,3 --input=3xf32=2,2,2 --expected_output=3xf32=2,4,6
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=matvec --input=2x3xf32=1,2,3,4,5,6 --input=3xf32=1,1,1 --expected_output=2xf32=6,15
// RUN: kiln-run --module=%t.kiln --device=cpu --function=conv --input=1x4x4x1xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --input=2x2x1x1xf32=1,0,0,1 --expected_output=1x3x3x1xf32=7,9,11,15,17,19,23,25,27
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=pool --input=1x4x4x1xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --expected_output=1x2x2x1xf32=6,8,14,16
// RUN: kiln-run --module=%t.kiln --device=cpu --function=pack --input=4x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 --expected_output=4x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
// A dynamic pack that pads (the pad needs no temporary on the GPU) and a generic with two
// results, on every device.
// RUN: kiln-compile --target=cpu,gfx942 %s -o %t.both.kiln 2>/dev/null
// RUN: for d in cpu cpu-sync hip-sim; do kiln-run --module=%t.both.kiln --device=$d --function=dynamic_padded_pack --input=3x5xi32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 --expected_output=2x3x2x2xi32=1,2,6,7,3,4,8,9,5,-1,10,-1,11,12,-1,-1,13,14,-1,-1,15,-1,-1,-1 || exit 1; done
// RUN: for d in cpu cpu-sync hip-sim; do kiln-run --module=%t.both.kiln --device=$d --function=sum_and_product --input=2x3xi32=1,2,3,4,5,6 --input=2x3xi32=7,8,9,10,11,12 --expected_output=2x3xi32=8,10,12,14,16,18 --expected_output=2x3xi32=7,16,27,40,55,72 || exit 1; done
// The same on the AMD GPU path: compiled for gfx942, run on hip-sim (the host twin).
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln 2>/dev/null
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=transpose --input=2x3xf32=1,2,3,4,5,6 --expected_output=3x2xf32=1,4,2,5,3,6
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=broadcast --input=3xf32=1,2,3 --expected_output=2x3xf32=1,2,3,1,2,3
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=map --input=3xf32=1,2,3 --input=3xf32=2,2,2 --expected_output=3xf32=2,4,6
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=matvec --input=2x3xf32=1,2,3,4,5,6 --input=3xf32=1,1,1 --expected_output=2xf32=6,15
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=conv --input=1x4x4x1xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --input=2x2x1x1xf32=1,0,0,1 --expected_output=1x3x3x1xf32=7,9,11,15,17,19,23,25,27
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=pool --input=1x4x4x1xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --expected_output=1x2x2x1xf32=6,8,14,16
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=pack --input=4x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 --expected_output=4x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15

func.func @transpose(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  return %r : tensor<3x2xf32>
}

func.func @broadcast(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.broadcast ins(%a : tensor<3xf32>) outs(%e : tensor<2x3xf32>) dimensions = [0]
  return %r : tensor<2x3xf32>
}

func.func @map(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.map { arith.mulf } ins(%a, %b : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>)
  return %r : tensor<3xf32>
}

func.func @matvec(%a: tensor<2x3xf32>, %x: tensor<3xf32>) -> tensor<2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.matvec ins(%a, %x : tensor<2x3xf32>, tensor<3xf32>) outs(%f : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

func.func @conv(%i: tensor<1x4x4x1xf32>, %k: tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x3x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %k : tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) outs(%f : tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
  return %r : tensor<1x3x3x1xf32>
}

func.func @pool(%i: tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32> {
  %z = arith.constant -1.0e30 : f32
  %w = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %w : tensor<1x4x4x1xf32>, tensor<2x2xf32>) outs(%f : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  return %r : tensor<1x2x2x1xf32>
}

func.func @pack(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<2x2x2x2xf32>
  %p = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %e : tensor<4x4xf32> -> tensor<2x2x2x2xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %e2 : tensor<2x2x2x2xf32> -> tensor<4x4xf32>
  return %u : tensor<4x4xf32>
}


func.func @dynamic_padded_pack(%a: tensor<?x?xi32>) -> tensor<?x?x2x2xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %pad = arith.constant -1 : i32
  %d0 = tensor.dim %a, %c0 : tensor<?x?xi32>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xi32>
  %t0 = arith.ceildivui %d0, %c2 : index
  %t1 = arith.ceildivui %d1, %c2 : index
  %e = tensor.empty(%t0, %t1) : tensor<?x?x2x2xi32>
  %r = linalg.pack %a padding_value(%pad : i32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %e
      : tensor<?x?xi32> -> tensor<?x?x2x2xi32>
  return %r : tensor<?x?x2x2xi32>
}

func.func @sum_and_product(%a: tensor<2x3xi32>, %b: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>) {
  %e = tensor.empty() : tensor<2x3xi32>
  %r:2 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<2x3xi32>, tensor<2x3xi32>) outs(%e, %e : tensor<2x3xi32>, tensor<2x3xi32>) {
  ^bb0(%x: i32, %y: i32, %s: i32, %p: i32):
    %sum = arith.addi %x, %y : i32
    %product = arith.muli %x, %y : i32
    linalg.yield %sum, %product : i32, i32
  } -> (tensor<2x3xi32>, tensor<2x3xi32>)
  return %r#0, %r#1 : tensor<2x3xi32>, tensor<2x3xi32>
}
