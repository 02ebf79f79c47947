// kiln-benchmark-module --dispatches --dump_dispatch_benchmarks=DIR: each dispatch of the
// recorded call written as a program of its own with the shapes and scalars it ran with
// (its push constants made constants), which runs as written. A dispatch that ran with
// different values gets one file per distinct set: NAME.mlir, NAME.2.mlir, ...
// RUN: rm -rf %t && mkdir %t && cd %t
// RUN: kiln-benchmark-module --module=%s --function=prefix_sums --input=12xf32=1,2,3,4,5,6,7,8,9,10,11,12 --dispatches --benchmark_min_time=1x --dump_dispatch_benchmarks=%t/cpu > /dev/null
// RUN: ls %t/cpu | FileCheck %s --check-prefix=LS
// RUN: ls %t/cpu | wc -l | FileCheck %s --check-prefix=COUNT
// COUNT: 6
// LS-DAG: prefix_sums_dispatch_{{[0-9]+}}_insert.2.mlir
// LS-DAG: prefix_sums_dispatch_{{[0-9]+}}_insert.3.mlir
// LS-DAG: prefix_sums_dispatch_{{[0-9]+}}_insert.mlir
// LS-DAG: prefix_sums_dispatch_{{[0-9]+}}_reduce.2.mlir
// LS-DAG: prefix_sums_dispatch_{{[0-9]+}}_reduce.3.mlir
// LS-DAG: prefix_sums_dispatch_{{[0-9]+}}_reduce.mlir
//
// The second run of the sum reads the first 8 elements: a static slice, nothing to choose.
// RUN: cat %t/cpu/prefix_sums_dispatch_*_reduce.2.mlir | FileCheck %s --check-prefix=REDUCE
// REDUCE: // Dispatch prefix_sums_dispatch_{{[0-9]+}}_reduce of {{.*}}kiln-benchmark-module-dumps.mlir:{{[0-9]+}}:{{[0-9]+}} with the push constants it ran with (8 : index) as a program of its own. Time it with:
// REDUCE-NEXT: //   kiln-benchmark-module --module={{.*}}_reduce.2.mlir --input=12xf32=0{{$}}
// REDUCE: func.func @prefix_sums_dispatch_{{[0-9]+}}_reduce(%arg0: tensor<12xf32>{{.*}}) -> tensor<f32> {
// REDUCE: tensor.extract_slice %arg0[0] [8] [1] : tensor<12xf32> to tensor<8xf32>
// REDUCE: linalg.reduce ins(%{{.*}} : tensor<8xf32>)
// RUN: kiln-run --module=$(echo %t/cpu/prefix_sums_dispatch_*_reduce.2.mlir) --input=12xf32=1,2,3,4,5,6,7,8,9,10,11,12 | FileCheck %s --check-prefix=SUM8
// SUM8: f32=36
// The command in the file runs as written.
// RUN: sed -n '2s|^//   \(.*\)|\1 --dispatches --benchmark_min_time=1x --benchmark_format=csv|p' %t/cpu/prefix_sums_dispatch_*_reduce.2.mlir > %t/command.sh
// RUN: sh %t/command.sh | FileCheck %s --check-prefix=TIMED
// TIMED: 0,prefix_sums_dispatch_{{[0-9]+}}_reduce_dispatch_{{[0-9]+}}_reduce,{{[^,]*}},1x1x1,{{[^,]+}},{{[^,]+}},{{[0-9]+}},48,4,8,
// Scalars keep their types: the inserted value (an f32) and its position (an index).
// RUN: cat %t/cpu/prefix_sums_dispatch_*_insert.3.mlir | FileCheck %s --check-prefix=INSERT
// INSERT: with the push constants it ran with (7.800000e+01 : f32, 2 : index)
// INSERT: func.func @prefix_sums_dispatch_{{[0-9]+}}_insert(%arg0: tensor<3xf32>{{.*}}) -> tensor<3xf32> {
// INSERT-DAG: arith.constant 7.800000e+01 : f32
// INSERT-DAG: arith.constant 2 : index
//
// Dynamic tensors take the sizes they had: 5 rows here.
// RUN: kiln-benchmark-module --module=%s --function=dynamic --input=5x16xf32=1 --dispatches --benchmark_min_time=1x --dump_dispatch_benchmarks=%t/dynamic > /dev/null
// RUN: cat %t/dynamic/dynamic_dispatch_*_matmul.mlir | FileCheck %s --check-prefix=DYN
// DYN: //   kiln-benchmark-module --module={{.*}}_matmul.mlir --input=5x16xf32=0{{$}}
// DYN: func.func @dynamic_dispatch_{{[0-9]+}}_matmul(%arg0: tensor<5x16xf32>{{.*}}) -> tensor<5x4xf32> {
// RUN: kiln-run --module=$(echo %t/dynamic/dynamic_dispatch_*_matmul.mlir) --input=5x16xf32=1 | FileCheck %s --check-prefix=DYN-OUT
// DYN-OUT: 5x4xf32=[8 8 8 8][8 8 8 8][8 8 8 8][8 8 8 8][8 8 8 8]
//
// On the simulated GPU the same, for its own dispatches (the sum is split into chunk partials there).
// RUN: kiln-benchmark-module --module=%s --device=hip-sim --function=prefix_sums --input=12xf32=1 --dispatches --benchmark_min_time=1x --dump_dispatch_benchmarks=%t/gpu > /dev/null
// RUN: ls %t/gpu | FileCheck %s --check-prefix=GPU
// GPU: prefix_sums_dispatch_{{[0-9]+}}_generic.2.mlir
// GPU: prefix_sums_dispatch_{{[0-9]+}}_insert.3.mlir
//
// Errors: before anything runs, one line, exit code 1.
// RUN: kiln-compile %s -o %t/m.kiln
// RUN: not kiln-benchmark-module --module=%t/m.kiln --function=dynamic --dispatches --dump_dispatch_benchmarks=%t/x 2>&1 | FileCheck %s --check-prefix=COMPILED
// COMPILED: kiln-benchmark-module: INVALID_ARGUMENT: --dump_dispatch_benchmarks needs the module's MLIR source (--module=FILE.mlir): the dispatches are compiled again with the sizes they ran with; '{{.*}}m.kiln' is a compiled module
// RUN: not kiln-benchmark-module --module=%s --function=dynamic --input=5x16xf32=1 --dump_dispatch_benchmarks=%t/x 2>&1 | FileCheck %s --check-prefix=NODISPATCHES
// NODISPATCHES: kiln-benchmark-module: INVALID_ARGUMENT: --dump_dispatch_benchmarks writes the dispatches of the call --dispatches records; add --dispatches
// A directory that cannot be made: the error names it.
// RUN: touch %t/file
// RUN: not kiln-benchmark-module --module=%s --function=dynamic --input=5x16xf32=1 --dispatches --benchmark_min_time=1x --dump_dispatch_benchmarks=%t/file/sub 2>&1 | FileCheck %s --check-prefix=BADDIR
// BADDIR: error: cannot create --dump-dispatch-benchmarks directory '{{.*}}file/sub': {{.*}}; --dump_dispatch_benchmarks='{{.*}}file/sub'
// RUN: not ls %t/x

func.func @prefix_sums(%a: tensor<12xf32>) -> tensor<3xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %init = arith.constant dense<0.0> : tensor<3xf32>
  %r = scf.for %i = %c1 to %c4 step %c1 iter_args(%acc = %init) -> tensor<3xf32> {
    %n = arith.muli %i, %c4 : index
    %s = tensor.extract_slice %a[0] [%n] [1] : tensor<12xf32> to tensor<?xf32>
    %e = tensor.empty() : tensor<f32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %sum = linalg.reduce ins(%s : tensor<?xf32>) outs(%f : tensor<f32>) dimensions = [0]
      (%x: f32, %y: f32) {
        %z = arith.addf %x, %y : f32
        linalg.yield %z : f32
      }
    %v = tensor.extract %sum[] : tensor<f32>
    %j = arith.subi %i, %c1 : index
    %acc2 = tensor.insert %v into %acc[%j] : tensor<3xf32>
    scf.yield %acc2 : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

func.func @dynamic(%a: tensor<?x16xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %b = arith.constant dense<0.5> : tensor<16x4xf32>
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<?x16xf32>, tensor<16x4xf32>) outs(%f : tensor<?x4xf32>) -> tensor<?x4xf32>
  return %m : tensor<?x4xf32>
}
