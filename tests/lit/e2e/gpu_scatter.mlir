// iree_linalg_ext.scatter through the GPU's scatter strategy (kiln-gpu-tile-scatters) on
// hip-sim, against numpy references that apply the updates in batch order (the CPU's
// semantics): an overwrite with unique indices, an add with many collisions and a dynamic
// number of updates, an add of rows of 300 (slices shared by the work-items), max on i32
// (atomics), order-dependent combiners and an overwrite with repeated indices (the
// ordered path: points by one work-item per block, and slices crossing the workgroups'
// blocks shared by the work-items), masked points out of range, and
// a one_hot-style scatter into a fill with a dynamic token count; on gfx942 (wave64) and
// gfx1100 (wave32), two of them on gfx90a, and on the CPU for the same references.
// RUN: rm -rf %t && %python %S/Inputs/scatter_operands.py %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln --report=%t/report.txt --remarks 2> %t/remarks.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.txt
// RUN: FileCheck %s --check-prefix=REMARK < %t/remarks.txt
// The atomics are the chip's own instructions, not compare-and-swap loops (the bindings
// are device memory; LowerToRocdl says so): f32 adds and i32 max on gfx942.
// RUN: kiln-dump %t/gfx942.kiln --extract-executables=%t/gfx942
// RUN: llvm-objdump-22 -d --mcpu=gfx942 %t/gfx942/kiln_executable.gfx942.hsaco | FileCheck %s --check-prefix=ATOMICS
// ATOMICS-NOT: global_atomic_cmpswap
// ATOMICS-DAG: global_atomic_add_f32
// ATOMICS-DAG: global_atomic_smax
// ATOMICS-NOT: global_atomic_cmpswap
// RUN: kiln-compile --target=gfx1100 %s -o %t/gfx1100.kiln
// RUN: kiln-compile %s -o %t/cpu.kiln
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=overwrite_unique --input=@%t/unique_original.npy --input=@%t/unique_updates.npy --input=@%t/unique_indices.npy --expected_output=@%t/unique_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=add_collisions --input=@%t/add_original.npy --input=@%t/add_updates.npy --input=@%t/add_indices.npy --expected_output=@%t/add_result.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=add_wide_rows --input=@%t/wide_original.npy --input=@%t/wide_updates.npy --input=@%t/wide_indices.npy --expected_output=@%t/wide_result.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=max_i32 --input=@%t/max_original.npy --input=@%t/max_updates.npy --input=@%t/max_indices.npy --expected_output=@%t/max_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=halve_add --input=@%t/ordered_original.npy --input=@%t/ordered_updates.npy --input=@%t/ordered_indices.npy --expected_output=@%t/halve_add_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=triple_add --input=@%t/triple_original.npy --input=@%t/triple_updates.npy --input=@%t/triple_indices.npy --expected_output=@%t/triple_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=last_wins --input=@%t/ordered_original.npy --input=@%t/ordered_updates.npy --input=@%t/ordered_indices.npy --expected_output=@%t/last_wins_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=masked_points --input=@%t/masked_original.npy --input=@%t/masked_updates.npy --input=@%t/masked_indices.npy --input=@%t/masked_mask.npy --expected_output=@%t/masked_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=one_hot --input=@%t/one_hot_gates.npy --input=@%t/one_hot_coords.npy --expected_output=@%t/one_hot_result.npy --atol=0 --rtol=0
// Wave32 (gfx1100):
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=overwrite_unique --input=@%t/unique_original.npy --input=@%t/unique_updates.npy --input=@%t/unique_indices.npy --expected_output=@%t/unique_result.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=add_collisions --input=@%t/add_original.npy --input=@%t/add_updates.npy --input=@%t/add_indices.npy --expected_output=@%t/add_result.npy --atol=1e-4 --rtol=1e-5
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=add_wide_rows --input=@%t/wide_original.npy --input=@%t/wide_updates.npy --input=@%t/wide_indices.npy --expected_output=@%t/wide_result.npy --atol=1e-4 --rtol=1e-5
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=max_i32 --input=@%t/max_original.npy --input=@%t/max_updates.npy --input=@%t/max_indices.npy --expected_output=@%t/max_result.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=halve_add --input=@%t/ordered_original.npy --input=@%t/ordered_updates.npy --input=@%t/ordered_indices.npy --expected_output=@%t/halve_add_result.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=triple_add --input=@%t/triple_original.npy --input=@%t/triple_updates.npy --input=@%t/triple_indices.npy --expected_output=@%t/triple_result.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=last_wins --input=@%t/ordered_original.npy --input=@%t/ordered_updates.npy --input=@%t/ordered_indices.npy --expected_output=@%t/last_wins_result.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=masked_points --input=@%t/masked_original.npy --input=@%t/masked_updates.npy --input=@%t/masked_indices.npy --input=@%t/masked_mask.npy --expected_output=@%t/masked_result.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=one_hot --input=@%t/one_hot_gates.npy --input=@%t/one_hot_coords.npy --expected_output=@%t/one_hot_result.npy --atol=0 --rtol=0
// gfx90a (wave64, its own atomics): an atomic and an ordered scatter.
// RUN: kiln-compile --target=gfx90a %s -o %t/gfx90a.kiln
// RUN: env KILN_HSA_SIM_AGENTS=gfx90a kiln-run --module=%t/gfx90a.kiln --device=hip-sim --function=add_collisions --input=@%t/add_original.npy --input=@%t/add_updates.npy --input=@%t/add_indices.npy --expected_output=@%t/add_result.npy --atol=1e-4 --rtol=1e-5
// RUN: env KILN_HSA_SIM_AGENTS=gfx90a kiln-run --module=%t/gfx90a.kiln --device=hip-sim --function=halve_add --input=@%t/ordered_original.npy --input=@%t/ordered_updates.npy --input=@%t/ordered_indices.npy --expected_output=@%t/halve_add_result.npy --atol=0 --rtol=0
// The CPU computes the same (the references mean what the GPU path means).
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=overwrite_unique --input=@%t/unique_original.npy --input=@%t/unique_updates.npy --input=@%t/unique_indices.npy --expected_output=@%t/unique_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=add_collisions --input=@%t/add_original.npy --input=@%t/add_updates.npy --input=@%t/add_indices.npy --expected_output=@%t/add_result.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=add_wide_rows --input=@%t/wide_original.npy --input=@%t/wide_updates.npy --input=@%t/wide_indices.npy --expected_output=@%t/wide_result.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=max_i32 --input=@%t/max_original.npy --input=@%t/max_updates.npy --input=@%t/max_indices.npy --expected_output=@%t/max_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=halve_add --input=@%t/ordered_original.npy --input=@%t/ordered_updates.npy --input=@%t/ordered_indices.npy --expected_output=@%t/halve_add_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=triple_add --input=@%t/triple_original.npy --input=@%t/triple_updates.npy --input=@%t/triple_indices.npy --expected_output=@%t/triple_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=last_wins --input=@%t/ordered_original.npy --input=@%t/ordered_updates.npy --input=@%t/ordered_indices.npy --expected_output=@%t/last_wins_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=masked_points --input=@%t/masked_original.npy --input=@%t/masked_updates.npy --input=@%t/masked_indices.npy --input=@%t/masked_mask.npy --expected_output=@%t/masked_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=one_hot --input=@%t/one_hot_gates.npy --input=@%t/one_hot_coords.npy --expected_output=@%t/one_hot_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=overwrite_unique --input=@%t/unique_original.npy --input=@%t/unique_updates.npy --input=@%t/unique_indices.npy --expected_output=@%t/unique_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=add_collisions --input=@%t/add_original.npy --input=@%t/add_updates.npy --input=@%t/add_indices.npy --expected_output=@%t/add_result.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=add_wide_rows --input=@%t/wide_original.npy --input=@%t/wide_updates.npy --input=@%t/wide_indices.npy --expected_output=@%t/wide_result.npy --atol=1e-4 --rtol=1e-5
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=max_i32 --input=@%t/max_original.npy --input=@%t/max_updates.npy --input=@%t/max_indices.npy --expected_output=@%t/max_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=halve_add --input=@%t/ordered_original.npy --input=@%t/ordered_updates.npy --input=@%t/ordered_indices.npy --expected_output=@%t/halve_add_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=triple_add --input=@%t/triple_original.npy --input=@%t/triple_updates.npy --input=@%t/triple_indices.npy --expected_output=@%t/triple_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=last_wins --input=@%t/ordered_original.npy --input=@%t/ordered_updates.npy --input=@%t/ordered_indices.npy --expected_output=@%t/last_wins_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=masked_points --input=@%t/masked_original.npy --input=@%t/masked_updates.npy --input=@%t/masked_indices.npy --input=@%t/masked_mask.npy --expected_output=@%t/masked_result.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=one_hot --input=@%t/one_hot_gates.npy --input=@%t/one_hot_coords.npy --expected_output=@%t/one_hot_result.npy --atol=0 --rtol=0

