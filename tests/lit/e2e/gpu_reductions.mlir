// Reductions through the GPU's workgroup strategies (kiln-gpu-tile-reductions, -tile-rows) on hip-sim,
// against numpy: row sums and maxima, a long sum with no parallel dimension, an i32 sum
// over the innermost of three dimensions (the long sum is split into chunks first:
// gpu_long_reductions.mlir), a dynamic row count, and a column sum (not the
// input's innermost dimension: the per-work-item path); on gfx942 (wave64) and gfx1100
// (wave32, simulated as such). Inputs are small integers, so results are exact.
// RUN: rm -rf %t && %python %S/Inputs/reduction_operands.py %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln --report=%t/report.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.txt
// RUN: kiln-compile --target=gfx1100 %s -o %t/gfx1100.kiln
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=row_sums --input=@%t/rows.npy --expected_output=@%t/row_sums.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=row_maxima --input=@%t/rows.npy --expected_output=@%t/row_maxima.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=dynamic_row_sums --input=@%t/rows.npy --expected_output=@%t/row_sums.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=long_sum --input=@%t/long.npy --expected_output=@%t/long_sum.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=int_sums --input=@%t/ints.npy --expected_output=@%t/int_sums.npy
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=column_sums --input=@%t/rows.npy --expected_output=@%t/column_sums.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=row_sums --input=@%t/rows.npy --expected_output=@%t/row_sums.npy --atol=0 --rtol=0
// Products reduced along rows (a matvec, decode's one token times weights stored [n, k],
// f16 operands summed in f32) take the reduction strategy: one row per workgroup, not
// 64x64 product tiles of which one row or column is used.
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=matvec --input=@%t/matrix.npy --input=@%t/vector.npy --expected_output=@%t/matvec.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=decode --input=@%t/token.npy --input=@%t/matrix.npy --expected_output=@%t/decode.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=matvec_f16 --input=@%t/matrix_f16.npy --input=@%t/vector_f16.npy --expected_output=@%t/matvec.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=decode --input=@%t/token.npy --input=@%t/matrix.npy --expected_output=@%t/decode.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%s --device=cpu --function=matvec_f16 --input=@%t/matrix_f16.npy --input=@%t/vector_f16.npy --expected_output=@%t/matvec.npy --atol=0 --rtol=0
// Softmax through the row strategy (kiln-gpu-tile-rows): each row's max and sum of
// exponentials are workgroup reductions and the row is recomputed, never stored: no
// scratch, and a dynamic row length needs no temporary.
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=softmax --input=@%t/softmax_in.npy --expected_output=@%t/softmax_ref.npy --atol=1e-7 --rtol=1e-5
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=softmax_dynamic --input=@%t/softmax_in.npy --expected_output=@%t/softmax_ref.npy --atol=1e-7 --rtol=1e-5
// Rows loaded as 128-bit vectors, then a tail of columns one at a time (rows of 1003):
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=softmax_odd --input=@%t/softmax_odd_in.npy --expected_output=@%t/softmax_odd_ref.npy --atol=1e-7 --rtol=1e-5
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=softmax_dynamic --input=@%t/softmax_odd_in.npy --expected_output=@%t/softmax_odd_ref.npy --atol=1e-7 --rtol=1e-5
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=softmax_odd --input=@%t/softmax_odd_in.npy --expected_output=@%t/softmax_odd_ref.npy --atol=1e-7 --rtol=1e-5
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=softmax --input=@%t/softmax_in.npy --expected_output=@%t/softmax_ref.npy --atol=1e-7 --rtol=1e-5
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=long_sum --input=@%t/long.npy --expected_output=@%t/long_sum.npy --atol=0 --rtol=0

