// GGUF's Q8_0 and Q4_0 blocks taken straight from the file into quantized linear layers,
// y = x dequant(W)^T: each weights global is the tensor's bytes in the GGUF file ([101
// rows, 32 blocks] of 34 or 18 bytes; two chunks of 16
// blocks, as the CPU stages block scales), the program reads each block's f16 scale and its
// quantized values through views of those bytes (flow.tensor.bitcast, extract_slice),
// dequantizes [N, blocks, 32] and collapses it to [N, K] for the product, as an export of
// a GGUF model does. kiln-fuse-dequantization expands the product through the collapse
// and fuses the dequantization into it: one dispatch whose weights binding is the file's
// bytes, no dequantized copy. Exact results (numpy references) for M = 1, 5 and 8 on cpu,
// cpu-sync and hip-sim, in file and preload modes.
// RUN: rm -rf %t && %python %S/Inputs/gguf_quantized_operands.py %t
// RUN: kiln-compile %s -o %t/cpu.kiln
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --parameters=model=%t/weights.gguf --function=q8_m1 --input=@%t/x1.npy --expected_output=@%t/y_q8_1.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --parameters=model=%t/weights.gguf --function=q8_m5 --input=@%t/x5.npy --expected_output=@%t/y_q8_5.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --parameters=model=%t/weights.gguf --parameter_mode=preload --function=q8_m8 --input=@%t/x8.npy --expected_output=@%t/y_q8_8.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --parameters=model=%t/weights.gguf --function=q4_m1 --input=@%t/x1.npy --expected_output=@%t/y_q4_1.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --parameters=model=%t/weights.gguf --function=q4_m5 --input=@%t/x5.npy --expected_output=@%t/y_q4_5.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --parameters=model=%t/weights.gguf --function=q4_m8 --input=@%t/x8.npy --expected_output=@%t/y_q4_8.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --parameters=model=%t/weights.gguf --function=q8_m5 --input=@%t/x5.npy --expected_output=@%t/y_q8_5.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --parameters=model=%t/weights.gguf --function=q4_m8 --input=@%t/x8.npy --expected_output=@%t/y_q4_8.npy --atol=0 --rtol=0
// On gfx942 the M = 8 kernels read the blocks with vector loads (dwordx4; the f16 scales,
// one per block, with global_load_ushort), never byte by byte. At M = 1 and 5 (101 and 505
// outputs, a long K) kiln-split-long-reductions splits K across workgroups instead (dispatch
// 4: the partials, a chunk per work-item; then their sum): those kernels read the blocks by
// bytes (global_load_ubyte / sbyte), a gap of the split's work-item strategy (not checked).
// RUN: kiln-dump %t/gfx942.kiln --extract-executables=%t/gfx942
// RUN: llvm-objdump-22 -d --mcpu=gfx942 %t/gfx942/kiln_executable.gfx942.hsaco | FileCheck %s --check-prefix=GFX942
// GFX942-LABEL: <q8_m8_dispatch_3_generic>:
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942: global_load_dwordx4
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942-LABEL: <q4_m1_dispatch_4_generic>:
// GFX942-LABEL: <q4_m8_dispatch_3_generic>:
// GFX942-NOT: global_load_{{[us]byte}}
// GFX942: global_load_dwordx4
// GFX942-NOT: global_load_{{[us]byte}}
// One dispatch per product, reading the blocks' bytes; no [101, 1024] f32 weights stored.
// RUN: rm -rf %t/d && kiln-compile %s -o %t/d.kiln --dump-dispatches=%t/d && cat %t/d/* | FileCheck %s
// CHECK-NOT: memref<101x1024xf32>
// CHECK-NOT: memref<101x32x32xf32>
// CHECK-NOT: memref<101x32x2x16xf32>

util.global private @q8 = #stream.parameter.named<"model"::"blk.q8"> : tensor<101x1088xi8>
util.global private @q4 = #stream.parameter.named<"model"::"blk.q4"> : tensor<101x576xi8>

