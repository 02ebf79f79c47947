// A KV-cache append written in place (kiln-form-dispatches, InPlaceUpdates.h) on cpu,
// cpu-sync and hip-sim: the dispatch binds the row and the cache only (no second cache),
// moves the row's bytes, and a read after the store sees the row. The same with a
// scatter whose combiner adds to what the global holds (its initial value, read in place).
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-dump %t.kiln | FileCheck %s --check-prefix=DUMP
// RUN: kiln-dump %t.gpu.kiln | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: append_and_read_dispatch_{{[0-9]+}}_insert_slice: 2 bindings, {{.*}} written 32
// DUMP-DAG: add_rows_dispatch_{{[0-9]+}}_scatter: 3 bindings, {{.*}} written 16
// RUN: kiln-run --module=%t.kiln --device=cpu --function=add_rows --input=2x2xf32=1,2,3,4 --input=2x1xi32=1,3 | FileCheck %s --check-prefix=SCATTER
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=add_rows --input=2x2xf32=1,2,3,4 --input=2x1xi32=1,3 | FileCheck %s --check-prefix=SCATTER
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=add_rows --input=2x2xf32=1,2,3,4 --input=2x1xi32=1,3 | FileCheck %s --check-prefix=SCATTER
// SCATTER: 4x2xf32=[10 10][11 12][10 10][13 14]
// RUN: kiln-run --module=%t.kiln --device=cpu --function=append_and_read --input=2x1x4xf32=1,2,3,4,5,6,7,8 --input=2 | FileCheck %s
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=append_and_read --input=2x1x4xf32=1,2,3,4,5,6,7,8 --input=2 | FileCheck %s
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=append_and_read --input=2x1x4xf32=1,2,3,4,5,6,7,8 --input=2 | FileCheck %s
// CHECK: 2x4x4xf32={{\[}}[0 0 0 0][0 0 0 0][2 4 6 8][0 0 0 0]]{{\[}}[0 0 0 0][0 0 0 0][10 12 14 16][0 0 0 0]]

util.global private mutable @cache = dense<0.0> : tensor<2x4x4xf32>

// Appends `rows` at `pos`; returns twice the cache (a copy computed from the new value).
util.func public @append_and_read(%rows: tensor<2x1x4xf32>, %pos: index) -> tensor<2x4x4xf32> {
  %c = util.global.load @cache : tensor<2x4x4xf32>
  %u = tensor.insert_slice %rows into %c[0, %pos, 0] [2, 1, 4] [1, 1, 1] : tensor<2x1x4xf32> into tensor<2x4x4xf32>
  util.global.store %u, @cache : tensor<2x4x4xf32>
  %n = util.global.load @cache : tensor<2x4x4xf32>
  %r = arith.addf %n, %n : tensor<2x4x4xf32>
  util.return %r : tensor<2x4x4xf32>
}

util.global private mutable @table = dense<10.0> : tensor<4x2xf32>

// Adds `rows` to the rows `indices` of the table; returns the table (a copy).
util.func public @add_rows(%rows: tensor<2x2xf32>, %indices: tensor<2x1xi32>) -> tensor<4x2xf32> {
  %t = util.global.load @table : tensor<4x2xf32>
  %u = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%rows, %indices : tensor<2x2xf32>, tensor<2x1xi32>) outs(%t : tensor<4x2xf32>) {
  ^bb0(%update: f32, %old: f32):
    %sum = arith.addf %update, %old : f32
    iree_linalg_ext.yield %sum : f32
  } -> tensor<4x2xf32>
  util.global.store %u, @table : tensor<4x2xf32>
  %n = util.global.load @table : tensor<4x2xf32>
  %zero = arith.constant dense<0.0> : tensor<4x2xf32>
  %r = arith.maximumf %n, %zero : tensor<4x2xf32>
  util.return %r : tensor<4x2xf32>
}
