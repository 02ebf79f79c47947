// Accuracy of long f32 sums (kiln-cpu-block-reductions): blocked sums keep the rounding
// error growing with log n. Inputs are generated in the program (0.1 and 0.3 alternating,
// by linalg.index), so the compiler cannot fold the sums; expected values are the exact
// (f64) sums of those f32 values, rounded to f32:
//   n/2 * f64(f32(0.1)) + n/2 * f64(f32(0.3)), and per line the same with its own counts.
// RUN: kiln-check %s --device=cpu
// RUN: kiln-check %s --device=cpu-sync
// The lowering without blocks (one accumulator per output, or per vector lane) misses
// every tolerance below (the exact integer sums at the end pass either way):
// RUN: kiln-compile --block-reductions=false %s -o %t.unblocked.kiln
// RUN: not kiln-check %t.unblocked.kiln --device=cpu-sync | FileCheck %s --check-prefix=UNBLOCKED
// UNBLOCKED: [  FAILED  ] sum_40960_thousandths
// UNBLOCKED: [  FAILED  ] sum_16m
// UNBLOCKED: [  FAILED  ] row_sums_3x70001
// UNBLOCKED: [  FAILED  ] column_sums_50001x37
// UNBLOCKED: [  FAILED  ] column_sums_5001x1500
// UNBLOCKED: [  FAILED  ] sum_dynamic_length
// UNBLOCKED: [  PASSED  ] exact_middle_dimension_sums
// UNBLOCKED: 1 passed, 6 failed

// 40960 x 0.001f: within 1e-4 of 40.96.
func.func @sum_40960_thousandths() {
  %x = util.unfoldable_constant dense<0.001> : tensor<40960xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<40960xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  check.expect_almost_eq_const(%r, dense<40.96> : tensor<f32>, atol 1.0e-4) : tensor<f32>
  return
}

// 2^24 elements: within 1e-6 relative of the exact sum 3355443.3125.
func.func @sum_16m() {
  %e = tensor.empty() : tensor<16777216xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<16777216xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %odd = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %odd, %c0 : index
    %small = arith.constant 0.1 : f32
    %large = arith.constant 0.3 : f32
    %v = arith.select %even, %small, %large : f32
    linalg.yield %v : f32
  } -> tensor<16777216xf32>
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<16777216xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  check.expect_almost_eq_const(%r, dense<3355443.3125> : tensor<f32>, atol 0.0, rtol 1.0e-6) : tensor<f32>
  return
}

// Rows of 70001 (not a multiple of any block): x[i, j] = 0.1 if i + j is even, else 0.3.
func.func @row_sums_3x70001() {
  %e = tensor.empty() : tensor<3x70001xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<3x70001xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ij = arith.addi %i, %j : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %odd = arith.remui %ij, %c2 : index
    %even = arith.cmpi eq, %odd, %c0 : index
    %small = arith.constant 0.1 : f32
    %large = arith.constant 0.3 : f32
    %v = arith.select %even, %small, %large : f32
    linalg.yield %v : f32
  } -> tensor<3x70001xf32>
  %zero = arith.constant 0.0 : f32
  %re = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%re : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.reduce ins(%x : tensor<3x70001xf32>) outs(%f : tensor<3xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  check.expect_almost_eq_const(%r, dense<[14000.101, 14000.301, 14000.101]> : tensor<3xf32>, atol 0.0, rtol 1.0e-6) : tensor<3xf32>
  return
}

// A sum over rows, vectorised across the 37 columns (the accumulator holds all of them).
func.func @column_sums_50001x37() {
  %e = tensor.empty() : tensor<50001x37xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<50001x37xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ij = arith.addi %i, %j : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %odd = arith.remui %ij, %c2 : index
    %even = arith.cmpi eq, %odd, %c0 : index
    %small = arith.constant 0.1 : f32
    %large = arith.constant 0.3 : f32
    %v = arith.select %even, %small, %large : f32
    linalg.yield %v : f32
  } -> tensor<50001x37xf32>
  %zero = arith.constant 0.0 : f32
  %re = tensor.empty() : tensor<37xf32>
  %f = linalg.fill ins(%zero : f32) outs(%re : tensor<37xf32>) -> tensor<37xf32>
  %r = linalg.reduce ins(%x : tensor<50001x37xf32>) outs(%f : tensor<37xf32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  // Column j has 25001 values 0.1 and 25000 values 0.3 when j is even, the reverse when odd.
  %want = util.unfoldable_constant dense<[
    10000.101, 10000.301, 10000.101, 10000.301, 10000.101, 10000.301, 10000.101, 10000.301, 10000.101, 10000.301,
    10000.101, 10000.301, 10000.101, 10000.301, 10000.101, 10000.301, 10000.101, 10000.301, 10000.101, 10000.301,
    10000.101, 10000.301, 10000.101, 10000.301, 10000.101, 10000.301, 10000.101, 10000.301, 10000.101, 10000.301,
    10000.101, 10000.301, 10000.101, 10000.301, 10000.101, 10000.301, 10000.101]> : tensor<37xf32>
  check.expect_almost_eq(%r, %want, atol 0.0, rtol 1.0e-6) : tensor<37xf32>
  return
}