// The strategy's kernels: 256 work-items, 4 waves' totals in LDS, no scratch.
// REPORT-DAG: row_sums_dispatch_{{[0-9]+}}_reduce: workgroup 256x1x1 (distributed), {{.*}}, LDS 16 B, scratch 0 B/work-item
// REPORT-DAG: long_sum_dispatch_{{[0-9]+}}_generic: workgroup 256x1x1 (distributed), {{.*}}, LDS 16 B, scratch 0 B/work-item
// REPORT-DAG: matvec_dispatch_{{[0-9]+}}_matvec: workgroup 256x1x1 (distributed), {{.*}}, LDS 16 B, scratch 0 B/work-item
// REPORT-DAG: decode_dispatch_{{[0-9]+}}_generic: workgroup 256x1x1 (distributed), {{.*}}, LDS 16 B, scratch 0 B/work-item
// REPORT-DAG: matvec_f16_dispatch_{{[0-9]+}}_generic: workgroup 256x1x1 (distributed), {{.*}}, LDS 16 B, scratch 0 B/work-item
// REPORT-DAG: softmax_dispatch_{{[0-9]+}}_generic: workgroup 256x1x1 (distributed), {{.*}}, scratch 0 B/work-item
// REPORT-DAG: softmax_dynamic_dispatch_{{[0-9]+}}_generic: workgroup 256x1x1 (distributed), {{.*}}, scratch 0 B/work-item

func.func @row_sums(%x: tensor<37x1000xf32>) -> tensor<37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37xf32>) -> tensor<37xf32>
  %r = linalg.reduce ins(%x : tensor<37x1000xf32>) outs(%f : tensor<37xf32>) dimensions = [1]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<37xf32>
}

func.func @row_maxima(%x: tensor<37x1000xf32>) -> tensor<37xf32> {
  %low = arith.constant -1.0e+30 : f32
  %e = tensor.empty() : tensor<37xf32>
  %f = linalg.fill ins(%low : f32) outs(%e : tensor<37xf32>) -> tensor<37xf32>
  %r = linalg.reduce ins(%x : tensor<37x1000xf32>) outs(%f : tensor<37xf32>) dimensions = [1]
    (%a: f32, %b: f32) { %s = arith.maximumf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<37xf32>
}

func.func @dynamic_row_sums(%x: tensor<?x1000xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x1000xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x1000xf32>) outs(%f : tensor<?xf32>) dimensions = [1]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<?xf32>
}

func.func @long_sum(%x: tensor<300001xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<300001xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

func.func @int_sums(%x: tensor<5x3x777xi32>) -> tensor<5x3xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<5x3xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<5x3xi32>) -> tensor<5x3xi32>
  %r = linalg.reduce ins(%x : tensor<5x3x777xi32>) outs(%f : tensor<5x3xi32>) dimensions = [2]
    (%a: i32, %b: i32) { %s = arith.addi %a, %b : i32
      linalg.yield %s : i32 }
  return %r : tensor<5x3xi32>
}

func.func @column_sums(%x: tensor<37x1000xf32>) -> tensor<1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000xf32>) -> tensor<1000xf32>
  %r = linalg.reduce ins(%x : tensor<37x1000xf32>) outs(%f : tensor<1000xf32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<1000xf32>
}

func.func @softmax(%x: tensor<37x1000xf32>) -> tensor<37x1000xf32> {
  %e = tensor.empty() : tensor<37x1000xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<37x1000xf32>) outs(%e : tensor<37x1000xf32>) -> tensor<37x1000xf32>
  return %r : tensor<37x1000xf32>
}

func.func @softmax_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @softmax_odd(%x: tensor<37x1003xf32>) -> tensor<37x1003xf32> {
  %e = tensor.empty() : tensor<37x1003xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<37x1003xf32>) outs(%e : tensor<37x1003xf32>) -> tensor<37x1003xf32>
  return %r : tensor<37x1003xf32>
}

func.func @matvec(%m: tensor<300x1003xf32>, %v: tensor<1003xf32>) -> tensor<300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %r = linalg.matvec ins(%m, %v : tensor<300x1003xf32>, tensor<1003xf32>) outs(%f : tensor<300xf32>) -> tensor<300xf32>
  return %r : tensor<300xf32>
}

func.func @decode(%x: tensor<1x1003xf32>, %w: tensor<300x1003xf32>) -> tensor<1x300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x300xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x300xf32>) -> tensor<1x300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<1x1003xf32>, tensor<300x1003xf32>) outs(%f : tensor<1x300xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x300xf32>
  return %r : tensor<1x300xf32>
}

func.func @matvec_f16(%m: tensor<300x1003xf16>, %v: tensor<1003xf16>) -> tensor<300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%m, %v : tensor<300x1003xf16>, tensor<1003xf16>) outs(%f : tensor<300xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<300xf32>
  return %r : tensor<300xf32>
}
