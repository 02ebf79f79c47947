// Traps from DESIGN.md section 7 that linalg-on-tensors programs reach.
// RUN: kiln-compile %s -o %t.kiln
// A collapse_shape feeding batch_matmul (reshape propagation must keep ranks and maps consistent).
// RUN: kiln-run --module=%t.kiln --device=cpu --function=reshape_into_batch_matmul --input=2x2x2xf32=1,2,3,4,5,6,7,8 --input=2x2x2xf32=1,0,0,1,2,0,0,2 --expected_output=2x2x2xf32=1,2,3,4,10,12,14,16
// A dynamic contraction with two reduction dimensions (no padding; must not fail).
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=two_reduction_dims --input=2x3x2xf32=1,2,3,4,5,6,7,8,9,10,11,12 --input=3x2xf32=1,1,1,1,1,1 --expected_output=2xf32=21,57
// A gather: tensor.extract inside linalg.generic, reading through an extract_slice view.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=gather_through_slice --input=4x3xf32=0,1,2,10,11,12,20,21,22,30,31,32 --input=2xi32=2,0 --expected_output=2x3xf32=30,31,32,10,11,12
// The same on the AMD GPU path: compiled for gfx942, run on hip-sim (the host twin).
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=reshape_into_batch_matmul --input=2x2x2xf32=1,2,3,4,5,6,7,8 --input=2x2x2xf32=1,0,0,1,2,0,0,2 --expected_output=2x2x2xf32=1,2,3,4,10,12,14,16
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=gather_through_slice --input=4x3xf32=0,1,2,10,11,12,20,21,22,30,31,32 --input=2xi32=2,0 --expected_output=2x3xf32=30,31,32,10,11,12

func.func @reshape_into_batch_matmul(%a: tensor<2x2x2xf32>, %b: tensor<2x2x2xf32>) -> tensor<2x2x2xf32> {
  %flat = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x2x2xf32> into tensor<4x2xf32>
  %back = tensor.expand_shape %flat [[0, 1], [2]] output_shape [2, 2, 2] : tensor<4x2xf32> into tensor<2x2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %r = linalg.batch_matmul ins(%back, %b : tensor<2x2x2xf32>, tensor<2x2x2xf32>) outs(%f : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  return %r : tensor<2x2x2xf32>
}

func.func @two_reduction_dims(%a: tensor<?x3x2xf32>, %b: tensor<3x2xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x3x2xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%a, %b : tensor<?x3x2xf32>, tensor<3x2xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @gather_through_slice(%table: tensor<4x3xf32>, %ids: tensor<2xi32>) -> tensor<2x3xf32> {
  %view = tensor.extract_slice %table[1, 0] [3, 3] [1, 1] : tensor<4x3xf32> to tensor<3x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<2xi32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%id: i32, %o: f32):
    %row = arith.index_cast %id : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %view[%row, %col] : tensor<3x3xf32>
    linalg.yield %v : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
