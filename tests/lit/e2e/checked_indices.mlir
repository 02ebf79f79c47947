// Checked mode (kiln-run --check_indices, kiln-compile --check-indices): the first
// out-of-range gather or scatter index fails the call, naming the index, the range it had
// to be in, the op with its source location, the workgroup and the dispatch. Without the
// flag the same calls succeed with the defined behaviour (gather clamps, scatter skips).

// In range, checked mode changes nothing.
// RUN: kiln-run --check_indices --module=%s --device=cpu --function=gather_rows --input=4x3xf32=0,1,2,10,11,12,20,21,22,30,31,32 --input=2xi32=3,1 --expected_output=2x3xf32=30,31,32,10,11,12
// RUN: kiln-run --check_indices --module=%s --device=cpu-sync --function=scatter_add --input=4xf32=1,2,3,4 --input=3x1xi32=0,3,0 --expected_output=4xf32=3,2,3,6

// Out of range: unchecked, gather clamps row 7 to row 3 and -1 to row 0.
// RUN: kiln-run --module=%s --device=cpu --function=gather_rows --input=4x3xf32=0,1,2,10,11,12,20,21,22,30,31,32 --input=2xi32=7,-1 --expected_output=2x3xf32=30,31,32,0,1,2
// Checked, the first bad index in loop order is reported, on both drivers.
// RUN: not kiln-run --check_indices --module=%s --device=cpu --function=gather_rows --input=4x3xf32=0,1,2,10,11,12,20,21,22,30,31,32 --input=2xi32=1,7 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not kiln-run --check_indices --module=%s --device=cpu-sync --function=gather_rows --input=4x3xf32=0,1,2,10,11,12,20,21,22,30,31,32 --input=2xi32=-2,7 2>&1 | FileCheck %s --check-prefix=GATHER-NEG
// GATHER: kiln-run: OUT_OF_RANGE: index 7 is out of range [0, 4) for the slice offset into dimension 0 of the source of iree_linalg_ext.gather ({{.*}}checked_indices.mlir:{{[0-9]+}}:{{[0-9]+}}), in workgroup ({{[0-9, ]+}})
// GATHER-SAME: in dispatch 'gather_rows{{[^']*}}'
// GATHER-SAME: while calling 'gather_rows'
// GATHER-NEG: index -2 is out of range [0, 4) for the slice offset into dimension 0 of the source of iree_linalg_ext.gather

// A masked-out position is never reported: the mask hides the bad index 9.
// RUN: kiln-run --check_indices --module=%s --device=cpu --function=masked_gather --input=4xf32=5,6,7,8 --input=3xi32=2,9,0 --input=3xi1=1,0,1 --expected_output=3xf32=7,-1,5

// Scatter: unchecked, the slice at 4 is skipped; checked, it is reported.
// RUN: kiln-run --module=%s --device=cpu --function=scatter_add --input=4xf32=1,2,3,4 --input=3x1xi32=0,4,2 --expected_output=4xf32=2,2,4,4
// RUN: not kiln-run --check_indices --module=%s --device=cpu --function=scatter_add --input=4xf32=1,2,3,4 --input=3x1xi32=0,4,-3 2>&1 | FileCheck %s --check-prefix=SCATTER
// SCATTER: OUT_OF_RANGE: index 4 is out of range [0, 4) for the slice offset into dimension 0 of the original of iree_linalg_ext.scatter ({{.*}}checked_indices.mlir:{{[0-9]+}}:{{[0-9]+}}), in workgroup ({{[0-9, ]+}})
// SCATTER-SAME: in dispatch 'scatter_add

// Scatter with a mask and rows of 2: a masked-out bad index is ignored, offset 3 of a
// 2-row window in 4 rows is reported (it fits at offsets [0, 3)).
// RUN: kiln-run --check_indices --module=%s --device=cpu --function=masked_window_scatter --input=4x2xf32=0,0,0,0,0,0,0,0 --input=2x1xi32=9,2 --input=2xi1=0,1 --expected_output=4x2xf32=0,0,0,0,3,4,5,6
// RUN: not kiln-run --check_indices --module=%s --device=cpu-sync --function=masked_window_scatter --input=4x2xf32=0,0,0,0,0,0,0,0 --input=2x1xi32=9,3 --input=2xi1=0,1 2>&1 | FileCheck %s --check-prefix=SCATTER-WINDOW
// SCATTER-WINDOW: index 3 is out of range [0, 3) for the slice offset into dimension 0 of the original of iree_linalg_ext.scatter

