// iree_linalg_ext.attention through the CPU's flash lowering (kiln-cpu-keep-flash-attention,
// kiln-cpu-lower-flash-attention: blocks of 64 query rows and 128 keys with an online
// softmax) against numpy, on cpu and cpu-sync: self-attention of 37 and of 1000 positions
// (partial query and key blocks), 2 x 3 heads, head dimension 64, 40 value columns; a
// softcap score region; a base-e softmax (use_exp2 = false); sizes known only at run time
// (the state on the heap); f16 operands and output (widened as read, computed in f32,
// rounded once: within an f16 rounding of the exact result).
// RUN: rm -rf %t && %python %S/Inputs/cpu_flash_attention_operands.py %t
// RUN: kiln-compile %s -o %t/cpu.kiln --dump-ir-after=kiln-cpu-lower-flash-attention 2> %t/lowered.mlir
// RUN: FileCheck %s --check-prefix=LOWERED < %t/lowered.mlir
// No [positions, positions] buffer anywhere: one [64, 128] block of scores.
// LOWERED-NOT: x1000x1000
// LOWERED-NOT: 1000x1000x
// LOWERED-NOT: 37x37
// LOWERED-NOT: iree_linalg_ext.attention
// LOWERED: memref.alloca() {alignment = 64 : i64} : memref<64x128xf32>
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=plain_37 --input=@%t/q37.npy --input=@%t/k37.npy --input=@%t/v37.npy --expected_output=@%t/plain37.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=softcap_37 --input=@%t/q37.npy --input=@%t/k37.npy --input=@%t/v37.npy --expected_output=@%t/softcap37.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=base_e_37 --input=@%t/q37.npy --input=@%t/k37.npy --input=@%t/v37.npy --expected_output=@%t/base_e37.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=dynamic_any --input=@%t/q37.npy --input=@%t/k37.npy --input=@%t/v37.npy --expected_output=@%t/plain37.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=plain_1000 --input=@%t/q1000.npy --input=@%t/k1000.npy --input=@%t/v1000.npy --expected_output=@%t/plain1000.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=softcap_1000 --input=@%t/q1000.npy --input=@%t/k1000.npy --input=@%t/v1000.npy --expected_output=@%t/softcap1000.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=base_e_1000 --input=@%t/q1000.npy --input=@%t/k1000.npy --input=@%t/v1000.npy --expected_output=@%t/base_e1000.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=dynamic_any --input=@%t/q1000.npy --input=@%t/k1000.npy --input=@%t/v1000.npy --expected_output=@%t/plain1000.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=half_1000 --input=@%t/q1000_f16.npy --input=@%t/k1000_f16.npy --input=@%t/v1000_f16.npy --expected_output=@%t/half1000.npy --atol=1e-3 --rtol=2e-3
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=half_37 --input=@%t/q37_f16.npy --input=@%t/k37_f16.npy --input=@%t/v37_f16.npy --expected_output=@%t/half37.npy --atol=1e-3 --rtol=2e-3
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=plain_37 --input=@%t/q37.npy --input=@%t/k37.npy --input=@%t/v37.npy --expected_output=@%t/plain37.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=softcap_37 --input=@%t/q37.npy --input=@%t/k37.npy --input=@%t/v37.npy --expected_output=@%t/softcap37.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=base_e_37 --input=@%t/q37.npy --input=@%t/k37.npy --input=@%t/v37.npy --expected_output=@%t/base_e37.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=dynamic_any --input=@%t/q37.npy --input=@%t/k37.npy --input=@%t/v37.npy --expected_output=@%t/plain37.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=plain_1000 --input=@%t/q1000.npy --input=@%t/k1000.npy --input=@%t/v1000.npy --expected_output=@%t/plain1000.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=softcap_1000 --input=@%t/q1000.npy --input=@%t/k1000.npy --input=@%t/v1000.npy --expected_output=@%t/softcap1000.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=base_e_1000 --input=@%t/q1000.npy --input=@%t/k1000.npy --input=@%t/v1000.npy --expected_output=@%t/base_e1000.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=dynamic_any --input=@%t/q1000.npy --input=@%t/k1000.npy --input=@%t/v1000.npy --expected_output=@%t/plain1000.npy --atol=1e-5 --rtol=1e-4

#q = affine_map<(b, h, m, k1, k2, n) -> (b, h, m, k1)>
#k = affine_map<(b, h, m, k1, k2, n) -> (b, h, k2, k1)>
#v = affine_map<(b, h, m, k1, k2, n) -> (b, h, k2, n)>
#s = affine_map<(b, h, m, k1, k2, n) -> ()>
#o = affine_map<(b, h, m, k1, k2, n) -> (b, h, m, n)>

func.func @plain_37(%q: tensor<2x3x37x64xf32>, %k: tensor<2x3x37x64xf32>, %v: tensor<2x3x37x40xf32>) -> tensor<2x3x37x40xf32> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<2x3x37x40xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<2x3x37x64xf32>, tensor<2x3x37x64xf32>, tensor<2x3x37x40xf32>, f32) outs(%e : tensor<2x3x37x40xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x3x37x40xf32>
  return %o : tensor<2x3x37x40xf32>
}

