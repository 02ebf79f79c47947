// Weight-only int4 linear layers, y = x (W * s)^T with W[4096, 4096] of i4 (8 MiB packed,
// two a byte) and one f32 scale per group of 128 along k (512 KiB), for M = 1 and 8 rows
// of x (kiln-bench-compiled, BM_LinearI4Decode). kiln-fuse-dequantization puts the
// dequantization inside the product, so W is read packed and never stored dequantized;
// reading the quantized bytes once is the cost the streaming read bounds.
// Prefill (BM_LinearI4Prefill4096): M = 128 rows (@linear_i4_m128), where the product is
// compute-bound and the dequantization stays its own dispatch feeding the f32 matmul
// kernels, beside the same product on f32 weights (@linear_f32_m128), whose FLOP rate it
// is measured against.
func.func @linear_i4_m1(%x: tensor<1x4096xf32>, %w: tensor<4096x4096xi4>, %s: tensor<4096x32xf32>) -> tensor<1x4096xf32> {
  %e = tensor.empty() : tensor<4096x4096xf32>
  %weights = linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (n, k floordiv 128)>, affine_map<(n, k) -> (n, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %s : tensor<4096x4096xi4>, tensor<4096x32xf32>) outs(%e : tensor<4096x4096xf32>) {
  ^bb0(%q: i4, %scale: f32, %o: f32):
    %i = arith.extsi %q : i4 to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.mulf %f, %scale : f32
    linalg.yield %v : f32
  } -> tensor<4096x4096xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<1x4096xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %weights : tensor<1x4096xf32>, tensor<4096x4096xf32>) outs(%fy : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %y : tensor<1x4096xf32>
}

func.func @linear_i4_m8(%x: tensor<8x4096xf32>, %w: tensor<4096x4096xi4>, %s: tensor<4096x32xf32>) -> tensor<8x4096xf32> {
  %e = tensor.empty() : tensor<4096x4096xf32>
  %weights = linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (n, k floordiv 128)>, affine_map<(n, k) -> (n, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %s : tensor<4096x4096xi4>, tensor<4096x32xf32>) outs(%e : tensor<4096x4096xf32>) {
  ^bb0(%q: i4, %scale: f32, %o: f32):
    %i = arith.extsi %q : i4 to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.mulf %f, %scale : f32
    linalg.yield %v : f32
  } -> tensor<4096x4096xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<8x4096xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %weights : tensor<8x4096xf32>, tensor<4096x4096xf32>) outs(%fy : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  return %y : tensor<8x4096xf32>
}

func.func @linear_i4_m128(%x: tensor<128x4096xf32>, %w: tensor<4096x4096xi4>, %s: tensor<4096x32xf32>) -> tensor<128x4096xf32> {
  %e = tensor.empty() : tensor<4096x4096xf32>
  %weights = linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (n, k floordiv 128)>, affine_map<(n, k) -> (n, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %s : tensor<4096x4096xi4>, tensor<4096x32xf32>) outs(%e : tensor<4096x4096xf32>) {
  ^bb0(%q: i4, %scale: f32, %o: f32):
    %i = arith.extsi %q : i4 to i32
    %f = arith.sitofp %i : i32 to f32
    %v = arith.mulf %f, %scale : f32
    linalg.yield %v : f32
  } -> tensor<4096x4096xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<128x4096xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<128x4096xf32>) -> tensor<128x4096xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %weights : tensor<128x4096xf32>, tensor<4096x4096xf32>) outs(%fy : tensor<128x4096xf32>) -> tensor<128x4096xf32>
  return %y : tensor<128x4096xf32>
}

func.func @linear_f32_m128(%x: tensor<128x4096xf32>, %w: tensor<4096x4096xf32>) -> tensor<128x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<128x4096xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<128x4096xf32>) -> tensor<128x4096xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<128x4096xf32>, tensor<4096x4096xf32>) outs(%fy : tensor<128x4096xf32>) -> tensor<128x4096xf32>
  return %y : tensor<128x4096xf32>
}
