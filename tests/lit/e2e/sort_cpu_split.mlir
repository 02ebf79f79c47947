// Sorts that kiln-cpu-split-long-sorts splits into sorted runs and merge passes (every
// target a CPU), on cpu (2 workers: the runs and each merge's blocks shared out) and
// cpu-sync (1: one workgroup does all), exact against numpy's stable sorts: a dynamic
// length (run length from it at run time) at 1000003 (unequal runs, -0.0 beside +0.0), 1
// and 3 elements, and a two-key comparator (no radix path) at an odd static length.
// RUN: rm -rf %t && %python %S/Inputs/sort_cpu_split_operands.py %t
// RUN: kiln-compile --target=cpu %s -o %t/cpu.kiln
// RUN: kiln-compile --target=cpu %s --dump-ir-after=kiln-form-dispatches -o %t/unused.kiln 2>&1 | FileCheck %s
// RUN: for device in cpu cpu-sync; do \
// RUN:   run() { kiln-run --module=%t/cpu.kiln --device=$device --atol=0 --rtol=0 "$@" > /dev/null || exit 1; }; \
// RUN:   for n in odd one three; do \
// RUN:     run --function=dynamic_ascending --input=@%t/dynamic_$n.npy --expected_output=@%t/dynamic_${n}_keys.npy --expected_output=@%t/dynamic_${n}_indices.npy; \
// RUN:   done; \
// RUN:   run --function=pair --input=@%t/pair_first.npy --input=@%t/pair_second.npy --expected_output=@%t/pair_first_sorted.npy \
// RUN:       --expected_output=@%t/pair_second_sorted.npy --expected_output=@%t/pair_indices.npy; \
// RUN: done

// Both sorts become a runs dispatch and a merge dispatch.
// CHECK: iree_linalg_ext.sort {kiln.root, kiln.sort_run_count = 2 : i64}
// CHECK: iree_linalg_ext.sort {kiln.root, kiln.sort_merge = array<i64: 2, 1>}

#id = affine_map<(d0) -> (d0)>

func.func @dynamic_ascending(%keys: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %keys, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %indices = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<?xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    linalg.yield %ii : i32
  } -> tensor<?xi32>
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %indices : tensor<?xf32>, tensor<?xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %before = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %before : i1
  } -> tensor<?xf32>, tensor<?xi32>
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}

// First key ascending, second descending on equal first keys.
func.func @pair(%first: tensor<300007xi32>, %second: tensor<300007xf32>)
    -> (tensor<300007xi32>, tensor<300007xf32>, tensor<300007xi32>) {
  %e = tensor.empty() : tensor<300007xi32>
  %indices = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<300007xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    linalg.yield %ii : i32
  } -> tensor<300007xi32>
  %r:3 = iree_linalg_ext.sort dimension(0) outs(%first, %second, %indices : tensor<300007xi32>, tensor<300007xf32>, tensor<300007xi32>) {
  ^bb0(%a: i32, %b: i32, %x: f32, %y: f32, %p: i32, %q: i32):
    %lt = arith.cmpi slt, %a, %b : i32
    %eq = arith.cmpi eq, %a, %b : i32
    %gt = arith.cmpf ogt, %x, %y : f32
    %tie = arith.andi %eq, %gt : i1
    %before = arith.ori %lt, %tie : i1
    iree_linalg_ext.yield %before : i1
  } -> tensor<300007xi32>, tensor<300007xf32>, tensor<300007xi32>
  return %r#0, %r#1, %r#2 : tensor<300007xi32>, tensor<300007xf32>, tensor<300007xi32>
}
