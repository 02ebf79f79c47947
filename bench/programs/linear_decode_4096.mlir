// Decode-shaped linear layers, y = x W^T with W[4096, 4096] f32 (64 MiB, a linear layer's
// layout) and M = 1, 2, 4 and 8 rows of x (kiln-bench-compiled). Reading W once is the cost.
func.func @linear_m1(%x: tensor<1x4096xf32>, %w: tensor<4096x4096xf32>) -> tensor<1x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<1x4096xf32>, tensor<4096x4096xf32>) outs(%f : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %r : tensor<1x4096xf32>
}

func.func @linear_m2(%x: tensor<2x4096xf32>, %w: tensor<4096x4096xf32>) -> tensor<2x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4096xf32>) -> tensor<2x4096xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<2x4096xf32>, tensor<4096x4096xf32>) outs(%f : tensor<2x4096xf32>) -> tensor<2x4096xf32>
  return %r : tensor<2x4096xf32>
}

func.func @linear_m4(%x: tensor<4x4096xf32>, %w: tensor<4096x4096xf32>) -> tensor<4x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4096xf32>) -> tensor<4x4096xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<4x4096xf32>, tensor<4096x4096xf32>) outs(%f : tensor<4x4096xf32>) -> tensor<4x4096xf32>
  return %r : tensor<4x4096xf32>
}

func.func @linear_m8(%x: tensor<8x4096xf32>, %w: tensor<4096x4096xf32>) -> tensor<8x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<8x4096xf32>, tensor<4096x4096xf32>) outs(%f : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  return %r : tensor<8x4096xf32>
}

// M = 8 with W[512, 4096] (8 MiB): the same tiles with W from L3 instead of memory, run
// call after call. Its rate bounds what @linear_m8 can reach once W's read hides entirely
// behind the FMAs (BM_LinearDecodeM8CacheCeiling).
func.func @linear_m8_w512(%x: tensor<8x4096xf32>, %w: tensor<512x4096xf32>) -> tensor<8x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x512xf32>) -> tensor<8x512xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<8x4096xf32>, tensor<512x4096xf32>) outs(%f : tensor<8x512xf32>) -> tensor<8x512xf32>
  return %r : tensor<8x512xf32>
}

// The same with f16 x and W (32 MiB) into f32: dot-product tiles that widen what they load.
func.func @linear_f16_m1(%x: tensor<1x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<1x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<1x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %r : tensor<1x4096xf32>
}

// The same with f16 x and W (32 MiB) into f32: dot-product tiles that widen what they load.
func.func @linear_f16_m4(%x: tensor<4x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<4x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4096xf32>) -> tensor<4x4096xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<4x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<4x4096xf32>) -> tensor<4x4096xf32>
  return %r : tensor<4x4096xf32>
}

// The same with f16 x and W (32 MiB) into f32: dot-product tiles that widen what they load.
func.func @linear_f16_m8(%x: tensor<8x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<8x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<8x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  return %r : tensor<8x4096xf32>
}