// A row window of 2 fits at offsets [0, 3) of 4 rows.
// RUN: not kiln-run --check_indices --module=%s --device=cpu --function=gather_windows --input=4x2xf32=0,1,2,3,4,5,6,7 --input=2x1xi32=2,3 2>&1 | FileCheck %s --check-prefix=WINDOW
// WINDOW: index 3 is out of range [0, 3) for the slice offset into dimension 0 of the source of iree_linalg_ext.gather

// tensor.extract in a generic (an embedding lookup) and tosa.gather, which lowers to one:
// checked and clamped in checked mode; in range, unchanged.
// RUN: kiln-run --check_indices --module=%s --device=cpu --function=embedding --input=3x2xf32=0,1,10,11,20,21 --input=2xi64=2,0 --expected_output=2x2xf32=20,21,0,1
// RUN: not kiln-run --check_indices --module=%s --device=cpu --function=embedding --input=3x2xf32=0,1,10,11,20,21 --input=2xi64=2,3 2>&1 | FileCheck %s --check-prefix=EXTRACT
// EXTRACT: index 3 is out of range [0, 3) for dimension 0 of the tensor of tensor.extract ({{.*}}checked_indices.mlir:{{[0-9]+}}:{{[0-9]+}})
// RUN: kiln-run --check_indices --module=%s --device=cpu-sync --function=tosa_gather --input=1x3x2xf32=0,1,10,11,20,21 --input=1x2xi32=1,2 --expected_output=1x2x2xf32=10,11,20,21
// RUN: not kiln-run --check_indices --module=%s --device=cpu-sync --function=tosa_gather --input=1x3x2xf32=0,1,10,11,20,21 --input=1x2xi32=1,-4 2>&1 | FileCheck %s --check-prefix=TOSA
// TOSA: index -4 is out of range [0, 3) for dimension 1 of the tensor of tensor.extract

// The same on the GPU (hip-sim compiles for gfx942; gpu_checked_indices.mlir checks the
// workgroups): in range unchanged, masked-out indices ignored, the same reports.
// RUN: kiln-run --check_indices --module=%s --device=hip-sim --function=gather_rows --input=4x3xf32=0,1,2,10,11,12,20,21,22,30,31,32 --input=2xi32=3,1 --expected_output=2x3xf32=30,31,32,10,11,12
// RUN: not kiln-run --check_indices --module=%s --device=hip-sim --function=gather_rows --input=4x3xf32=0,1,2,10,11,12,20,21,22,30,31,32 --input=2xi32=1,7 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: kiln-run --check_indices --module=%s --device=hip-sim --function=masked_gather --input=4xf32=5,6,7,8 --input=3xi32=2,9,0 --input=3xi1=1,0,1 --expected_output=3xf32=7,-1,5
// RUN: kiln-run --check_indices --module=%s --device=hip-sim --function=scatter_add --input=4xf32=1,2,3,4 --input=3x1xi32=0,3,0 --expected_output=4xf32=3,2,3,6
// RUN: not kiln-run --check_indices --module=%s --device=hip-sim --function=scatter_add --input=4xf32=1,2,3,4 --input=3x1xi32=0,4,-3 2>&1 | FileCheck %s --check-prefix=SCATTER
// Updates read from a binding: the GPU's parallel scatter strategy checks them too.
// RUN: kiln-run --check_indices --module=%s --device=hip-sim --function=scatter_add_updates --input=4xf32=1,2,3,4 --input=3xf32=1,2,1 --input=3x1xi32=0,3,0 --expected_output=4xf32=3,2,3,6
// RUN: not kiln-run --check_indices --module=%s --device=hip-sim --function=scatter_add_updates --input=4xf32=1,2,3,4 --input=3xf32=1,2,1 --input=3x1xi32=0,4,-3 2>&1 | FileCheck %s --check-prefix=SCATTER
// RUN: not kiln-run --check_indices --module=%s --device=cpu --function=scatter_add_updates --input=4xf32=1,2,3,4 --input=3xf32=1,2,1 --input=3x1xi32=0,4,-3 2>&1 | FileCheck %s --check-prefix=SCATTER
// RUN: kiln-run --check_indices --module=%s --device=hip-sim --function=masked_window_scatter --input=4x2xf32=0,0,0,0,0,0,0,0 --input=2x1xi32=9,2 --input=2xi1=0,1 --expected_output=4x2xf32=0,0,0,0,3,4,5,6
// RUN: not kiln-run --check_indices --module=%s --device=hip-sim --function=embedding --input=3x2xf32=0,1,10,11,20,21 --input=2xi64=2,3 2>&1 | FileCheck %s --check-prefix=EXTRACT
// RUN: not kiln-run --check_indices --module=%s --device=hip-sim --function=tosa_gather --input=1x3x2xf32=0,1,10,11,20,21 --input=1x2xi32=1,-4 2>&1 | FileCheck %s --check-prefix=TOSA

