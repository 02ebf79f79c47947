// iree_linalg_ext.sort through the GPU's sort strategy (kiln-gpu-tile-sorts) on hip-sim,
// against numpy's stable sort: keys with ties in lines that fit in LDS (the stable
// order, indices computed in the dispatch), ascending and descending, a line length
// known only at run time (longer lines are sorted runs and merge passes: gpu_sort_long.mlir
// covers them), and lines of one element; on gfx942 (wave64) and gfx1100 (wave32).
// RUN: rm -rf %t && %python %S/Inputs/sort_operands.py %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln --report=%t/report.txt --remarks 2> %t/remarks.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.txt
// RUN: FileCheck %s --allow-empty --check-prefix=REMARK < %t/remarks.txt
// RUN: kiln-compile --target=gfx1100 %s -o %t/gfx1100.kiln
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=ascending --input=@%t/short.npy --expected_output=@%t/short_ascending_keys.npy --expected_output=@%t/short_ascending_indices.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=descending --input=@%t/short.npy --expected_output=@%t/short_descending_keys.npy --expected_output=@%t/short_descending_indices.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=dynamic_ascending --input=@%t/short.npy --expected_output=@%t/short_ascending_keys.npy --expected_output=@%t/short_ascending_indices.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=dynamic_ascending --input=@%t/long.npy --expected_output=@%t/long_ascending_keys.npy --expected_output=@%t/long_ascending_indices.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=dynamic_ascending --input=@%t/tiny.npy --expected_output=@%t/tiny_keys.npy --expected_output=@%t/tiny_indices.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=ascending --input=@%t/short.npy --expected_output=@%t/short_ascending_keys.npy --expected_output=@%t/short_ascending_indices.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=dynamic_ascending --input=@%t/long.npy --expected_output=@%t/long_ascending_keys.npy --expected_output=@%t/long_ascending_indices.npy --atol=0 --rtol=0
// topk through the same strategy (its k initial candidates, then the line, sorted in LDS),
// with both outputs, and with the indices output unused (never written to global memory).
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=top8 --input=@%t/short.npy --expected_output=@%t/top8_values.npy --expected_output=@%t/top8_indices.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=top8_values_only --input=@%t/short.npy --expected_output=@%t/top8_values.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=top8 --input=@%t/short.npy --expected_output=@%t/top8_values.npy --expected_output=@%t/top8_indices.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%s --device=cpu --function=top8 --input=@%t/short.npy --expected_output=@%t/top8_values.npy --expected_output=@%t/top8_indices.npy --atol=0 --rtol=0
// The CPU computes the same (one check that the references mean what the GPU path means).
// RUN: kiln-run --module=%s --device=cpu --function=descending --input=@%t/short.npy --expected_output=@%t/short_descending_keys.npy --expected_output=@%t/short_descending_indices.npy --atol=0 --rtol=0

// The sort kernels: 256 work-items, lines in LDS, no scratch.
// REPORT: ascending_dispatch_{{[0-9]+}}_sort: workgroup 256x1x1 {{.*}} LDS 12000 B, scratch 0 B
// REPORT: descending_dispatch_{{[0-9]+}}_sort: workgroup 256x1x1 {{.*}} LDS 12000 B, scratch 0 B
// REPORT: dynamic_ascending_dispatch_{{[0-9]+}}_sort: workgroup 256x1x1 {{.*}} scratch 0 B
// REPORT: top8_dispatch_{{[0-9]+}}_topk: workgroup 256x1x1 {{.*}} LDS 12096 B, scratch 0 B
// REPORT: top8_values_only_dispatch_{{[0-9]+}}_topk: workgroup 256x1x1 {{.*}} LDS 8064 B, scratch 0 B
// With the GPU the only target, no line is sorted in place (without positions).
// REMARK-NOT: sorts lines longer than

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @ascending(%keys: tensor<7x1000xf32>) -> (tensor<7x1000xf32>, tensor<7x1000xi32>) {
  %e = tensor.empty() : tensor<7x1000xi32>
  %indices = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<7x1000xi32>) {
  ^bb0(%out: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    linalg.yield %ji : i32
  } -> tensor<7x1000xi32>
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%keys, %indices : tensor<7x1000xf32>, tensor<7x1000xi32>) {
  ^bb0(%a: f32, %b: f32, %i: i32, %j: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<7x1000xf32>, tensor<7x1000xi32>
  return %r#0, %r#1 : tensor<7x1000xf32>, tensor<7x1000xi32>
}

func.func @descending(%keys: tensor<7x1000xf32>) -> (tensor<7x1000xf32>, tensor<7x1000xi32>) {
  %e = tensor.empty() : tensor<7x1000xi32>
  %indices = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<7x1000xi32>) {
  ^bb0(%out: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    linalg.yield %ji : i32
  } -> tensor<7x1000xi32>
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%keys, %indices : tensor<7x1000xf32>, tensor<7x1000xi32>) {
  ^bb0(%a: f32, %b: f32, %i: i32, %j: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<7x1000xf32>, tensor<7x1000xi32>
  return %r#0, %r#1 : tensor<7x1000xf32>, tensor<7x1000xi32>
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

func.func @top8(%x: tensor<7x1000xf32>) -> (tensor<7x8xf32>, tensor<7x8xi32>) {
  %minus_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<7x8xf32>
  %ei = tensor.empty() : tensor<7x8xi32>
  %v = linalg.fill ins(%minus_inf : f32) outs(%ev : tensor<7x8xf32>) -> tensor<7x8xf32>
  %i = linalg.fill ins(%zero : i32) outs(%ei : tensor<7x8xi32>) -> tensor<7x8xi32>
  %r:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<7x1000xf32>) outs(%v, %i : tensor<7x8xf32>, tensor<7x8xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<7x8xf32>, tensor<7x8xi32>
  return %r#0, %r#1 : tensor<7x8xf32>, tensor<7x8xi32>
}

func.func @top8_values_only(%x: tensor<7x1000xf32>) -> tensor<7x8xf32> {
  %minus_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<7x8xf32>
  %ei = tensor.empty() : tensor<7x8xi32>
  %v = linalg.fill ins(%minus_inf : f32) outs(%ev : tensor<7x8xf32>) -> tensor<7x8xf32>
  %i = linalg.fill ins(%zero : i32) outs(%ei : tensor<7x8xi32>) -> tensor<7x8xi32>
  %r:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<7x1000xf32>) outs(%v, %i : tensor<7x8xf32>, tensor<7x8xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<7x8xf32>, tensor<7x8xi32>
  return %r#0 : tensor<7x8xf32>
}