#blocks = affine_map<(n, b, t) -> (n, b, t)>
#block_scale = affine_map<(n, b, t) -> (n, b)>
// Q4_0: byte j of a block holds element j (low nibble, h = 0) and element 16 + j (h = 1).
#nibble_of_byte = affine_map<(n, b, h, j) -> (n, b, j, h)>
#block_scale4 = affine_map<(n, b, h, j) -> (n, b)>
#halves_of_block = affine_map<(n, b, h, j) -> (n, b, h, j)>
#x = affine_map<(m, n, k) -> (m, k)>
#w = affine_map<(m, n, k) -> (n, k)>
#y = affine_map<(m, n, k) -> (m, n)>

func.func @q8_m1(%x: tensor<1x1024xf32>) -> tensor<1x101xf32> {
  %raw = util.global.load @q8 : tensor<101x1088xi8>
  %blocks = tensor.expand_shape %raw [[0], [1, 2]] output_shape [101, 32, 34] : tensor<101x1088xi8> into tensor<101x32x34xi8>
  %halves = flow.tensor.bitcast %blocks : tensor<101x32x34xi8> -> tensor<101x32x17xf16>
  %d = tensor.extract_slice %halves[0, 0, 0] [101, 32, 1] [1, 1, 1] : tensor<101x32x17xf16> to tensor<101x32xf16>
  %q = tensor.extract_slice %blocks[0, 0, 2] [101, 32, 32] [1, 1, 1] : tensor<101x32x34xi8> to tensor<101x32x32xi8>
  %e = tensor.empty() : tensor<101x32x32xf32>
  %w = linalg.generic {indexing_maps = [#blocks, #block_scale, #blocks], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q, %d : tensor<101x32x32xi8>, tensor<101x32xf16>) outs(%e : tensor<101x32x32xf32>) {
  ^bb0(%qv: i8, %dv: f16, %o: f32):
    %i = arith.sitofp %qv : i8 to f32
    %s = arith.extf %dv : f16 to f32
    %v = arith.mulf %i, %s : f32
    linalg.yield %v : f32
  } -> tensor<101x32x32xf32>
  %wk = tensor.collapse_shape %w [[0], [1, 2]] : tensor<101x32x32xf32> into tensor<101x1024xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<1x101xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<1x101xf32>) -> tensor<1x101xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %wk : tensor<1x1024xf32>, tensor<101x1024xf32>) outs(%fy : tensor<1x101xf32>) -> tensor<1x101xf32>
  return %y : tensor<1x101xf32>
}

func.func @q8_m5(%x: tensor<5x1024xf32>) -> tensor<5x101xf32> {
  %raw = util.global.load @q8 : tensor<101x1088xi8>
  %blocks = tensor.expand_shape %raw [[0], [1, 2]] output_shape [101, 32, 34] : tensor<101x1088xi8> into tensor<101x32x34xi8>
  %halves = flow.tensor.bitcast %blocks : tensor<101x32x34xi8> -> tensor<101x32x17xf16>
  %d = tensor.extract_slice %halves[0, 0, 0] [101, 32, 1] [1, 1, 1] : tensor<101x32x17xf16> to tensor<101x32xf16>
  %q = tensor.extract_slice %blocks[0, 0, 2] [101, 32, 32] [1, 1, 1] : tensor<101x32x34xi8> to tensor<101x32x32xi8>
  %e = tensor.empty() : tensor<101x32x32xf32>
  %w = linalg.generic {indexing_maps = [#blocks, #block_scale, #blocks], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q, %d : tensor<101x32x32xi8>, tensor<101x32xf16>) outs(%e : tensor<101x32x32xf32>) {
  ^bb0(%qv: i8, %dv: f16, %o: f32):
    %i = arith.sitofp %qv : i8 to f32
    %s = arith.extf %dv : f16 to f32
    %v = arith.mulf %i, %s : f32
    linalg.yield %v : f32
  } -> tensor<101x32x32xf32>
  %wk = tensor.collapse_shape %w [[0], [1, 2]] : tensor<101x32x32xf32> into tensor<101x1024xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<5x101xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<5x101xf32>) -> tensor<5x101xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %wk : tensor<5x1024xf32>, tensor<101x1024xf32>) outs(%fy : tensor<5x101xf32>) -> tensor<5x101xf32>
  return %y : tensor<5x101xf32>
}

