// Data-moving tensor ops: pad, concat, insert_slice, extract_slice, from_elements, splat, insert.
// RUN: kiln-compile %s -o %t.kiln 2>/dev/null
// RUN: kiln-run --module=%t.kiln --device=cpu --function=pad --input=2x2xf32=1,2,3,4 --expected_output=3x4xf32=9,9,9,9,9,1,2,9,9,3,4,9
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=concat --input=2x2xf32=1,2,3,4 --input=1x2xf32=5,6 --expected_output=3x2xf32=1,2,3,4,5,6
// RUN: kiln-run --module=%t.kiln --device=cpu --function=insert_slice --input=4x4xf32=0 --input=2x2xf32=1,2,3,4 --expected_output=4x4xf32=0,0,0,0,0,1,2,0,0,3,4,0,0,0,0,0
// A cache update (the slice spans dimensions 0 and 2 whole): on 2 workers each copies its
// rows of the 5 (3 and 2) and inserts its part of the new positions.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=cache_update --input=5x4x3xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59 --input=5x2x3xf32=-1,-2,-3,-4,-5,-6,-7,-8,-9,-10,-11,-12,-13,-14,-15,-16,-17,-18,-19,-20,-21,-22,-23,-24,-25,-26,-27,-28,-29,-30 --input=1 --expected_output=5x4x3xf32=0,1,2,-1,-2,-3,-4,-5,-6,9,10,11,12,13,14,-7,-8,-9,-10,-11,-12,21,22,23,24,25,26,-13,-14,-15,-16,-17,-18,33,34,35,36,37,38,-19,-20,-21,-22,-23,-24,45,46,47,48,49,50,-25,-26,-27,-28,-29,-30,57,58,59
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=cache_update --input=5x4x3xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59 --input=5x2x3xf32=-1,-2,-3,-4,-5,-6,-7,-8,-9,-10,-11,-12,-13,-14,-15,-16,-17,-18,-19,-20,-21,-22,-23,-24,-25,-26,-27,-28,-29,-30 --input=1 --expected_output=5x4x3xf32=0,1,2,-1,-2,-3,-4,-5,-6,9,10,11,12,13,14,-7,-8,-9,-10,-11,-12,21,22,23,24,25,26,-13,-14,-15,-16,-17,-18,33,34,35,36,37,38,-19,-20,-21,-22,-23,-24,45,46,47,48,49,50,-25,-26,-27,-28,-29,-30,57,58,59
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=extract_slice --input=4x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 --expected_output=2x2xf32=6,7,10,11
// RUN: kiln-run --module=%t.kiln --device=cpu --function=from_elements --input=1.5 --input=2.5 --expected_output=2xf32=1.5,2.5
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=splat --input=1.5 --input=3 --expected_output=3xf32=1.5,1.5,1.5
// RUN: kiln-run --module=%t.kiln --device=cpu --function=insert --input=3xf32=1,2,3 --input=7 --expected_output=3xf32=1,7,3

func.func @pad(%a: tensor<2x2xf32>) -> tensor<3x4xf32> {
  %z = arith.constant 9.0 : f32
  %r = tensor.pad %a low[1, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<2x2xf32> to tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

func.func @concat(%a: tensor<2x2xf32>, %b: tensor<1x2xf32>) -> tensor<3x2xf32> {
  %r = tensor.concat dim(0) %a, %b : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

func.func @insert_slice(%a: tensor<4x4xf32>, %b: tensor<2x2xf32>) -> tensor<4x4xf32> {
  %r = tensor.insert_slice %b into %a[1, 1] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

func.func @cache_update(%cache: tensor<5x4x3xf32>, %new: tensor<5x2x3xf32>, %pos: index) -> tensor<5x4x3xf32> {
  %r = tensor.insert_slice %new into %cache[0, %pos, 0] [5, 2, 3] [1, 1, 1] : tensor<5x2x3xf32> into tensor<5x4x3xf32>
  return %r : tensor<5x4x3xf32>
}

func.func @extract_slice(%a: tensor<4x4xf32>) -> tensor<2x2xf32> {
  %r = tensor.extract_slice %a[1, 2] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @from_elements(%x: f32, %y: f32) -> tensor<2xf32> {
  %r = tensor.from_elements %x, %y : tensor<2xf32>
  return %r : tensor<2xf32>
}

func.func @splat(%x: f32, %n: index) -> tensor<?xf32> {
  %r = tensor.splat %x[%n] : tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @insert(%a: tensor<3xf32>, %x: f32) -> tensor<3xf32> {
  %c1 = arith.constant 1 : index
  %r = tensor.insert %x into %a[%c1] : tensor<3xf32>
  return %r : tensor<3xf32>
}

