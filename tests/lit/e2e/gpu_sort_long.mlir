// iree_linalg_ext.sort with lines longer than one workgroup sorts in LDS, on hip-sim:
// sorted runs, then merge passes across workgroups (kiln-gpu-split-long-sorts), against
// numpy's stable sorts (ties keep their order): two lines of 20000 ascending and
// descending, an odd length (100003), the sorted dimension outermost, one line of 1M, a
// line length known only at run time (lines of 1, one run, one run and one element, and
// the lengths above), and a comparator over two keys with a payload; on gfx942 and
// gfx1100. The CPU (cpu and cpu-sync) computes the same from the same file.
// RUN: rm -rf %t && %python %S/Inputs/sort_long_operands.py %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln --report=%t/report.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.txt
// RUN: kiln-compile --target=cpu %s -o %t/cpu.kiln
// RUN: for device in hip-sim cpu cpu-sync; do \
// RUN:   module=%t/gfx942.kiln; if [ $device != hip-sim ]; then module=%t/cpu.kiln; fi; \
// RUN:   run() { kiln-run --module=$module --device=$device --atol=0 --rtol=0 "$@" > /dev/null || exit 1; }; \
// RUN:   run --function=two_ascending --input=@%t/two.npy --expected_output=@%t/two_ascending_keys.npy --expected_output=@%t/two_ascending_indices.npy; \
// RUN:   run --function=two_descending --input=@%t/two.npy --expected_output=@%t/two_descending_keys.npy --expected_output=@%t/two_descending_indices.npy; \
// RUN:   run --function=odd_descending --input=@%t/odd.npy --expected_output=@%t/odd_descending_keys.npy --expected_output=@%t/odd_descending_indices.npy; \
// RUN:   run --function=columns --input=@%t/columns.npy --expected_output=@%t/columns_ascending_keys.npy --expected_output=@%t/columns_ascending_indices.npy; \
// RUN:   run --function=million --input=@%t/million.npy --expected_output=@%t/million_ascending_keys.npy --expected_output=@%t/million_ascending_indices.npy; \
// RUN:   run --function=lexicographic --input=@%t/major.npy --input=@%t/minor.npy --expected_output=@%t/lex_major.npy --expected_output=@%t/lex_minor.npy --expected_output=@%t/lex_indices.npy; \
// RUN:   for line in two odd line1 line4096 line4097; do \
// RUN:     run --function=dynamic_ascending --input=@%t/$line.npy --expected_output=@%t/${line}_ascending_keys.npy --expected_output=@%t/${line}_ascending_indices.npy; \
// RUN:   done; \
// RUN: done
// The same kernels for wave32 (gfx1100): the runs' workgroups are 256 work-items there too.
// RUN: kiln-compile --target=gfx1100 %s -o %t/gfx1100.kiln
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=odd_descending --input=@%t/odd.npy --expected_output=@%t/odd_descending_keys.npy --expected_output=@%t/odd_descending_indices.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=dynamic_ascending --input=@%t/two.npy --expected_output=@%t/two_ascending_keys.npy --expected_output=@%t/two_ascending_indices.npy --atol=0 --rtol=0

