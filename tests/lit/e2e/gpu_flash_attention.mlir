// iree_linalg_ext.attention and online_attention through the GPU's flash-attention
// strategy (kiln-gpu-tile-attention: key blocks staged in LDS, an online softmax per
// query row) against numpy, on cpu, cpu-sync and hip-sim (gfx942, gfx90a, gfx1100):
// 200 queries and 333 keys (a partial row block and key block), an i1 mask that drops
// whole key blocks of some rows, an additive float mask with -infinity, a softcap score
// region, sequence lengths known only at run time, and online_attention from a state.
// RUN: rm -rf %t && %python %S/Inputs/flash_attention_operands.py %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln --report=%t/report.txt --remarks 2> %t/remarks.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.txt
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t/remarks.txt
// RUN: kiln-compile --target=cpu %s -o %t/cpu.kiln
// The whole attention op's cost counts its decomposition's arithmetic (kiln-benchmark-module
// --dispatches): 2 x 4 x 200 x 333 x 64 for each product, 5 per score, 1 per output.
// RUN: kiln-dump %t/gfx942.kiln | FileCheck %s --check-prefix=COST
// COST: plain_dispatch_{{[0-9]+}}_attention: {{.*}} flops 34099200 + 34099200 + 1332000 + 51200, bytes read 204800 + 340992 + 340992, written 204800
// COST: dynamic_dispatch_{{[0-9]+}}_attention: {{.*}} flops 512*c{{[0-9]}}*c{{[0-9]}} + 512*c{{[0-9]}}*c{{[0-9]}} + 20*c{{[0-9]}}*c{{[0-9]}} + 256*c{{[0-9]}},
// RUN: kiln-compile --target=gfx1100 %s -o %t/gfx1100.kiln
// RUN: kiln-compile --target=gfx90a %s -o %t/gfx90a.kiln
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=plain --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/plain.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=bool_mask --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/bool_mask.npy --expected_output=@%t/bool_masked.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=float_mask --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/float_mask.npy --expected_output=@%t/float_masked.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=softcap --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/softcapped.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=dynamic --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/plain.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=online --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/acc.npy --input=@%t/max.npy --input=@%t/sum.npy --expected_output=@%t/online_acc.npy --expected_output=@%t/online_max.npy --expected_output=@%t/online_sum.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=plain --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/plain.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=bool_mask --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/bool_mask.npy --expected_output=@%t/bool_masked.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=float_mask --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/float_mask.npy --expected_output=@%t/float_masked.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=softcap --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/softcapped.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=dynamic --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/plain.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=online --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/acc.npy --input=@%t/max.npy --input=@%t/sum.npy --expected_output=@%t/online_acc.npy --expected_output=@%t/online_max.npy --expected_output=@%t/online_sum.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=plain --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/plain.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=bool_mask --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/bool_mask.npy --expected_output=@%t/bool_masked.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=float_mask --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/float_mask.npy --expected_output=@%t/float_masked.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=softcap --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/softcapped.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=dynamic --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/plain.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=online --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/acc.npy --input=@%t/max.npy --input=@%t/sum.npy --expected_output=@%t/online_acc.npy --expected_output=@%t/online_max.npy --expected_output=@%t/online_sum.npy --atol=1e-5 --rtol=1e-4
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=plain --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/plain.npy --atol=1e-5 --rtol=1e-4
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=bool_mask --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/bool_mask.npy --expected_output=@%t/bool_masked.npy --atol=1e-5 --rtol=1e-4
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=float_mask --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/float_mask.npy --expected_output=@%t/float_masked.npy --atol=1e-5 --rtol=1e-4
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=softcap --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/softcapped.npy --atol=1e-5 --rtol=1e-4
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=dynamic --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/plain.npy --atol=1e-5 --rtol=1e-4
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=online --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/acc.npy --input=@%t/max.npy --input=@%t/sum.npy --expected_output=@%t/online_acc.npy --expected_output=@%t/online_max.npy --expected_output=@%t/online_sum.npy --atol=1e-5 --rtol=1e-4
// RUN: env KILN_HSA_SIM_AGENTS=gfx90a kiln-run --module=%t/gfx90a.kiln --device=hip-sim --function=plain --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/plain.npy --atol=1e-5 --rtol=1e-4
// RUN: env KILN_HSA_SIM_AGENTS=gfx90a kiln-run --module=%t/gfx90a.kiln --device=hip-sim --function=online --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=@%t/acc.npy --input=@%t/max.npy --input=@%t/sum.npy --expected_output=@%t/online_acc.npy --expected_output=@%t/online_max.npy --expected_output=@%t/online_sum.npy --atol=1e-5 --rtol=1e-4