func.func @q8_m8(%x: tensor<8x1024xf32>) -> tensor<8x101xf32> {
  %raw = util.global.load @q8 : tensor<101x1088xi8>
  %blocks = tensor.expand_shape %raw [[0], [1, 2]] output_shape [101, 32, 34] : tensor<101x1088xi8> into tensor<101x32x34xi8>
  %halves = flow.tensor.bitcast %blocks : tensor<101x32x34xi8> -> tensor<101x32x17xf16>
  %d = tensor.extract_slice %halves[0, 0, 0] [101, 32, 1] [1, 1, 1] : tensor<101x32x17xf16> to tensor<101x32xf16>
  %q = tensor.extract_slice %blocks[0, 0, 2] [101, 32, 32] [1, 1, 1] : tensor<101x32x34xi8> to tensor<101x32x32xi8>
  %e = tensor.empty() : tensor<101x32x32xf32>
  %w = linalg.generic {indexing_maps = [#blocks, #block_scale, #blocks], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q, %d : tensor<101x32x32xi8>, tensor<101x32xf16>) outs(%e : tensor<101x32x32xf32>) {
  ^bb0(%qv: i8, %dv: f16, %o: f32):
    %i = arith.sitofp %qv : i8 to f32
    %s = arith.extf %dv : f16 to f32
    %v = arith.mulf %i, %s : f32
    linalg.yield %v : f32
  } -> tensor<101x32x32xf32>
  %wk = tensor.collapse_shape %w [[0], [1, 2]] : tensor<101x32x32xf32> into tensor<101x1024xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<8x101xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<8x101xf32>) -> tensor<8x101xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %wk : tensor<8x1024xf32>, tensor<101x1024xf32>) outs(%fy : tensor<8x101xf32>) -> tensor<8x101xf32>
  return %y : tensor<8x101xf32>
}

func.func @q4_m1(%x: tensor<1x1024xf32>) -> tensor<1x101xf32> {
  %raw = util.global.load @q4 : tensor<101x576xi8>
  %blocks = tensor.expand_shape %raw [[0], [1, 2]] output_shape [101, 32, 18] : tensor<101x576xi8> into tensor<101x32x18xi8>
  %halves = flow.tensor.bitcast %blocks : tensor<101x32x18xi8> -> tensor<101x32x9xf16>
  %nibbles = flow.tensor.bitcast %blocks : tensor<101x32x18xi8> -> tensor<101x32x36xi4>
  %d = tensor.extract_slice %halves[0, 0, 0] [101, 32, 1] [1, 1, 1] : tensor<101x32x9xf16> to tensor<101x32xf16>
  %q = tensor.extract_slice %nibbles[0, 0, 4] [101, 32, 32] [1, 1, 1] : tensor<101x32x36xi4> to tensor<101x32x32xi4>
  %qj = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [101, 32, 16, 2] : tensor<101x32x32xi4> into tensor<101x32x16x2xi4>
  %e = tensor.empty() : tensor<101x32x2x16xf32>
  %w = linalg.generic {indexing_maps = [#nibble_of_byte, #block_scale4, #halves_of_block], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qj, %d : tensor<101x32x16x2xi4>, tensor<101x32xf16>) outs(%e : tensor<101x32x2x16xf32>) {
  ^bb0(%qv: i4, %dv: f16, %o: f32):
    %u = arith.extui %qv : i4 to i32
    %eight = arith.constant 8 : i32
    %c = arith.subi %u, %eight : i32
    %i = arith.sitofp %c : i32 to f32
    %s = arith.extf %dv : f16 to f32
    %v = arith.mulf %i, %s : f32
    linalg.yield %v : f32
  } -> tensor<101x32x2x16xf32>
  %wk = tensor.collapse_shape %w [[0], [1, 2, 3]] : tensor<101x32x2x16xf32> into tensor<101x1024xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<1x101xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<1x101xf32>) -> tensor<1x101xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %wk : tensor<1x1024xf32>, tensor<101x1024xf32>) outs(%fy : tensor<1x101xf32>) -> tensor<1x101xf32>
  return %y : tensor<1x101xf32>
}

