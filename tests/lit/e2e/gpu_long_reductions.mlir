// Long reductions with few outputs on the GPU: kiln-split-long-reductions cuts them into
// chunk partials (one workgroup, or one work-item, per chunk), their combination, and a
// remainder, so that they use the whole GPU instead of one workgroup per output. On
// hip-sim (gfx942 and gfx1100) and on the CPU running the same split program, against
// numpy. Inputs are small integers: the sums are exact in any order.
// RUN: rm -rf %t && %python %S/Inputs/long_reduction_operands.py %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln --report=%t/report.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.txt
// RUN: kiln-compile --target=gfx1100 %s -o %t/gfx1100.kiln
// RUN: kiln-compile --target=cpu,gfx942 %s -o %t/both.kiln
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=flat_sum --input=@%t/flat.npy --expected_output=@%t/flat_sum.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=odd_sum --input=@%t/odd.npy --expected_output=@%t/odd_sum.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=dynamic_sum --input=@%t/odd.npy --expected_output=@%t/odd_sum.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=dynamic_sum --input=@%t/flat.npy --expected_output=@%t/flat_sum.npy --atol=0 --rtol=0
// A dynamic length shorter than one chunk: no whole chunk, the remainder is everything.
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=dynamic_sum --input=@%t/short.npy --expected_output=@%t/short_sum.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=plane_sum --input=@%t/plane.npy --expected_output=@%t/plane_sum.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=tall_column_sums --input=@%t/tall.npy --expected_output=@%t/tall_column_sums.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=row_squares --input=@%t/rows.npy --expected_output=@%t/row_squares.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=ints_max --input=@%t/ints.npy --expected_output=@%t/ints_max.npy
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=halves_mean --input=@%t/halves.npy --expected_output=@%t/halves_mean.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=odd_sum --input=@%t/odd.npy --expected_output=@%t/odd_sum.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=tall_column_sums --input=@%t/tall.npy --expected_output=@%t/tall_column_sums.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/both.kiln --device=cpu --function=dynamic_sum --input=@%t/odd.npy --expected_output=@%t/odd_sum.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/both.kiln --device=cpu --function=plane_sum --input=@%t/plane.npy --expected_output=@%t/plane_sum.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/both.kiln --device=cpu-sync --function=tall_column_sums --input=@%t/tall.npy --expected_output=@%t/tall_column_sums.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/both.kiln --device=cpu --function=halves_mean --input=@%t/halves.npy --expected_output=@%t/halves_mean.npy --atol=0 --rtol=0

// 2^20 elements: 64 chunk partials of 16384, a workgroup of 256 each, then their
// combination: two dispatches, no remainder.
// REPORT: gfx942 flat_sum_dispatch_{{[0-9]+}}_generic: workgroup 256x1x1 (distributed), {{.*}}, LDS 16 B, scratch 0 B/work-item
// REPORT-NEXT: gfx942 flat_sum_dispatch_{{[0-9]+}}_generic: workgroup 256x1x1 (distributed), {{.*}}, LDS 16 B, scratch 0 B/work-item
// REPORT-NEXT: gfx942 odd_sum_
// Column sums: a work-item per chunk of rows of a column (the partials' dispatch), where
// before one workgroup of 64 work-items summed all rows of 3 columns.
// REPORT: gfx942 tall_column_sums_dispatch_{{[0-9]+}}_generic: workgroup 64x1x1 (distributed)

func.func @flat_sum(%x: tensor<1048576xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<1048576xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

func.func @odd_sum(%x: tensor<1000003xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<1000003xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

func.func @dynamic_sum(%x: tensor<?xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<?xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

// Both dimensions reduced: merged into one loop of 1024000, then cut.
func.func @plane_sum(%x: tensor<1024x1000xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<1024x1000xf32>) outs(%f : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

func.func @tall_column_sums(%x: tensor<100003x3xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.reduce ins(%x : tensor<100003x3xf32>) outs(%f : tensor<3xf32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<3xf32>
}

// The element is computed (a square) before it is summed; three outputs.
func.func @row_squares(%x: tensor<3x200001xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x200001xf32>) outs(%f : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @ints_max(%x: tensor<300007xi32>) -> tensor<i32> {
  %low = arith.constant -2147483648 : i32
  %e = tensor.empty() : tensor<i32>
  %f = linalg.fill ins(%low : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %r = linalg.reduce ins(%x : tensor<300007xi32>) outs(%f : tensor<i32>) dimensions = [0]
    (%a: i32, %b: i32) { %m = arith.maxsi %a, %b : i32
      linalg.yield %m : i32 }
  return %r : tensor<i32>
}

// An f16 mean: summed in f32 (kiln-widen-reduction-accumulators), split, then scaled by 2^-16.
func.func @halves_mean(%x: tensor<65536xf16>) -> tensor<f16> {
  %zero = arith.constant 0.0 : f16
  %scale = arith.constant 1.52587890625e-05 : f16
  %e = tensor.empty() : tensor<f16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<f16>) -> tensor<f16>
  %r = linalg.reduce ins(%x : tensor<65536xf16>) outs(%f : tensor<f16>) dimensions = [0]
    (%a: f16, %b: f16) { %s = arith.addf %a, %b : f16
      linalg.yield %s : f16 }
  %m = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%r : tensor<f16>) outs(%e : tensor<f16>) {
  ^bb0(%s: f16, %o: f16):
    %d = arith.mulf %s, %scale : f16
    linalg.yield %d : f16
  } -> tensor<f16>
  return %m : tensor<f16>
}
