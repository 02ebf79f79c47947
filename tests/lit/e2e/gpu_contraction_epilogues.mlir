// Contractions whose dispatch also holds an elementwise consumer (row fusion joins a
// generic product to its consumer): the GPU's contraction strategy computes the consumer
// as an epilogue on its register tiles, so the product keeps its LDS tiles and MFMA/WMMA
// (no remark, no temporary): bias + relu after x W^T, a per-row scale, and an f16 product
// whose f32 accumulation (kiln-widen-reduction-accumulators) is rounded to f16 in the
// epilogue. Against numpy on hip-sim (gfx942, gfx1100) and the CPU; exact.
// RUN: rm -rf %t && %python %S/Inputs/epilogue_operands.py %t
// RUN: kiln-compile --target=gfx942 --remarks %s -o %t/gfx942.kiln --report=%t/report.txt 2>&1 | FileCheck %s --check-prefix=REMARKS --allow-empty
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.txt
// RUN: kiln-compile --target=gfx1100 %s -o %t/gfx1100.kiln
// RUN: kiln-compile %s -o %t/cpu.kiln
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=linear_relu --input=@%t/x.npy --input=@%t/w.npy --input=@%t/bias.npy --expected_output=@%t/linear_relu.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=scaled --input=@%t/x.npy --input=@%t/w.npy --input=@%t/scale.npy --expected_output=@%t/scaled.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=linear_f16 --input=@%t/x_f16.npy --input=@%t/w_f16.npy --expected_output=@%t/linear_f16.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=linear_relu --input=@%t/x.npy --input=@%t/w.npy --input=@%t/bias.npy --expected_output=@%t/linear_relu.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=linear_f16 --input=@%t/x_f16.npy --input=@%t/w_f16.npy --expected_output=@%t/linear_f16.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=linear_relu --input=@%t/x.npy --input=@%t/w.npy --input=@%t/bias.npy --expected_output=@%t/linear_relu.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=linear_f16 --input=@%t/x_f16.npy --input=@%t/w_f16.npy --expected_output=@%t/linear_f16.npy --atol=0 --rtol=0
// No dispatch is left per work-item:
// REMARKS-NOT: per work-item
// One dispatch per function, each through LDS:
// REPORT-DAG: gfx942 linear_relu_dispatch_{{[0-9]+}}_generic: workgroup 256x1x1 (distributed), {{.*}} LDS 8192 B, scratch 0 B/work-item
// REPORT-DAG: gfx942 scaled_dispatch_{{[0-9]+}}_generic: workgroup 256x1x1 (distributed), {{.*}} LDS 8192 B, scratch 0 B/work-item
// REPORT-DAG: gfx942 linear_f16_dispatch_{{[0-9]+}}_generic: workgroup 256x1x1 (distributed), {{.*}} LDS 8192 B, scratch 0 B/work-item

#x_map = affine_map<(m, n, k) -> (m, k)>
#w_map = affine_map<(m, n, k) -> (n, k)>
#y_map = affine_map<(m, n, k) -> (m, n)>
#rows = affine_map<(m, n) -> (m, n)>
#per_column = affine_map<(m, n) -> (n)>
#per_row = affine_map<(m, n) -> (m)>

func.func @linear_relu(%x: tensor<100x72xf32>, %w: tensor<90x72xf32>, %bias: tensor<90xf32>) -> tensor<100x90xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x90xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<100x90xf32>) -> tensor<100x90xf32>
  %y = linalg.generic {indexing_maps = [#x_map, #w_map, #y_map], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<100x72xf32>, tensor<90x72xf32>) outs(%f : tensor<100x90xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<100x90xf32>
  %r = linalg.generic {indexing_maps = [#rows, #per_column, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%y, %bias : tensor<100x90xf32>, tensor<90xf32>) outs(%e : tensor<100x90xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<100x90xf32>
  return %r : tensor<100x90xf32>
}

func.func @scaled(%x: tensor<100x72xf32>, %w: tensor<90x72xf32>, %scale: tensor<100xf32>) -> tensor<100x90xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x90xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<100x90xf32>) -> tensor<100x90xf32>
  %y = linalg.generic {indexing_maps = [#x_map, #w_map, #y_map], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<100x72xf32>, tensor<90x72xf32>) outs(%f : tensor<100x90xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<100x90xf32>
  %r = linalg.generic {indexing_maps = [#rows, #per_row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%y, %scale : tensor<100x90xf32>, tensor<100xf32>) outs(%e : tensor<100x90xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.mulf %v, %c : f32
    linalg.yield %s : f32
  } -> tensor<100x90xf32>
  return %r : tensor<100x90xf32>
}

// An f16 product into f16: accumulated in f32, rounded once in the epilogue.
func.func @linear_f16(%x: tensor<100x72xf16>, %w: tensor<90x72xf16>) -> tensor<100x90xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<100x90xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<100x90xf16>) -> tensor<100x90xf16>
  %y = linalg.generic {indexing_maps = [#x_map, #w_map, #y_map], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<100x72xf16>, tensor<90x72xf16>) outs(%f : tensor<100x90xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %p = arith.mulf %a, %b : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  } -> tensor<100x90xf16>
  return %y : tensor<100x90xf16>
}