// 1500 columns: the accumulator takes them 1024 at a time (then the remaining 476).
func.func @column_sums_5001x1500() {
  %e = tensor.empty() : tensor<5001x1500xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<5001x1500xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ij = arith.addi %i, %j : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %odd = arith.remui %ij, %c2 : index
    %even = arith.cmpi eq, %odd, %c0 : index
    %small = arith.constant 0.1 : f32
    %large = arith.constant 0.3 : f32
    %v = arith.select %even, %small, %large : f32
    linalg.yield %v : f32
  } -> tensor<5001x1500xf32>
  %zero = arith.constant 0.0 : f32
  %re = tensor.empty() : tensor<1500xf32>
  %f = linalg.fill ins(%zero : f32) outs(%re : tensor<1500xf32>) -> tensor<1500xf32>
  %r = linalg.reduce ins(%x : tensor<5001x1500xf32>) outs(%f : tensor<1500xf32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  // Column j: 2501 x 0.1 + 2500 x 0.3 = 1000.10004 when j is even, 1000.30005 when odd.
  %we = tensor.empty() : tensor<1500xf32>
  %want = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%we : tensor<1500xf32>) {
  ^bb0(%out: f32):
    %j = linalg.index 0 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %odd = arith.remui %j, %c2 : index
    %even = arith.cmpi eq, %odd, %c0 : index
    %small = arith.constant 1000.10004 : f32
    %large = arith.constant 1000.30005 : f32
    %v = arith.select %even, %small, %large : f32
    linalg.yield %v : f32
  } -> tensor<1500xf32>
  check.expect_almost_eq(%r, %want, atol 0.0, rtol 1.0e-6) : tensor<1500xf32>
  return
}

// A dynamic length (100003, known only at run time): every level of blocks is made.
func.func @sum_dynamic_length() {
  %n = util.unfoldable_constant 100003 : index
  %e = tensor.empty(%n) : tensor<?xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %odd = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %odd, %c0 : index
    %small = arith.constant 0.1 : f32
    %large = arith.constant 0.3 : f32
    %v = arith.select %even, %small, %large : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<?xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  // 50002 x 0.1 + 50001 x 0.3
  check.expect_almost_eq_const(%r, dense<20000.5> : tensor<f32>, atol 0.0, rtol 1.0e-6) : tensor<f32>
  return
}

// Integer-valued sums, exact in any order, check the blocking itself: a reduction over
// the middle of three loops (the outer loop tiled by one, the inner one kept), an output
// stored transposed, and a body reading linalg.index of the reduction loop (offset in
// every block). x[i, j, k] = (j mod 7) * (i + 1) + k; over j < 5000, sum(j mod 7) =
// 714 * 21 + 0 + 1 = 14995, so out[k, i] = 14995 * (i + 1) + 5000 * k.
func.func @exact_middle_dimension_sums() {
  %e = tensor.empty() : tensor<3x5000x5xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<3x5000x5xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %c7 = arith.constant 7 : index
    %c1 = arith.constant 1 : index
    %jm = arith.remui %j, %c7 : index
    %i1 = arith.addi %i, %c1 : index
    %p = arith.muli %jm, %i1 : index
    %v = arith.addi %p, %k : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    linalg.yield %vf : f32
  } -> tensor<3x5000x5xf32>
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<5x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%oe : tensor<5x3xf32>) -> tensor<5x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d0)>],
                       iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<3x5000x5xf32>) outs(%f : tensor<5x3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<5x3xf32>
  check.expect_eq_const(%r, dense<[[14995.0, 29990.0, 44985.0], [19995.0, 34990.0, 49985.0], [24995.0, 39990.0, 54985.0],
                                   [29995.0, 44990.0, 59985.0], [34995.0, 49990.0, 64985.0]]> : tensor<5x3xf32>) : tensor<5x3xf32>
  // sum over j < 70001 of (j mod 7) read through linalg.index: 10000 * 21 = 210000.
  %y = util.unfoldable_constant dense<1.0> : tensor<70001xf32>
  %se = tensor.empty() : tensor<f32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%y : tensor<70001xf32>) outs(%sf : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %j = linalg.index 0 : index
    %c7 = arith.constant 7 : index
    %jm = arith.remui %j, %c7 : index
    %ji = arith.index_cast %jm : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %w = arith.mulf %in, %jf : f32
    %s = arith.addf %acc, %w : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  check.expect_eq_const(%t, dense<210000.0> : tensor<f32>) : tensor<f32>
  return
}
