// iree_linalg_ext.attention with 8 heads (too few to split across work-items), 256
// queries and keys, head size 64, against numpy, on the CPU and on hip-sim. On the GPU the
// decomposed attention is split by query row and, inside a work-item, by head, so the
// scores of one row of one head (1 KiB) sit in private memory: a larger model (32 heads
// of 2048) then compiles for gfx942 instead of needing a dynamically sized temporary
// (flash tiling through LDS is issue 15's next step).
// RUN: rm -rf %t && %python %S/Inputs/attention_operands.py %t
// RUN: kiln-run --module=%s --device=cpu --function=attention --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/reference.npy --atol=1e-6 --rtol=1e-4
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln --report=%t/report.txt
// RUN: FileCheck %s < %t/report.txt
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=attention --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/reference.npy --atol=1e-6 --rtol=1e-4
// CHECK: attention_dispatch_{{[0-9]+}}_generic: {{.*}} scratch 1088 B/work-item

func.func @attention(%q: tensor<8x256x64xf32>, %k: tensor<8x256x64xf32>, %v: tensor<8x256x64xf32>) -> tensor<8x256x64xf32> {
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<8x256x64xf32>
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
      ins(%q, %k, %v, %scale : tensor<8x256x64xf32>, tensor<8x256x64xf32>, tensor<8x256x64xf32>, f32)
      outs(%e : tensor<8x256x64xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<8x256x64xf32>
  return %o : tensor<8x256x64xf32>
}
