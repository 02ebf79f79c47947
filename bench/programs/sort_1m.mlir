// 1M f32 sorted ascending with the permutation as i32 indices (kiln-bench-compiled;
// PyTorch anchor: torch.sort(x), which returns int64 indices).
func.func @sort(%x: tensor<1048576xf32>) -> (tensor<1048576xf32>, tensor<1048576xi32>) {
  %e = tensor.empty() : tensor<1048576xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e : tensor<1048576xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<1048576xi32>
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%x, %iota : tensor<1048576xf32>, tensor<1048576xi32>) {
  ^bb0(%a: f32, %b: f32, %ia: i32, %ib: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<1048576xf32>, tensor<1048576xi32>
  return %r#0, %r#1 : tensor<1048576xf32>, tensor<1048576xi32>
}

// The same sort by two keys (value, then the larger index first on equal values): not one
// plain comparison, so the merge sort (insertion-sorted runs of 16 and merges) instead of
// the radix sort. No PyTorch anchor (torch.sort has no comparator).
func.func @sort_by_two_keys(%x: tensor<1048576xf32>) -> (tensor<1048576xf32>, tensor<1048576xi32>) {
  %e = tensor.empty() : tensor<1048576xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e : tensor<1048576xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<1048576xi32>
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%x, %iota : tensor<1048576xf32>, tensor<1048576xi32>) {
  ^bb0(%a: f32, %b: f32, %ia: i32, %ib: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    %eq = arith.cmpf oeq, %a, %b : f32
    %later = arith.cmpi sgt, %ia, %ib : i32
    %tie = arith.andi %eq, %later : i1
    %before = arith.ori %lt, %tie : i1
    iree_linalg_ext.yield %before : i1
  } -> tensor<1048576xf32>, tensor<1048576xi32>
  return %r#0, %r#1 : tensor<1048576xf32>, tensor<1048576xi32>
}