// Every scatter is laid out by the strategy: 256 work-items, distributed, no LDS or scratch.
// REPORT-COUNT-9: _scatter: workgroup 256x1x1 (distributed), {{.*}} LDS 0 B, scratch 0 B
// The ordered combiners say why.
// REMARK-DAG: remark: dispatch 'halve_add_dispatch_{{[0-9]+}}_scatter' applies its scatter's updates in order, {{.*}}: its combiner is not one commutative operation
// REMARK-DAG: remark: dispatch 'triple_add_dispatch_{{[0-9]+}}_scatter' applies its scatter's updates in order, {{.*}}: its combiner is not one commutative operation
// REMARK-DAG: remark: dispatch 'last_wins_dispatch_{{[0-9]+}}_scatter' applies its scatter's updates in order, {{.*}}: it overwrites without unique_indices(true)
// REMARK-NOT: applies its scatter's updates in order

func.func @overwrite_unique(%original: tensor<2000x16xf32>, %updates: tensor<300x16xf32>, %indices: tensor<300x1xi32>)
    -> tensor<2000x16xf32> {
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true)
      ins(%updates, %indices : tensor<300x16xf32>, tensor<300x1xi32>) outs(%original : tensor<2000x16xf32>) {
  ^bb0(%u: f32, %o: f32):
    iree_linalg_ext.yield %u : f32
  } -> tensor<2000x16xf32>
  return %r : tensor<2000x16xf32>
}

