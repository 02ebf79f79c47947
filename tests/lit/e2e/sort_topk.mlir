// sort and topk beyond the conformance files' sizes: the radix path (plain comparator)
// against the comparison sort (the same comparator in a form radix does not match),
// stability, descending and integer keys, lines along an outer dimension, and an output
// nothing reads (private to its dispatch).
// RUN: kiln-check %s --device=cpu
// RUN: kiln-check %s --device=cpu-sync
// RUN: kiln-check %s --device=hip-sim

#id = affine_map<(d0) -> (d0)>

// 5000 keys in [-500, 512] with many repeats: ((i * 7919) mod 1013) - 500.
func.func private @keys(%n: index) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %k = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c7919 = arith.constant 7919 : index
    %c1013 = arith.constant 1013 : index
    %m = arith.muli %i, %c7919 : index
    %r = arith.remui %m, %c1013 : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    %c500 = arith.constant 500.0 : f32
    %v = arith.subf %f, %c500 : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  return %k : tensor<?xf32>
}

func.func private @iota(%n: index) -> tensor<?xi32> {
  %e = tensor.empty(%n) : tensor<?xi32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<?xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<?xi32>
  return %r : tensor<?xi32>
}

func.func @radix_matches_merge_sort() {
  %n0 = arith.constant 5000 : index
  %n = util.optimization_barrier %n0 : index
  %keys = call @keys(%n) : (index) -> tensor<?xf32>
  %iota = call @iota(%n) : (index) -> tensor<?xi32>
  %radix:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %iota : tensor<?xf32>, tensor<?xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<?xf32>, tensor<?xi32>
  %merge:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %iota : tensor<?xf32>, tensor<?xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    %true = arith.constant true
    %both = arith.andi %lt, %true : i1
    iree_linalg_ext.yield %both : i1
  } -> tensor<?xf32>, tensor<?xi32>
  check.expect_eq(%radix#0, %merge#0) : tensor<?xf32>
  check.expect_eq(%radix#1, %merge#1) : tensor<?xi32>
  // Sorted: every element at most its successor; the first is the smallest key, -500.
  %c0 = arith.constant 0 : index
  %first = tensor.extract %radix#0[%c0] : tensor<?xf32>
  %first_t = tensor.from_elements %first : tensor<1xf32>
  check.expect_eq_const(%first_t, dense<-500.0> : tensor<1xf32>) : tensor<1xf32>
  %c1 = arith.constant 1 : index
  %m = arith.subi %n, %c1 : index
  %lo = tensor.extract_slice %radix#0[0] [%m] [1] : tensor<?xf32> to tensor<?xf32>
  %hi = tensor.extract_slice %radix#0[1] [%m] [1] : tensor<?xf32> to tensor<?xf32>
  %e = tensor.empty(%m) : tensor<?xi8>
  %ordered = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%lo, %hi : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xi8>) {
  ^bb0(%a: f32, %b: f32, %out: i8):
    %le = arith.cmpf ole, %a, %b : f32
    %r = arith.extui %le : i1 to i8
    linalg.yield %r : i8
  } -> tensor<?xi8>
  check.expect_all_true(%ordered) : tensor<?xi8>
  return
}