// Each sort: one dispatch of runs (256 work-items, a run of 4096 f32 and i32 in LDS), and
// merge passes (the generic path, one element per work-item), log2(runs) of them.
// REPORT-DAG: two_ascending_dispatch_{{[0-9]+}}_sort: workgroup 256x1x1 {{.*}} LDS 49152 B, scratch 0 B
// REPORT-DAG: two_ascending_dispatch_{{[0-9]+}}_generic: workgroup 64x1x1 (distributed){{.*}} scratch 0 B
// REPORT-DAG: million_dispatch_{{[0-9]+}}_sort: workgroup 256x1x1 {{.*}} LDS 49152 B, scratch 0 B
// REPORT-DAG: million_dispatch_{{[0-9]+}}_generic: workgroup 64x1x1 (distributed){{.*}} scratch 0 B
// REPORT-DAG: dynamic_ascending_dispatch_{{[0-9]+}}_sort: workgroup 256x1x1 {{.*}} LDS 49152 B, scratch 0 B

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @two_ascending(%keys: tensor<2x20000xf32>) -> (tensor<2x20000xf32>, tensor<2x20000xi32>) {
  %e = tensor.empty() : tensor<2x20000xi32>
  %indices = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x20000xi32>) {
  ^bb0(%out: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    linalg.yield %ji : i32
  } -> tensor<2x20000xi32>
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%keys, %indices : tensor<2x20000xf32>, tensor<2x20000xi32>) {
  ^bb0(%a: f32, %b: f32, %i: i32, %j: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<2x20000xf32>, tensor<2x20000xi32>
  return %r#0, %r#1 : tensor<2x20000xf32>, tensor<2x20000xi32>
}

func.func @two_descending(%keys: tensor<2x20000xf32>) -> (tensor<2x20000xf32>, tensor<2x20000xi32>) {
  %e = tensor.empty() : tensor<2x20000xi32>
  %indices = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x20000xi32>) {
  ^bb0(%out: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    linalg.yield %ji : i32
  } -> tensor<2x20000xi32>
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%keys, %indices : tensor<2x20000xf32>, tensor<2x20000xi32>) {
  ^bb0(%a: f32, %b: f32, %i: i32, %j: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x20000xf32>, tensor<2x20000xi32>
  return %r#0, %r#1 : tensor<2x20000xf32>, tensor<2x20000xi32>
}

func.func @odd_descending(%keys: tensor<2x100003xf32>) -> (tensor<2x100003xf32>, tensor<2x100003xi32>) {
  %e = tensor.empty() : tensor<2x100003xi32>
  %indices = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x100003xi32>) {
  ^bb0(%out: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    linalg.yield %ji : i32
  } -> tensor<2x100003xi32>
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%keys, %indices : tensor<2x100003xf32>, tensor<2x100003xi32>) {
  ^bb0(%a: f32, %b: f32, %i: i32, %j: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<2x100003xf32>, tensor<2x100003xi32>
  return %r#0, %r#1 : tensor<2x100003xf32>, tensor<2x100003xi32>
}

func.func @columns(%keys: tensor<20000x3xf32>) -> (tensor<20000x3xf32>, tensor<20000x3xi32>) {
  %e = tensor.empty() : tensor<20000x3xi32>
  %indices = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<20000x3xi32>) {
  ^bb0(%out: i32):
    %j = linalg.index 0 : index
    %ji = arith.index_cast %j : index to i32
    linalg.yield %ji : i32
  } -> tensor<20000x3xi32>
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %indices : tensor<20000x3xf32>, tensor<20000x3xi32>) {
  ^bb0(%a: f32, %b: f32, %i: i32, %j: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<20000x3xf32>, tensor<20000x3xi32>
  return %r#0, %r#1 : tensor<20000x3xf32>, tensor<20000x3xi32>
}

func.func @million(%keys: tensor<1048576xf32>) -> (tensor<1048576xf32>, tensor<1048576xi32>) {
  %e = tensor.empty() : tensor<1048576xi32>
  %indices = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<1048576xi32>) {
  ^bb0(%out: i32):
    %j = linalg.index 0 : index
    %ji = arith.index_cast %j : index to i32
    linalg.yield %ji : i32
  } -> tensor<1048576xi32>
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %indices : tensor<1048576xf32>, tensor<1048576xi32>) {
  ^bb0(%a: f32, %b: f32, %i: i32, %j: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<1048576xf32>, tensor<1048576xi32>
  return %r#0, %r#1 : tensor<1048576xf32>, tensor<1048576xi32>
}

func.func @dynamic_ascending(%keys: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n0 = tensor.dim %keys, %c0 : tensor<?x?xf32>
  %n1 = tensor.dim %keys, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n0, %n1) : tensor<?x?xi32>
  %indices = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x?xi32>) {
  ^bb0(%out: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    linalg.yield %ji : i32
  } -> tensor<?x?xi32>
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%keys, %indices : tensor<?x?xf32>, tensor<?x?xi32>) {
  ^bb0(%a: f32, %b: f32, %i: i32, %j: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<?x?xf32>, tensor<?x?xi32>
  return %r#0, %r#1 : tensor<?x?xf32>, tensor<?x?xi32>
}

// Ascending on the first key, descending on the second where the first ties.
func.func @lexicographic(%major: tensor<2x30001xi32>, %minor: tensor<2x30001xf32>)
    -> (tensor<2x30001xi32>, tensor<2x30001xf32>, tensor<2x30001xi32>) {
  %e = tensor.empty() : tensor<2x30001xi32>
  %indices = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x30001xi32>) {
  ^bb0(%out: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    linalg.yield %ji : i32
  } -> tensor<2x30001xi32>
  %r:3 = iree_linalg_ext.sort dimension(1) outs(%major, %minor, %indices : tensor<2x30001xi32>, tensor<2x30001xf32>, tensor<2x30001xi32>) {
  ^bb0(%a: i32, %b: i32, %x: f32, %y: f32, %i: i32, %j: i32):
    %lt = arith.cmpi slt, %a, %b : i32
    %eq = arith.cmpi eq, %a, %b : i32
    %gt = arith.cmpf ogt, %x, %y : f32
    %tie = arith.andi %eq, %gt : i1
    %before = arith.ori %lt, %tie : i1
    iree_linalg_ext.yield %before : i1
  } -> tensor<2x30001xi32>, tensor<2x30001xf32>, tensor<2x30001xi32>
  return %r#0, %r#1, %r#2 : tensor<2x30001xi32>, tensor<2x30001xf32>, tensor<2x30001xi32>
}
