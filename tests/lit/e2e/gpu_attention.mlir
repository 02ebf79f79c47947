// iree_linalg_ext.attention with 8 heads, 256 queries and keys, head size 64, against
// numpy, on the CPU and on hip-sim. On the GPU it is flash attention
// (kiln-gpu-tile-attention): K and V in LDS blocks of 16 keys, an online softmax per
// query row, no [query, key] scores anywhere; the same program with 32 heads of 2048
// queries and keys of head size 128 compiles with 16 KiB of LDS and a bounded scratch
// (gpu_flash_attention.mlir has masks, a score region, odd and dynamic lengths).
// RUN: rm -rf %t && %python %S/Inputs/attention_operands.py %t
// RUN: kiln-run --module=%s --device=cpu --function=attention --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/reference.npy --atol=1e-6 --rtol=1e-4
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln --report=%t/report.txt
// RUN: FileCheck %s < %t/report.txt
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=attention --input=@%t/q.npy --input=@%t/k.npy --input=@%t/v.npy --expected_output=@%t/reference.npy --atol=1e-6 --rtol=1e-4
// RUN: sed 's/8x256x64/32x2048x128/g' %s > %t/large.mlir
// RUN: kiln-compile --target=gfx942 %t/large.mlir -o %t/large.kiln --report=%t/large.txt
// RUN: FileCheck %s --check-prefix=LARGE < %t/large.txt
// CHECK: attention_dispatch_{{[0-9]+}}_attention: workgroup 64x1x1 (distributed), {{.*}} LDS 8192 B, scratch 0 B/work-item
// LARGE: attention_dispatch_{{[0-9]+}}_attention: workgroup 64x1x1 (distributed), {{.*}} LDS 16384 B, scratch {{[0-9]?[0-9]?[0-9]}} B/work-item

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
