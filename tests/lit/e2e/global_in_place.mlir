// A KV-cache append written in place (kiln-form-dispatches, InPlaceUpdates.h) on cpu,
// cpu-sync and hip-sim: the dispatch binds the row and the cache only (no second cache),
// moves the row's bytes, and a read after the store sees the row.
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-dump %t.kiln | FileCheck %s --check-prefix=DUMP
// RUN: kiln-dump %t.gpu.kiln | FileCheck %s --check-prefix=DUMP
// DUMP: append_and_read_dispatch_{{[0-9]+}}_insert_slice: 2 bindings, {{.*}} written 32
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
