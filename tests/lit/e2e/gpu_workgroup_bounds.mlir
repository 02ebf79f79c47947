// Workgroup bounds on the GPU (kiln-gpu-form-kernels, WorkgroupBound.h): a distributed
// dispatch launches min(worker count, workgroups with work) workgroups, not one per worker
// (2432 on a simulated gfx942: 304 compute units, 8 each), and still computes every
// element. Inputs of ones make every result a known constant, checked in full.
// RUN: rm -rf %t && mkdir %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln --report=%t/report.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.txt
// 64x64 product tiles: ceil(200 / 64) * ceil(300 / 64) = 20.
// REPORT-DAG: gfx942 tiles_dispatch_{{[0-9]+}}_matmul: workgroup 256x1x1 (distributed), {{.*}}; at most 20 workgroups
// One row per workgroup: of a reduction, and of a decode-shaped product x W^T (the
// reduction strategy; its row count is left as 1 x 1024).
// REPORT-DAG: gfx942 row_sums_dispatch_{{[0-9]+}}_reduce: workgroup 256x1x1 (distributed), {{.*}}; at most 300 workgroups
// REPORT-DAG: gfx942 decode_dispatch_{{[0-9]+}}_matmul: workgroup 256x1x1 (distributed), {{.*}}; at most 1024 workgroups
// One element per work-item, n elements (a push-constant word holds n).
// REPORT-DAG: gfx942 double_dispatch_{{[0-9]+}}_generic: workgroup 64x1x1 (distributed), {{.*}}; at most ceil(c{{[0-9]}} / 64) workgroups
//
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=tiles --input=200x37xf32=1 --input=37x300xf32=1 --expected_output=200x300xf32=37 --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=row_sums --input=300x1000xf32=1 --expected_output=300xf32=1000 --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=decode --input=1x512xf32=1 --input=1024x512xf32=1 --expected_output=1x1024xf32=512 --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=double --input=1000xf32=1 --expected_output=1000xf32=2 --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=double --input=100001xf32=1 --expected_output=100001xf32=2 --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=double --input=1000000xf32=1 --expected_output=1000000xf32=2 --atol=0 --rtol=0
//
// The workgroups each dispatch ran with: the bound, or the worker count when it is less.
// RUN: kiln-benchmark-module --module=%t/gfx942.kiln --device=hip-sim --function=tiles --input=200x37xf32=1 --input=37x300xf32=1 --dispatches --benchmark_min_time=1x --benchmark_format=csv | FileCheck %s --check-prefix=TILES
// TILES: 0,tiles_dispatch_{{[0-9]+}}_matmul,{{[^,]*}},20x1x1,
// RUN: kiln-benchmark-module --module=%t/gfx942.kiln --device=hip-sim --function=double --input=1000xf32=1 --dispatches --benchmark_min_time=1x --benchmark_format=csv | FileCheck %s --check-prefix=SMALL
// SMALL: 0,double_dispatch_{{[0-9]+}}_generic,{{[^,]*}},16x1x1,
// RUN: kiln-benchmark-module --module=%t/gfx942.kiln --device=hip-sim --function=double --input=100001xf32=1 --dispatches --benchmark_min_time=1x --benchmark_format=csv | FileCheck %s --check-prefix=MEDIUM
// MEDIUM: 0,double_dispatch_{{[0-9]+}}_generic,{{[^,]*}},1563x1x1,
// RUN: kiln-benchmark-module --module=%t/gfx942.kiln --device=hip-sim --function=double --input=1000000xf32=1 --dispatches --benchmark_min_time=1x --benchmark_format=csv | FileCheck %s --check-prefix=LARGE
// LARGE: 0,double_dispatch_{{[0-9]+}}_generic,{{[^,]*}},2432x1x1,

func.func @tiles(%a: tensor<200x37xf32>, %b: tensor<37x300xf32>) -> tensor<200x300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x300xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<200x300xf32>) -> tensor<200x300xf32>
  %m = linalg.matmul ins(%a, %b : tensor<200x37xf32>, tensor<37x300xf32>) outs(%f : tensor<200x300xf32>) -> tensor<200x300xf32>
  return %m : tensor<200x300xf32>
}

func.func @row_sums(%a: tensor<300x1000xf32>) -> tensor<300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %r = linalg.reduce ins(%a : tensor<300x1000xf32>) outs(%f : tensor<300xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %z = arith.addf %x, %y : f32
      linalg.yield %z : f32
    }
  return %r : tensor<300xf32>
}

func.func @decode(%x: tensor<1x512xf32>, %w: tensor<1024x512xf32>) -> tensor<1x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%x, %w : tensor<1x512xf32>, tensor<1024x512xf32>) outs(%f : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  return %m : tensor<1x1024xf32>
}

func.func @double(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