// K and V as views of a KV cache (a slice of run-time length; a strided, rank-reducing
// slice): the kernel reads through the view, as flash tiles.
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=kv_prefix --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=i64=250 --expected_output=@%t/kv_prefix.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=kv_prefix --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --input=i64=250 --expected_output=@%t/kv_prefix.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=kv_strided --input=@%t/q_head2.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/kv_strided.npy --atol=1e-5 --rtol=1e-4
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=kv_strided --input=@%t/q_head2.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/kv_strided.npy --atol=1e-5 --rtol=1e-4
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=kv_strided --input=@%t/q_head2.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/kv_strided.npy --atol=1e-5 --rtol=1e-4

// f16 operands and result (f32 arithmetic), within f16 rounding of numpy.
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=half --input=@%t/q16.npy --input=@%t/k16.npy --input=@%t/v16.npy --expected_output=@%t/half.npy --atol=1e-3 --rtol=1e-2
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=half --input=@%t/q16.npy --input=@%t/k16.npy --input=@%t/v16.npy --expected_output=@%t/half.npy --atol=1e-3 --rtol=1e-2
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=half --input=@%t/q16.npy --input=@%t/k16.npy --input=@%t/v16.npy --expected_output=@%t/half.npy --atol=1e-3 --rtol=1e-2

// The flash kernels: 64 work-items, K and V blocks of 16 keys in LDS (64 x 4 B x 2 x 16),
// private memory for the query row, the output row, one block of scores and the state.
// REPORT-DAG: plain_dispatch_{{[0-9]+}}_attention: workgroup 64x1x1 (distributed), {{.*}} LDS 8192 B, scratch {{[0-9]+}} B/work-item
// REPORT-DAG: bool_mask_dispatch_{{[0-9]+}}_attention: workgroup 64x1x1 (distributed), {{.*}} LDS 8192 B
// REPORT-DAG: float_mask_dispatch_{{[0-9]+}}_attention: workgroup 64x1x1 (distributed), {{.*}} LDS 8192 B
// REPORT-DAG: softcap_dispatch_{{[0-9]+}}_attention: workgroup 64x1x1 (distributed), {{.*}} LDS 8192 B
// REPORT-DAG: dynamic_dispatch_{{[0-9]+}}_attention: workgroup 64x1x1 (distributed), {{.*}} LDS 8192 B
// REPORT-DAG: online_dispatch_{{[0-9]+}}_online_attention: workgroup 64x1x1 (distributed), {{.*}} LDS 8192 B
// REPORT-DAG: half_dispatch_{{[0-9]+}}_attention: workgroup 64x1x1 (distributed), {{.*}} LDS 8192 B
// REPORT-DAG: kv_prefix_dispatch_{{[0-9]+}}_attention: workgroup 64x1x1 (distributed), {{.*}} LDS 8192 B
// REPORT-DAG: kv_strided_dispatch_{{[0-9]+}}_attention: workgroup 64x1x1 (distributed), {{.*}} LDS 8192 B
// REMARK-NOT: decomposed and runs per work-item

#q = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#k = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#v = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#s = affine_map<(b, m, k1, k2, n) -> ()>
#o = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#rows = affine_map<(b, m, k1, k2, n) -> (b, m)>
#mask2d = affine_map<(b, m, k1, k2, n) -> (m, k2)>
#mask3d = affine_map<(b, m, k1, k2, n) -> (b, m, k2)>

func.func @plain(%q: tensor<4x200x64xf32>, %k: tensor<4x333x64xf32>, %v: tensor<4x333x64xf32>) -> tensor<4x200x64xf32> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<4x200x64xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<4x200x64xf32>, tensor<4x333x64xf32>, tensor<4x333x64xf32>, f32)
      outs(%e : tensor<4x200x64xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x200x64xf32>
  return %o : tensor<4x200x64xf32>
}

func.func @bool_mask(%q: tensor<4x200x64xf32>, %k: tensor<4x333x64xf32>, %v: tensor<4x333x64xf32>, %mask: tensor<200x333xi1>) -> tensor<4x200x64xf32> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<4x200x64xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #mask2d, #o]}
      ins(%q, %k, %v, %scale, %mask : tensor<4x200x64xf32>, tensor<4x333x64xf32>, tensor<4x333x64xf32>, f32, tensor<200x333xi1>)
      outs(%e : tensor<4x200x64xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x200x64xf32>
  return %o : tensor<4x200x64xf32>
}

func.func @float_mask(%q: tensor<4x200x64xf32>, %k: tensor<4x333x64xf32>, %v: tensor<4x333x64xf32>, %mask: tensor<4x200x333xf32>) -> tensor<4x200x64xf32> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<4x200x64xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #mask3d, #o]}
      ins(%q, %k, %v, %scale, %mask : tensor<4x200x64xf32>, tensor<4x333x64xf32>, tensor<4x333x64xf32>, f32, tensor<4x200x333xf32>)
      outs(%e : tensor<4x200x64xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x200x64xf32>
  return %o : tensor<4x200x64xf32>
}

