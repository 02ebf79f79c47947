// f32 sums of 16M elements (kiln-bench-compiled): the whole tensor, rows of 16384 and
// columns of 16384. Compiled twice, with and without kiln-cpu-block-reductions, so that
// one run compares the blocked sums with the lowering before them.
func.func @sum(%a: tensor<16777216xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%a : tensor<16777216xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

func.func @row_sums(%a: tensor<1024x16384xf32>) -> tensor<1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %r = linalg.reduce ins(%a : tensor<1024x16384xf32>) outs(%f : tensor<1024xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<1024xf32>
}

func.func @column_sums(%a: tensor<16384x1024xf32>) -> tensor<1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %r = linalg.reduce ins(%a : tensor<16384x1024xf32>) outs(%f : tensor<1024xf32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<1024xf32>
}