// Compiled modules carry their checks; kiln-run refuses to add them to a .kiln file.
// RUN: kiln-compile --check-indices %s -o %t.kiln
// RUN: not kiln-run --module=%t.kiln --device=cpu --function=gather_rows --input=4x3xf32=0,1,2,10,11,12,20,21,22,30,31,32 --input=2xi32=1,7 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not kiln-run --check_indices --module=%t.kiln --function=gather_rows 2>&1 | FileCheck %s --check-prefix=KILN
// KILN: '{{.*}}.kiln' is a compiled module; pass its .mlir source, or compile it with kiln-compile --check-indices

func.func @gather_rows(%table: tensor<4x3xf32>, %rows: tensor<2xi32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %g = iree_linalg_ext.gather dimension_map = [0] ins(%table, %rows : tensor<4x3xf32>, tensor<2xi32>)
      outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %g : tensor<2x3xf32>
}

func.func @masked_gather(%values: tensor<4xf32>, %at: tensor<3xi32>, %mask: tensor<3xi1>) -> tensor<3xf32> {
  %minus_one = arith.constant -1.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%minus_one : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %g = iree_linalg_ext.gather dimension_map = [0] ins(%values, %at, %mask : tensor<4xf32>, tensor<3xi32>, tensor<3xi1>)
      outs(%f : tensor<3xf32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

func.func @gather_windows(%table: tensor<4x2xf32>, %rows: tensor<2x1xi32>) -> tensor<2x2x2xf32> {
  %e = tensor.empty() : tensor<2x2x2xf32>
  %g = iree_linalg_ext.gather dimension_map = [0] ins(%table, %rows : tensor<4x2xf32>, tensor<2x1xi32>)
      outs(%e : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  return %g : tensor<2x2x2xf32>
}

func.func @scatter_add(%original: tensor<4xf32>, %at: tensor<3x1xi32>) -> tensor<4xf32> {
  %updates = arith.constant dense<[1.0, 2.0, 1.0]> : tensor<3xf32>
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
      ins(%updates, %at : tensor<3xf32>, tensor<3x1xi32>) outs(%original : tensor<4xf32>) {
  ^bb0(%u: f32, %o: f32):
    %s = arith.addf %u, %o : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @scatter_add_updates(%original: tensor<4xf32>, %updates: tensor<3xf32>, %at: tensor<3x1xi32>) -> tensor<4xf32> {
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
      ins(%updates, %at : tensor<3xf32>, tensor<3x1xi32>) outs(%original : tensor<4xf32>) {
  ^bb0(%u: f32, %o: f32):
    %s = arith.addf %u, %o : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @embedding(%table: tensor<3x2xf32>, %ids: tensor<2xi64>) -> tensor<2x2xf32> {
  %e = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<2xi64>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<3x2xf32>
    linalg.yield %v : f32
  } -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @tosa_gather(%values: tensor<1x3x2xf32>, %ids: tensor<1x2xi32>) -> tensor<1x2x2xf32> {
  %r = tosa.gather %values, %ids : (tensor<1x3x2xf32>, tensor<1x2xi32>) -> tensor<1x2x2xf32>
  return %r : tensor<1x2x2xf32>
}

func.func @masked_window_scatter(%original: tensor<4x2xf32>, %at: tensor<2x1xi32>, %mask: tensor<2xi1>) -> tensor<4x2xf32> {
  %updates = arith.constant dense<[[[9.0, 9.0], [9.0, 9.0]], [[3.0, 4.0], [5.0, 6.0]]]> : tensor<2x2x2xf32>
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true)
      ins(%updates, %at, %mask : tensor<2x2x2xf32>, tensor<2x1xi32>, tensor<2xi1>) outs(%original : tensor<4x2xf32>) {
  ^bb0(%u: f32, %o: f32):
    iree_linalg_ext.yield %u : f32
  } -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
