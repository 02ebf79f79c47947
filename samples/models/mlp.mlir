// A two-layer perceptron with a softmax head: [batch, 4] -> 8 hidden (relu) -> 3 classes.
// The batch size is dynamic. Weights are constants of the module.
//   kiln-compile samples/models/mlp.mlir -o mlp.kiln
//   kiln-run --module=mlp.kiln --function=predict --input=2x4xf32=1,0,0,0,0,0,0,1
func.func @predict(%x: tensor<?x4xf32>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %w1 = arith.constant dense<[[0.5, -0.25, 0.125, 1.0, -1.0, 0.75, 0.25, -0.5],
                              [0.25, 0.5, -0.75, 0.5, 0.25, -0.25, 1.0, 0.125],
                              [-0.5, 0.25, 0.5, -0.125, 0.75, 0.5, -0.25, 1.0],
                              [1.0, -0.5, 0.25, 0.25, -0.125, 0.5, 0.75, -0.25]]> : tensor<4x8xf32>
  %b1 = arith.constant dense<[0.1, -0.1, 0.2, 0.0, 0.05, -0.05, 0.1, 0.0]> : tensor<8xf32>
  %w2 = arith.constant dense<[[0.5, -0.5, 0.25], [0.25, 0.75, -0.5], [-0.25, 0.5, 1.0], [1.0, 0.0, -0.25],
                              [0.5, 0.25, 0.5], [-0.75, 0.5, 0.25], [0.125, -0.25, 0.75], [0.25, 1.0, -0.5]]> : tensor<8x3xf32>
  %e1 = tensor.empty(%n) : tensor<?x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x8xf32>) -> tensor<?x8xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<?x4xf32>, tensor<4x8xf32>) outs(%f1 : tensor<?x8xf32>) -> tensor<?x8xf32>
  %hb = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<?x8xf32>, tensor<8xf32>) outs(%e1 : tensor<?x8xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x8xf32>
  %e2 = tensor.empty(%n) : tensor<?x3xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x3xf32>) -> tensor<?x3xf32>
  %logits = linalg.matmul ins(%hb, %w2 : tensor<?x8xf32>, tensor<8x3xf32>) outs(%f2 : tensor<?x3xf32>) -> tensor<?x3xf32>
  %p = linalg.softmax dimension(1) ins(%logits : tensor<?x3xf32>) outs(%e2 : tensor<?x3xf32>) -> tensor<?x3xf32>
  return %p : tensor<?x3xf32>
}