func.func @add_collisions(%original: tensor<64x8xf32>, %updates: tensor<?x8xf32>, %indices: tensor<?x1xi32>)
    -> tensor<64x8xf32> {
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
      ins(%updates, %indices : tensor<?x8xf32>, tensor<?x1xi32>) outs(%original : tensor<64x8xf32>) {
  ^bb0(%u: f32, %o: f32):
    %s = arith.addf %o, %u : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<64x8xf32>
  return %r : tensor<64x8xf32>
}

func.func @add_wide_rows(%original: tensor<600x300xf32>, %updates: tensor<200x300xf32>, %indices: tensor<200x1xi32>)
    -> tensor<600x300xf32> {
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
      ins(%updates, %indices : tensor<200x300xf32>, tensor<200x1xi32>) outs(%original : tensor<600x300xf32>) {
  ^bb0(%u: f32, %o: f32):
    %s = arith.addf %u, %o : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<600x300xf32>
  return %r : tensor<600x300xf32>
}

func.func @max_i32(%original: tensor<7000xi32>, %updates: tensor<20000xi32>, %indices: tensor<20000x1xi32>)
    -> tensor<7000xi32> {
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
      ins(%updates, %indices : tensor<20000xi32>, tensor<20000x1xi32>) outs(%original : tensor<7000xi32>) {
  ^bb0(%u: i32, %o: i32):
    %m = arith.maxsi %u, %o : i32
    iree_linalg_ext.yield %m : i32
  } -> tensor<7000xi32>
  return %r : tensor<7000xi32>
}

// old * 3 + update on points: the order matters (one work-item per block applies them).
func.func @triple_add(%original: tensor<9000xi32>, %updates: tensor<4000xi32>, %indices: tensor<4000x1xi32>)
    -> tensor<9000xi32> {
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
      ins(%updates, %indices : tensor<4000xi32>, tensor<4000x1xi32>) outs(%original : tensor<9000xi32>) {
  ^bb0(%u: i32, %o: i32):
    %three = arith.constant 3 : i32
    %t = arith.muli %o, %three : i32
    %s = arith.addi %t, %u : i32
    iree_linalg_ext.yield %s : i32
  } -> tensor<9000xi32>
  return %r : tensor<9000xi32>
}

// old / 2 + update: neither commutative nor associative, so the order matters.
func.func @halve_add(%original: tensor<2000x8xf32>, %updates: tensor<400x20x8xf32>, %indices: tensor<400x1xi32>)
    -> tensor<2000x8xf32> {
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
      ins(%updates, %indices : tensor<400x20x8xf32>, tensor<400x1xi32>) outs(%original : tensor<2000x8xf32>) {
  ^bb0(%u: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %h = arith.mulf %o, %half : f32
    %s = arith.addf %h, %u : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<2000x8xf32>
  return %r : tensor<2000x8xf32>
}

func.func @last_wins(%original: tensor<2000x8xf32>, %updates: tensor<400x20x8xf32>, %indices: tensor<400x1xi32>)
    -> tensor<2000x8xf32> {
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
      ins(%updates, %indices : tensor<400x20x8xf32>, tensor<400x1xi32>) outs(%original : tensor<2000x8xf32>) {
  ^bb0(%u: f32, %o: f32):
    iree_linalg_ext.yield %u : f32
  } -> tensor<2000x8xf32>
  return %r : tensor<2000x8xf32>
}

func.func @masked_points(%original: tensor<300x40xi32>, %updates: tensor<3000xi32>, %indices: tensor<3000x2xi32>,
                         %mask: tensor<3000xi1>) -> tensor<300x40xi32> {
  %r = iree_linalg_ext.scatter dimension_map = [0, 1] unique_indices(false)
      ins(%updates, %indices, %mask : tensor<3000xi32>, tensor<3000x2xi32>, tensor<3000xi1>)
      outs(%original : tensor<300x40xi32>) {
  ^bb0(%u: i32, %o: i32):
    %s = arith.addi %u, %o : i32
    iree_linalg_ext.yield %s : i32
  } -> tensor<300x40xi32>
  return %r : tensor<300x40xi32>
}

// Each token's two gates at (token, expert) of [tokens, 4] zeros; tokens known at run time.
func.func @one_hot(%gates: tensor<?x2xf32>, %coords: tensor<?x2x2xi32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %t = tensor.dim %gates, %c0 : tensor<?x2xf32>
  %e = tensor.empty(%t) : tensor<?x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %r = iree_linalg_ext.scatter dimension_map = [0, 1] unique_indices(true)
      ins(%gates, %coords : tensor<?x2xf32>, tensor<?x2x2xi32>) outs(%z : tensor<?x4xf32>) {
  ^bb0(%u: f32, %o: f32):
    iree_linalg_ext.yield %u : f32
  } -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