// Equal keys keep their input order (indices ascending among equals), descending too.
func.func @stable_descending() {
  %keys = util.unfoldable_constant dense<[3, 1, 3, 2, 1, 3, -7]> : tensor<7xi32>
  %iota = util.unfoldable_constant dense<[0, 1, 2, 3, 4, 5, 6]> : tensor<7xi32>
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %iota : tensor<7xi32>, tensor<7xi32>) {
  ^bb0(%a: i32, %b: i32, %x: i32, %y: i32):
    %gt = arith.cmpi sgt, %a, %b : i32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<7xi32>, tensor<7xi32>
  check.expect_eq_const(%r#0, dense<[3, 3, 3, 2, 1, 1, -7]> : tensor<7xi32>) : tensor<7xi32>
  check.expect_eq_const(%r#1, dense<[0, 2, 5, 3, 1, 4, 6]> : tensor<7xi32>) : tensor<7xi32>
  return
}

// -0.0 and +0.0 are equal keys; NaN-free floats with negatives sort ascending.
func.func @float_keys_and_zeros() {
  %keys = util.unfoldable_constant dense<[0.0, -0.0, -1.5, 2.0, -0.0, -3.0e38, 1.0e-45]> : tensor<7xf32>
  %iota = util.unfoldable_constant dense<[0, 1, 2, 3, 4, 5, 6]> : tensor<7xi32>
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %iota : tensor<7xf32>, tensor<7xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<7xf32>, tensor<7xi32>
  check.expect_eq_const(%r#1, dense<[5, 2, 0, 1, 4, 6, 3]> : tensor<7xi32>) : tensor<7xi32>
  return
}

// Lines along dimension 0 of a [5, 3] tensor (strided), f16 keys.
func.func @sort_outer_dimension_f16() {
  %keys = util.unfoldable_constant dense<[[5.0, 1.0, 0.5], [4.0, 2.0, 0.25], [3.0, 3.0, 1.0],
                                          [2.0, 4.0, 0.75], [1.0, 5.0, -1.0]]> : tensor<5x3xf16>
  %r = iree_linalg_ext.sort dimension(0) outs(%keys : tensor<5x3xf16>) {
  ^bb0(%a: f16, %b: f16):
    %lt = arith.cmpf olt, %a, %b : f16
    iree_linalg_ext.yield %lt : i1
  } -> tensor<5x3xf16>
  check.expect_eq_const(%r, dense<[[1.0, 1.0, -1.0], [2.0, 2.0, 0.25], [3.0, 3.0, 0.5],
                                   [4.0, 4.0, 0.75], [5.0, 5.0, 1.0]]> : tensor<5x3xf16>) : tensor<5x3xf16>
  return
}

// Sort whose indices nothing reads: the values still come out sorted.
func.func @sort_indices_unused() {
  %keys = util.unfoldable_constant dense<[4.0, -1.0, 2.0, 8.0]> : tensor<4xf32>
  %iota = util.unfoldable_constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %iota : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<4xf32>, tensor<4xi32>
  check.expect_eq_const(%r#0, dense<[-1.0, 2.0, 4.0, 8.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// topk of rows of [64, ?] against a stable descending sort cut to k = 8; then the same
// topk with only values or only indices used.
func.func @topk_matches_sorted_prefix() {
  %n0 = arith.constant 64000 : index
  %n = util.optimization_barrier %n0 : index
  %flat = call @keys(%n) : (index) -> tensor<?xf32>
  %flat_static = tensor.cast %flat : tensor<?xf32> to tensor<64000xf32>
  %x = tensor.expand_shape %flat_static [[0, 1]] output_shape [64, 1000] : tensor<64000xf32> into tensor<64x1000xf32>
  %ie = tensor.empty() : tensor<64x1000xi32>
  %idx = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%ie : tensor<64x1000xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<64x1000xi32>
  %sorted:2 = iree_linalg_ext.sort dimension(1) outs(%x, %idx : tensor<64x1000xf32>, tensor<64x1000xi32>) {
  ^bb0(%a: f32, %b: f32, %p: i32, %q: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<64x1000xf32>, tensor<64x1000xi32>
  %want_v = tensor.extract_slice %sorted#0[0, 0] [64, 8] [1, 1] : tensor<64x1000xf32> to tensor<64x8xf32>
  %want_i = tensor.extract_slice %sorted#1[0, 0] [64, 8] [1, 1] : tensor<64x1000xi32> to tensor<64x8xi32>
  %minus_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<64x8xf32>
  %ei = tensor.empty() : tensor<64x8xi32>
  %v0 = linalg.fill ins(%minus_inf : f32) outs(%ev : tensor<64x8xf32>) -> tensor<64x8xf32>
  %i0 = linalg.fill ins(%zero : i32) outs(%ei : tensor<64x8xi32>) -> tensor<64x8xi32>
  %top:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<64x1000xf32>)
      outs(%v0, %i0 : tensor<64x8xf32>, tensor<64x8xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<64x8xf32>, tensor<64x8xi32>
  check.expect_eq(%top#0, %want_v) : tensor<64x8xf32>
  check.expect_eq(%top#1, %want_i) : tensor<64x8xi32>
  %values_only:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<64x1000xf32>)
      outs(%v0, %i0 : tensor<64x8xf32>, tensor<64x8xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<64x8xf32>, tensor<64x8xi32>
  check.expect_eq(%values_only#0, %want_v) : tensor<64x8xf32>
  %indices_only:2 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%x : tensor<64x1000xf32>)
      outs(%v0, %i0 : tensor<64x8xf32>, tensor<64x8xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<64x8xf32>, tensor<64x8xi32>
  // topk_v2 orders equal values in heap order: compare the values the indices point at.
  %picked = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%indices_only#1 : tensor<64x8xi32>) outs(%ev : tensor<64x8xf32>) {
  ^bb0(%i: i32, %out: f32):
    %row = linalg.index 0 : index
    %col = arith.index_cast %i : i32 to index
    %v = tensor.extract %x[%row, %col] : tensor<64x1000xf32>
    linalg.yield %v : f32
  } -> tensor<64x8xf32>
  check.expect_eq(%picked, %want_v) : tensor<64x8xf32>
  return
}