func.func @softcap(%q: tensor<4x200x64xf32>, %k: tensor<4x333x64xf32>, %v: tensor<4x333x64xf32>) -> tensor<4x200x64xf32> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<4x200x64xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<4x200x64xf32>, tensor<4x333x64xf32>, tensor<4x333x64xf32>, f32)
      outs(%e : tensor<4x200x64xf32>) {
  ^bb0(%score: f32):
    %two = arith.constant 2.0 : f32
    %half = arith.divf %score, %two : f32
    %t = math.tanh %half : f32
    %capped = arith.mulf %t, %two : f32
    iree_linalg_ext.yield %capped : f32
  } -> tensor<4x200x64xf32>
  return %o : tensor<4x200x64xf32>
}

func.func @dynamic(%q: tensor<4x?x64xf32>, %k: tensor<4x?x64xf32>, %v: tensor<4x?x64xf32>) -> tensor<4x?x64xf32> {
  %scale = arith.constant 0.125 : f32
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %q, %c1 : tensor<4x?x64xf32>
  %e = tensor.empty(%rows) : tensor<4x?x64xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<4x?x64xf32>, tensor<4x?x64xf32>, tensor<4x?x64xf32>, f32)
      outs(%e : tensor<4x?x64xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x?x64xf32>
  return %o : tensor<4x?x64xf32>
}

func.func @online(%q: tensor<4x200x64xf32>, %k: tensor<4x333x64xf32>, %v: tensor<4x333x64xf32>, %acc: tensor<4x200x64xf32>,
                  %max: tensor<4x200xf32>, %sum: tensor<4x200xf32>) -> (tensor<4x200x64xf32>, tensor<4x200xf32>, tensor<4x200xf32>) {
  %scale = arith.constant 0.125 : f32
  %o:3 = iree_linalg_ext.online_attention {indexing_maps = [#q, #k, #v, #s, #o, #rows, #rows]}
      ins(%q, %k, %v, %scale : tensor<4x200x64xf32>, tensor<4x333x64xf32>, tensor<4x333x64xf32>, f32)
      outs(%acc, %max, %sum : tensor<4x200x64xf32>, tensor<4x200xf32>, tensor<4x200xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x200x64xf32>, tensor<4x200xf32>, tensor<4x200xf32>
  return %o#0, %o#1, %o#2 : tensor<4x200x64xf32>, tensor<4x200xf32>, tensor<4x200xf32>
}

func.func @half(%q: tensor<4x200x64xf16>, %k: tensor<4x333x64xf16>, %v: tensor<4x333x64xf16>) -> tensor<4x200x64xf16> {
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<4x200x64xf16>
  %o = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<4x200x64xf16>, tensor<4x333x64xf16>, tensor<4x333x64xf16>, f16)
      outs(%e : tensor<4x200x64xf16>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<4x200x64xf16>
  return %o : tensor<4x200x64xf16>
}

func.func @kv_prefix(%q: tensor<4x200x64xf32>, %k_cache: tensor<4x333x64xf32>, %v_cache: tensor<4x333x64xf32>, %len: index) -> tensor<4x200x64xf32> {
  %scale = arith.constant 0.125 : f32
  %k = tensor.extract_slice %k_cache[0, 0, 0] [4, %len, 64] [1, 1, 1] : tensor<4x333x64xf32> to tensor<4x?x64xf32>
  %v = tensor.extract_slice %v_cache[0, 0, 0] [4, %len, 64] [1, 1, 1] : tensor<4x333x64xf32> to tensor<4x?x64xf32>
  %e = tensor.empty() : tensor<4x200x64xf32>
  %r = iree_linalg_ext.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %scale : tensor<4x200x64xf32>, tensor<4x?x64xf32>, tensor<4x?x64xf32>, f32) outs(%e : tensor<4x200x64xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
  } -> tensor<4x200x64xf32>
  return %r : tensor<4x200x64xf32>
}

func.func @kv_strided(%q: tensor<200x64xf32>, %k_cache: tensor<4x333x64xf32>, %v_cache: tensor<4x333x64xf32>) -> tensor<200x64xf32> {
  %scale = arith.constant 0.125 : f32
  %k = tensor.extract_slice %k_cache[2, 1, 0] [1, 166, 64] [1, 2, 1] : tensor<4x333x64xf32> to tensor<166x64xf32>
  %v = tensor.extract_slice %v_cache[2, 1, 0] [1, 166, 64] [1, 2, 1] : tensor<4x333x64xf32> to tensor<166x64xf32>
  %e = tensor.empty() : tensor<200x64xf32>
  %r = iree_linalg_ext.attention {indexing_maps = [affine_map<(m, k1, k2, n) -> (m, k1)>, affine_map<(m, k1, k2, n) -> (k2, k1)>,
                                                   affine_map<(m, k1, k2, n) -> (k2, n)>, affine_map<(m, k1, k2, n) -> ()>,
                                                   affine_map<(m, k1, k2, n) -> (m, n)>]}
      ins(%q, %k, %v, %scale : tensor<200x64xf32>, tensor<166x64xf32>, tensor<166x64xf32>, f32) outs(%e : tensor<200x64xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
  } -> tensor<200x64xf32>
  return %r : tensor<200x64xf32>
}
