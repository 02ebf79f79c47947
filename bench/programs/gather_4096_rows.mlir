// 4096 rows gathered from [4096, 1024] f32 at random row indices (kiln-bench-compiled):
// 16 MiB read, 16 MiB written, 16 KiB of indices.
func.func @gather(%table: tensor<4096x1024xf32>, %rows: tensor<4096xi32>) -> tensor<4096x1024xf32> {
  %e = tensor.empty() : tensor<4096x1024xf32>
  %r = iree_linalg_ext.gather dimension_map = [0] ins(%table, %rows : tensor<4096x1024xf32>, tensor<4096xi32>)
      outs(%e : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %r : tensor<4096x1024xf32>
}
