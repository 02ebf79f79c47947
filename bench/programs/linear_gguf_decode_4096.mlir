// GGUF's Q8_0 and Q4_0 linear layers, y = x dequant(W)^T with W[4096, 4096] as the file's
// blocks (32 weights and an f16 scale a block: 34 bytes in Q8_0, 18 in Q4_0), for M = 1
// and 8 rows (kiln-bench-compiled, BM_LinearQ8_0Decode4096 and BM_LinearQ4_0Decode4096).
// The program is tests/lit/e2e/gguf_quantized_linear.mlir's at this size, the bytes an argument
// (there a parameter: the same dispatch). kiln-fuse-dequantization fuses the blocks'
// dequantization into the product; the quantized bytes are read once per call.
#blocks = affine_map<(n, b, t) -> (n, b, t)>
#block_scale = affine_map<(n, b, t) -> (n, b)>
#nibble_of_byte = affine_map<(n, b, h, j) -> (n, b, j, h)>
#block_scale4 = affine_map<(n, b, h, j) -> (n, b)>
#halves_of_block = affine_map<(n, b, h, j) -> (n, b, h, j)>
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#y = affine_map<(m, n, k) -> (m, n)>

func.func @q8_m1(%x: tensor<1x4096xf32>, %raw: tensor<4096x4352xi8>) -> tensor<1x4096xf32> {
  %blocks = tensor.expand_shape %raw [[0], [1, 2]] output_shape [4096, 128, 34] : tensor<4096x4352xi8> into tensor<4096x128x34xi8>
  %halves = flow.tensor.bitcast %blocks : tensor<4096x128x34xi8> -> tensor<4096x128x17xf16>
  %d = tensor.extract_slice %halves[0, 0, 0] [4096, 128, 1] [1, 1, 1] : tensor<4096x128x17xf16> to tensor<4096x128xf16>
  %q = tensor.extract_slice %blocks[0, 0, 2] [4096, 128, 32] [1, 1, 1] : tensor<4096x128x34xi8> to tensor<4096x128x32xi8>
  %e = tensor.empty() : tensor<4096x128x32xf32>
  %w = linalg.generic {indexing_maps = [#blocks, #block_scale, #blocks], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q, %d : tensor<4096x128x32xi8>, tensor<4096x128xf16>) outs(%e : tensor<4096x128x32xf32>) {
  ^bb0(%qv: i8, %dv: f16, %o: f32):
    %i = arith.sitofp %qv : i8 to f32
    %s = arith.extf %dv : f16 to f32
    %v = arith.mulf %i, %s : f32
    linalg.yield %v : f32
  } -> tensor<4096x128x32xf32>
  %wk = tensor.collapse_shape %w [[0], [1, 2]] : tensor<4096x128x32xf32> into tensor<4096x4096xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<1x4096xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %wk : tensor<1x4096xf32>, tensor<4096x4096xf32>) outs(%fy : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %y : tensor<1x4096xf32>
}

func.func @q8_m8(%x: tensor<8x4096xf32>, %raw: tensor<4096x4352xi8>) -> tensor<8x4096xf32> {
  %blocks = tensor.expand_shape %raw [[0], [1, 2]] output_shape [4096, 128, 34] : tensor<4096x4352xi8> into tensor<4096x128x34xi8>
  %halves = flow.tensor.bitcast %blocks : tensor<4096x128x34xi8> -> tensor<4096x128x17xf16>
  %d = tensor.extract_slice %halves[0, 0, 0] [4096, 128, 1] [1, 1, 1] : tensor<4096x128x17xf16> to tensor<4096x128xf16>
  %q = tensor.extract_slice %blocks[0, 0, 2] [4096, 128, 32] [1, 1, 1] : tensor<4096x128x34xi8> to tensor<4096x128x32xi8>
  %e = tensor.empty() : tensor<4096x128x32xf32>
  %w = linalg.generic {indexing_maps = [#blocks, #block_scale, #blocks], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q, %d : tensor<4096x128x32xi8>, tensor<4096x128xf16>) outs(%e : tensor<4096x128x32xf32>) {
  ^bb0(%qv: i8, %dv: f16, %o: f32):
    %i = arith.sitofp %qv : i8 to f32
    %s = arith.extf %dv : f16 to f32
    %v = arith.mulf %i, %s : f32
    linalg.yield %v : f32
  } -> tensor<4096x128x32xf32>
  %wk = tensor.collapse_shape %w [[0], [1, 2]] : tensor<4096x128x32xf32> into tensor<4096x4096xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<8x4096xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %wk : tensor<8x4096xf32>, tensor<4096x4096xf32>) outs(%fy : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  return %y : tensor<8x4096xf32>
}

func.func @q4_m1(%x: tensor<1x4096xf32>, %raw: tensor<4096x2304xi8>) -> tensor<1x4096xf32> {
  %blocks = tensor.expand_shape %raw [[0], [1, 2]] output_shape [4096, 128, 18] : tensor<4096x2304xi8> into tensor<4096x128x18xi8>
  %halves = flow.tensor.bitcast %blocks : tensor<4096x128x18xi8> -> tensor<4096x128x9xf16>
  %nibbles = flow.tensor.bitcast %blocks : tensor<4096x128x18xi8> -> tensor<4096x128x36xi4>
  %d = tensor.extract_slice %halves[0, 0, 0] [4096, 128, 1] [1, 1, 1] : tensor<4096x128x9xf16> to tensor<4096x128xf16>
  %q = tensor.extract_slice %nibbles[0, 0, 4] [4096, 128, 32] [1, 1, 1] : tensor<4096x128x36xi4> to tensor<4096x128x32xi4>
  %qj = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [4096, 128, 16, 2] : tensor<4096x128x32xi4> into tensor<4096x128x16x2xi4>
  %e = tensor.empty() : tensor<4096x128x2x16xf32>
  %w = linalg.generic {indexing_maps = [#nibble_of_byte, #block_scale4, #halves_of_block], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qj, %d : tensor<4096x128x16x2xi4>, tensor<4096x128xf16>) outs(%e : tensor<4096x128x2x16xf32>) {
  ^bb0(%qv: i4, %dv: f16, %o: f32):
    %u = arith.extui %qv : i4 to i32
    %eight = arith.constant 8 : i32
    %c = arith.subi %u, %eight : i32
    %i = arith.sitofp %c : i32 to f32
    %s = arith.extf %dv : f16 to f32
    %v = arith.mulf %i, %s : f32
    linalg.yield %v : f32
  } -> tensor<4096x128x2x16xf32>
  %wk = tensor.collapse_shape %w [[0], [1, 2, 3]] : tensor<4096x128x2x16xf32> into tensor<4096x4096xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<1x4096xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %wk : tensor<1x4096xf32>, tensor<4096x4096xf32>) outs(%fy : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %y : tensor<1x4096xf32>
}

func.func @q4_m8(%x: tensor<8x4096xf32>, %raw: tensor<4096x2304xi8>) -> tensor<8x4096xf32> {
  %blocks = tensor.expand_shape %raw [[0], [1, 2]] output_shape [4096, 128, 18] : tensor<4096x2304xi8> into tensor<4096x128x18xi8>
  %halves = flow.tensor.bitcast %blocks : tensor<4096x128x18xi8> -> tensor<4096x128x9xf16>
  %nibbles = flow.tensor.bitcast %blocks : tensor<4096x128x18xi8> -> tensor<4096x128x36xi4>
  %d = tensor.extract_slice %halves[0, 0, 0] [4096, 128, 1] [1, 1, 1] : tensor<4096x128x9xf16> to tensor<4096x128xf16>
  %q = tensor.extract_slice %nibbles[0, 0, 4] [4096, 128, 32] [1, 1, 1] : tensor<4096x128x36xi4> to tensor<4096x128x32xi4>
  %qj = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [4096, 128, 16, 2] : tensor<4096x128x32xi4> into tensor<4096x128x16x2xi4>
  %e = tensor.empty() : tensor<4096x128x2x16xf32>
  %w = linalg.generic {indexing_maps = [#nibble_of_byte, #block_scale4, #halves_of_block], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qj, %d : tensor<4096x128x16x2xi4>, tensor<4096x128xf16>) outs(%e : tensor<4096x128x2x16xf32>) {
  ^bb0(%qv: i4, %dv: f16, %o: f32):
    %u = arith.extui %qv : i4 to i32
    %eight = arith.constant 8 : i32
    %c = arith.subi %u, %eight : i32
    %i = arith.sitofp %c : i32 to f32
    %s = arith.extf %dv : f16 to f32
    %v = arith.mulf %i, %s : f32
    linalg.yield %v : f32
  } -> tensor<4096x128x2x16xf32>
  %wk = tensor.collapse_shape %w [[0], [1, 2, 3]] : tensor<4096x128x2x16xf32> into tensor<4096x4096xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<8x4096xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %wk : tensor<8x4096xf32>, tensor<4096x4096xf32>) outs(%fy : tensor<8x4096xf32>) -> tensor<8x4096xf32>
  return %y : tensor<8x4096xf32>
}