func.func @softcap_37(%q: tensor<2x3x37x64xf32>, %k: tensor<2x3x37x64xf32>, %v: tensor<2x3x37x40xf32>) -> tensor<2x3x37x40xf32> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<2x3x37x40xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<2x3x37x64xf32>, tensor<2x3x37x64xf32>, tensor<2x3x37x40xf32>, f32) outs(%e : tensor<2x3x37x40xf32>) {
  ^bb0(%score: f32):
    %cap = arith.constant 8.0 : f32
    %x = arith.divf %score, %cap : f32
    %t = math.tanh %x : f32
    %capped = arith.mulf %t, %cap : f32
    iree_linalg_ext.yield %capped : f32
  } -> tensor<2x3x37x40xf32>
  return %o : tensor<2x3x37x40xf32>
}

func.func @base_e_37(%q: tensor<2x3x37x64xf32>, %k: tensor<2x3x37x64xf32>, %v: tensor<2x3x37x40xf32>) -> tensor<2x3x37x40xf32> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<2x3x37x40xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o], decomposition_config = {use_exp2 = false}}
      ins(%q, %k, %v, %scale : tensor<2x3x37x64xf32>, tensor<2x3x37x64xf32>, tensor<2x3x37x40xf32>, f32) outs(%e : tensor<2x3x37x40xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x3x37x40xf32>
  return %o : tensor<2x3x37x40xf32>
}

func.func @plain_1000(%q: tensor<2x3x1000x64xf32>, %k: tensor<2x3x1000x64xf32>, %v: tensor<2x3x1000x40xf32>) -> tensor<2x3x1000x40xf32> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<2x3x1000x40xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<2x3x1000x64xf32>, tensor<2x3x1000x64xf32>, tensor<2x3x1000x40xf32>, f32) outs(%e : tensor<2x3x1000x40xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x3x1000x40xf32>
  return %o : tensor<2x3x1000x40xf32>
}

func.func @softcap_1000(%q: tensor<2x3x1000x64xf32>, %k: tensor<2x3x1000x64xf32>, %v: tensor<2x3x1000x40xf32>) -> tensor<2x3x1000x40xf32> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<2x3x1000x40xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<2x3x1000x64xf32>, tensor<2x3x1000x64xf32>, tensor<2x3x1000x40xf32>, f32) outs(%e : tensor<2x3x1000x40xf32>) {
  ^bb0(%score: f32):
    %cap = arith.constant 8.0 : f32
    %x = arith.divf %score, %cap : f32
    %t = math.tanh %x : f32
    %capped = arith.mulf %t, %cap : f32
    iree_linalg_ext.yield %capped : f32
  } -> tensor<2x3x1000x40xf32>
  return %o : tensor<2x3x1000x40xf32>
}

func.func @base_e_1000(%q: tensor<2x3x1000x64xf32>, %k: tensor<2x3x1000x64xf32>, %v: tensor<2x3x1000x40xf32>) -> tensor<2x3x1000x40xf32> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<2x3x1000x40xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o], decomposition_config = {use_exp2 = false}}
      ins(%q, %k, %v, %scale : tensor<2x3x1000x64xf32>, tensor<2x3x1000x64xf32>, tensor<2x3x1000x40xf32>, f32) outs(%e : tensor<2x3x1000x40xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x3x1000x40xf32>
  return %o : tensor<2x3x1000x40xf32>
}

// Every size dynamic: batch, heads, positions, head dimension and value columns.
func.func @dynamic_any(%q: tensor<?x?x?x?xf32>, %k: tensor<?x?x?x?xf32>, %v: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %scale = arith.constant 0.125 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %q, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %q, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %q, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %v, %c3 : tensor<?x?x?x?xf32>
  %e = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, f32)
      outs(%e : tensor<?x?x?x?xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<?x?x?x?xf32>
  return %o : tensor<?x?x?x?xf32>
}

func.func @half_37(%q: tensor<2x3x37x64xf16>, %k: tensor<2x3x37x64xf16>, %v: tensor<2x3x37x40xf16>) -> tensor<2x3x37x40xf16> {
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<2x3x37x40xf16>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<2x3x37x64xf16>, tensor<2x3x37x64xf16>, tensor<2x3x37x40xf16>, f16) outs(%e : tensor<2x3x37x40xf16>) {
  ^bb0(%score: f16):
    iree_linalg_ext.yield %score : f16
  } -> tensor<2x3x37x40xf16>
  return %o : tensor<2x3x37x40xf16>
}

func.func @half_1000(%q: tensor<2x3x1000x64xf16>, %k: tensor<2x3x1000x64xf16>, %v: tensor<2x3x1000x40xf16>) -> tensor<2x3x1000x40xf16> {
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<2x3x1000x40xf16>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<2x3x1000x64xf16>, tensor<2x3x1000x64xf16>, tensor<2x3x1000x40xf16>, f16) outs(%e : tensor<2x3x1000x40xf16>) {
  ^bb0(%score: f16):
    iree_linalg_ext.yield %score : f16
  } -> tensor<2x3x1000x40xf16>
  return %o : tensor<2x3x1000x40xf16>
}
