// Checked mode on the GPU (kiln-compile --target=gfx942 --check-indices) on hip-sim: a
// gather of 300 rows, one row per work-item, so row r runs in workgroup r / 64 on gfx942
// (wave64) and r / 32 on gfx1100 (wave32). The failing call names the index, its range and
// the op as on the CPU, with the GPU's workgroup; of several failing workgroups the one of
// lowest id is reported, as on the CPU; within one workgroup the work-items race for its
// record and one of them wins.
// RUN: rm -rf %t && %python %S/Inputs/gpu_checked_operands.py %t
// RUN: kiln-compile --target=gfx942 --check-indices %s -o %t/gfx942.kiln
// RUN: kiln-compile --target=gfx1100 --check-indices %s -o %t/gfx1100.kiln

// In range, checked mode changes nothing (numpy's reference), on the GPU and the CPU.
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=gather_rows --input=@%t/table.npy --input=@%t/rows.npy --expected_output=@%t/gathered.npy --atol=0 --rtol=0
// RUN: kiln-run --check_indices --module=%s --device=cpu --function=gather_rows --input=@%t/table.npy --input=@%t/rows.npy --expected_output=@%t/gathered.npy --atol=0 --rtol=0

// One bad index: the same report on both devices, each naming its own workgroup.
// RUN: not kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=gather_rows --input=@%t/table.npy --input=@%t/rows_bad_150.npy 2>&1 | FileCheck %s --check-prefixes=BAD150,GFX942-150
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 not kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=gather_rows --input=@%t/table.npy --input=@%t/rows_bad_150.npy 2>&1 | FileCheck %s --check-prefixes=BAD150,GFX1100-150
// RUN: not kiln-run --check_indices --module=%s --device=cpu --function=gather_rows --input=@%t/table.npy --input=@%t/rows_bad_150.npy 2>&1 | FileCheck %s --check-prefixes=BAD150,CPU-150
// BAD150: kiln-run: OUT_OF_RANGE: index 64 is out of range [0, 64) for the slice offset into dimension 0 of the source of iree_linalg_ext.gather ({{.*}}gpu_checked_indices.mlir:[[# @LINE + 34]]:8), in workgroup (
// GFX942-150-SAME: 2, 0, 0); in dispatch 'gather_rows_dispatch_0_generic' of executable 'kiln_executable'
// GFX942-150-SAME: on hip-sim:0
// GFX1100-150-SAME: 4, 0, 0); in dispatch 'gather_rows_dispatch_0_generic'
// CPU-150-SAME: in dispatch 'gather_rows_dispatch_0_generic'
// BAD150-SAME: while calling 'gather_rows'

// Bad indices in workgroups 1 and 2: workgroup 1's.
// RUN: not kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=gather_rows --input=@%t/table.npy --input=@%t/rows_bad_70_150.npy 2>&1 | FileCheck %s --check-prefix=LOWEST
// LOWEST: index -1 is out of range [0, 64) for the slice offset into dimension 0 of the source of iree_linalg_ext.gather ({{.*}}), in workgroup (1, 0, 0)

// Two bad indices in workgroup 1: either work-item's.
// RUN: not kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=gather_rows --input=@%t/table.npy --input=@%t/rows_bad_65_66.npy 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: index {{100|101}} is out of range [0, 64) for the slice offset into dimension 0 of the source of iree_linalg_ext.gather ({{.*}}), in workgroup (1, 0, 0)

// The claims are real atomics: a 64-bit compare-and-swap in the code object and a locked
// cmpxchg in the host twin; the kernel takes the records' pointer after the workgroup
// count (3 bindings, no constants: 24 + 12 bytes, then 8-aligned at 40).
// RUN: kiln-dump %t/gfx942.kiln --extract-executables=%t/ex
// RUN: llvm-objdump-22 -d %t/ex/kiln_executable.gfx942.hsaco | FileCheck %s --check-prefix=ISA
// ISA: global_atomic_cmpswap_x2
// RUN: llvm-readelf-22 --notes %t/ex/kiln_executable.gfx942.hsaco | FileCheck %s --check-prefix=KERNARG
// KERNARG: .kernarg_segment_size: 48
// RUN: llvm-objdump-22 -d %t/ex/kiln_executable.gfx942.twin.so | FileCheck %s --check-prefix=TWIN
// TWIN: lock
// TWIN-NEXT: cmpxchgq

// Unchecked, the same bad index is clamped.
// RUN: kiln-compile --target=gfx942 %s -o %t/unchecked.kiln
// RUN: %python -c "import numpy as np; t = np.load('%t/table.npy'); r = np.load('%t/rows_bad_150.npy'); np.save('%t/clamped.npy', t[np.clip(r, 0, 63)])"
// RUN: kiln-run --module=%t/unchecked.kiln --device=hip-sim --function=gather_rows --input=@%t/table.npy --input=@%t/rows_bad_150.npy --expected_output=@%t/clamped.npy --atol=0 --rtol=0

func.func @gather_rows(%table: tensor<64x8xf32>, %rows: tensor<300xi32>) -> tensor<300x8xf32> {
  %e = tensor.empty() : tensor<300x8xf32>
  %g = iree_linalg_ext.gather dimension_map = [0] ins(%table, %rows : tensor<64x8xf32>, tensor<300xi32>)
      outs(%e : tensor<300x8xf32>) -> tensor<300x8xf32>
  return %g : tensor<300x8xf32>
}