func.func @q4_m5(%x: tensor<5x1024xf32>) -> tensor<5x101xf32> {
  %raw = util.global.load @q4 : tensor<101x576xi8>
  %blocks = tensor.expand_shape %raw [[0], [1, 2]] output_shape [101, 32, 18] : tensor<101x576xi8> into tensor<101x32x18xi8>
  %halves = flow.tensor.bitcast %blocks : tensor<101x32x18xi8> -> tensor<101x32x9xf16>
  %nibbles = flow.tensor.bitcast %blocks : tensor<101x32x18xi8> -> tensor<101x32x36xi4>
  %d = tensor.extract_slice %halves[0, 0, 0] [101, 32, 1] [1, 1, 1] : tensor<101x32x9xf16> to tensor<101x32xf16>
  %q = tensor.extract_slice %nibbles[0, 0, 4] [101, 32, 32] [1, 1, 1] : tensor<101x32x36xi4> to tensor<101x32x32xi4>
  %qj = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [101, 32, 16, 2] : tensor<101x32x32xi4> into tensor<101x32x16x2xi4>
  %e = tensor.empty() : tensor<101x32x2x16xf32>
  %w = linalg.generic {indexing_maps = [#nibble_of_byte, #block_scale4, #halves_of_block], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qj, %d : tensor<101x32x16x2xi4>, tensor<101x32xf16>) outs(%e : tensor<101x32x2x16xf32>) {
  ^bb0(%qv: i4, %dv: f16, %o: f32):
    %u = arith.extui %qv : i4 to i32
    %eight = arith.constant 8 : i32
    %c = arith.subi %u, %eight : i32
    %i = arith.sitofp %c : i32 to f32
    %s = arith.extf %dv : f16 to f32
    %v = arith.mulf %i, %s : f32
    linalg.yield %v : f32
  } -> tensor<101x32x2x16xf32>
  %wk = tensor.collapse_shape %w [[0], [1, 2, 3]] : tensor<101x32x2x16xf32> into tensor<101x1024xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<5x101xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<5x101xf32>) -> tensor<5x101xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %wk : tensor<5x1024xf32>, tensor<101x1024xf32>) outs(%fy : tensor<5x101xf32>) -> tensor<5x101xf32>
  return %y : tensor<5x101xf32>
}

func.func @q4_m8(%x: tensor<8x1024xf32>) -> tensor<8x101xf32> {
  %raw = util.global.load @q4 : tensor<101x576xi8>
  %blocks = tensor.expand_shape %raw [[0], [1, 2]] output_shape [101, 32, 18] : tensor<101x576xi8> into tensor<101x32x18xi8>
  %halves = flow.tensor.bitcast %blocks : tensor<101x32x18xi8> -> tensor<101x32x9xf16>
  %nibbles = flow.tensor.bitcast %blocks : tensor<101x32x18xi8> -> tensor<101x32x36xi4>
  %d = tensor.extract_slice %halves[0, 0, 0] [101, 32, 1] [1, 1, 1] : tensor<101x32x9xf16> to tensor<101x32xf16>
  %q = tensor.extract_slice %nibbles[0, 0, 4] [101, 32, 32] [1, 1, 1] : tensor<101x32x36xi4> to tensor<101x32x32xi4>
  %qj = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [101, 32, 16, 2] : tensor<101x32x32xi4> into tensor<101x32x16x2xi4>
  %e = tensor.empty() : tensor<101x32x2x16xf32>
  %w = linalg.generic {indexing_maps = [#nibble_of_byte, #block_scale4, #halves_of_block], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qj, %d : tensor<101x32x16x2xi4>, tensor<101x32xf16>) outs(%e : tensor<101x32x2x16xf32>) {
  ^bb0(%qv: i4, %dv: f16, %o: f32):
    %u = arith.extui %qv : i4 to i32
    %eight = arith.constant 8 : i32
    %c = arith.subi %u, %eight : i32
    %i = arith.sitofp %c : i32 to f32
    %s = arith.extf %dv : f16 to f32
    %v = arith.mulf %i, %s : f32
    linalg.yield %v : f32
  } -> tensor<101x32x2x16xf32>
  %wk = tensor.collapse_shape %w [[0], [1, 2, 3]] : tensor<101x32x2x16xf32> into tensor<101x1024xf32>
  %zero = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<8x101xf32>
  %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<8x101xf32>) -> tensor<8x101xf32>
  %y = linalg.matmul indexing_maps = [#x, #w, #y] ins(%x, %wk : tensor<8x1024xf32>, tensor<101x1024xf32>) outs(%fy : tensor<8x101xf32>) -> tensor<8x101xf32>
  return %y : tensor<8x101xf32>
}
