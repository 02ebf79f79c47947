// kiln-benchmark-module: iree-benchmark-module's flags over Google Benchmark, and the
// per-dispatch microbenchmarks of --dispatches; every flag and error path.
// RUN: kiln-compile %s -o %t.kiln
//
// The whole call under Google Benchmark, named as iree-benchmark-module names it.
// RUN: kiln-benchmark-module --module=%t.kiln --function=main --input=8x16xf32=1 --benchmark_min_time=3x --benchmark_format=json | FileCheck %s --check-prefix=JSON
// JSON: "name": "BM_main/{{(iterations:[0-9]+/)?}}process_time/real_time"
// JSON: "iterations": 3
// JSON: "time_unit": "ms"
// RUN: kiln-benchmark-module --module=%t.kiln --function=main --input=8x16xf32=1 --benchmark_min_time=0.01s --benchmark_format=csv | FileCheck %s --check-prefix=CSV
// CSV: name,iterations,real_time,cpu_time,time_unit
// CSV: "BM_main/process_time/real_time",{{[0-9]+}},
// RUN: kiln-benchmark-module --module=%t.kiln --function=main --input=8x16xf32=1 --benchmark_min_time=0.01 2>/dev/null | FileCheck %s --check-prefix=CONSOLE
// CONSOLE: BM_main/process_time/real_time {{.*}} ms {{.*}} ms
// --batch_size calls per iteration; items_per_second counts calls.
// RUN: kiln-benchmark-module --module=%t.kiln --function=main --input=8x16xf32=1 --benchmark_min_time=2x --batch_size=4 --benchmark_format=json | FileCheck %s --check-prefix=BATCH
// BATCH: "iterations": 2
// BATCH: "items_per_second":
// --benchmark_repetitions adds the aggregates; --benchmark_out writes the report to a file.
// RUN: kiln-benchmark-module --module=%t.kiln --function=main --input=8x16xf32=1 --benchmark_min_time=2x --benchmark_repetitions=3 --benchmark_out=%t.out.json --benchmark_format=csv > %t.stdout
// RUN: FileCheck %s --check-prefix=REPS < %t.out.json
// REPS: "name": "BM_main/iterations:2/process_time/real_time_median"
// RUN: FileCheck %s --check-prefix=REPS-CSV < %t.stdout
// REPS-CSV: "BM_main/iterations:2/process_time/real_time_mean"
// A module on stdin, and the only export chosen without --function.
// RUN: kiln-compile %s | kiln-benchmark-module --module=- --function=main --input=8x16xf32=1 --benchmark_min_time=3x --benchmark_format=json | FileCheck %s --check-prefix=JSON
//
// --dispatches: one row per dispatch, with the cost the compiler recorded. The matmul
// reads 8x16 floats (its constant operand is compiled in) and writes 8x4, 2*8*4*16 FLOPs;
// the relu reads and writes 8x4 and does one maximumf each.
// RUN: kiln-benchmark-module --module=%t.kiln --function=main --input=8x16xf32=1 --dispatches --benchmark_min_time=5x | FileCheck %s --check-prefix=DISPATCHES
// DISPATCHES: @main on {{.*}}: the call takes {{.*}} ms (median; p90 {{.*}} ms; 5 samples) and makes 2 dispatches, each timed alone:
// DISPATCHES-NEXT: # dispatch location workgroups median ms p90 ms share MB read MB written MFLOP GB/s GFLOP/s
// DISPATCHES-NEXT: 0 main_dispatch_{{[0-9]}}_matmul {{.*}}kiln-benchmark-module.mlir:{{[0-9]+}}:{{[0-9]+}} {{[0-9]+}}x1x1 {{.*}}% 0.000512 0.000128 0.001024
// DISPATCHES-NEXT: 1 main_dispatch_{{[0-9]}}_generic {{.*}}% 0.000128 0.000128 3.2e-05
// DISPATCHES-NEXT: sum of the dispatch medians: {{.*}} ms ({{.*}}% of the call); ? = unknown
// RUN: kiln-benchmark-module --module=%t.kiln --function=main --input=8x16xf32=1 --dispatches --benchmark_min_time=3x --benchmark_format=json --benchmark_out=%t.d.csv --benchmark_out_format=csv > %t.d.json
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); d=r['dispatches']; print(r['function'], len(d), d[0]['bytes_read'], d[0]['bytes_written'], d[0]['flops'], d[0]['samples'], d[0]['workgroup_count'][1:], len(d[0]['bindings']), r['call']['samples'], all(x['share_of_call'] > 0 for x in d))" %t.d.json | FileCheck %s --check-prefix=DJSON
// DJSON: main 2 512 128 1024 3 [1, 1] 2 3 True
// RUN: FileCheck %s --check-prefix=DCSV < %t.d.csv
// DCSV: index,name,source_location,workgroups,median_ms,p90_ms,samples,bytes_read,bytes_written,flops,gb_per_s,gflop_per_s,share_of_call
// DCSV-NEXT: 0,main_dispatch_{{[0-9]}}_matmul,{{.*}}kiln-benchmark-module.mlir:{{[0-9]+}}:{{[0-9]+}},{{[0-9]+}}x1x1,{{[^,]+}},{{[^,]+}},{{[0-9]+}},512,128,1024,
// DCSV-NEXT: 1,main_dispatch_{{[0-9]}}_generic,
// Dynamic shapes: the formulas name push-constant words, evaluated on the recorded constants.
// RUN: kiln-benchmark-module --module=%t.kiln --function=dynamic --input=8x16xf32=1 --dispatches --benchmark_min_time=2x --benchmark_format=csv | FileCheck %s --check-prefix=DYN
// DYN: 0,dynamic_dispatch_{{[0-9]}}_matmul,{{[^,]*}},{{[0-9]+}}x1x1,{{[^,]+}},{{[^,]+}},2,512,128,1024,
// RUN: kiln-benchmark-module --module=%t.kiln --function=dynamic --input=32x16xf32=1 --dispatches --benchmark_min_time=2x --benchmark_format=csv | FileCheck %s --check-prefix=DYN32
// DYN32: 0,dynamic_dispatch_{{[0-9]}}_matmul,{{[^,]*}},{{[0-9]+}}x1x1,{{[^,]+}},{{[^,]+}},2,2048,512,4096,
// kiln-dump shows the formulas (cN is push-constant word N; ? unknown).
// RUN: kiln-dump %t.kiln | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: dynamic_dispatch_{{[0-9]}}_matmul: 2 bindings, {{[0-9]}} constants, {{.*}}, flops 128*c{{[0-9]}}, bytes read 64*c{{[0-9]}}, written 16*c{{[0-9]}}
// DUMP-DAG: main_dispatch_{{[0-9]}}_matmul: 2 bindings, 0 constants, {{.*}}, flops 1024, bytes read 512, written 128
// kiln-compile --dump-dispatch-benchmarks=DIR: each dispatch as a program of its own (its
// input bindings as arguments, its outputs as results, the original source locations), with
// the command that times it; compiled again it is that one dispatch.
// RUN: rm -rf %t.bench && kiln-compile %s -o %t.unused.kiln --dump-dispatch-benchmarks=%t.bench 2> %t.bench.err
// RUN: count 0 < %t.bench.err
// RUN: cat %t.bench/main_dispatch_*_matmul.mlir | FileCheck %s --check-prefix=BENCH-FILE
// BENCH-FILE: // Dispatch main_dispatch_{{[0-9]}}_matmul of {{.*}}kiln-benchmark-module.mlir:{{[0-9]+}}:8 as a program of its own. Time it with:
// BENCH-FILE-NEXT: //   kiln-benchmark-module --module={{.*}}main_dispatch_{{[0-9]}}_matmul.mlir --input=8x16xf32=0
// BENCH-FILE: func.func @main_dispatch_{{[0-9]}}_matmul(%arg0: tensor<8x16xf32> {{.*}}) -> tensor<8x4xf32> {
// BENCH-FILE: linalg.matmul
// RUN: ls %t.bench | FileCheck %s --check-prefix=BENCH-LS
// BENCH-LS-DAG: dynamic_dispatch_{{[0-9]}}_matmul.mlir
// BENCH-LS-DAG: main_dispatch_{{[0-9]}}_generic.mlir
// BENCH-LS-DAG: main_dispatch_{{[0-9]}}_matmul.mlir
// A dispatch with dynamic shapes takes tensors of dynamic shape, and a scalar for each push
// constant its inputs' sizes do not give (here the result's row count); the command line
// leaves them to choose.
// RUN: cat %t.bench/dynamic_dispatch_*_matmul.mlir | FileCheck %s --check-prefix=BENCH-DYN
// BENCH-DYN: // Dispatch dynamic_dispatch_{{[0-9]}}_matmul of {{.*}} as a program of its own. Time it with (give each ? a value: the sizes and scalars the dispatch ran with):
// BENCH-DYN-NEXT: //   kiln-benchmark-module --module={{.*}}dynamic_dispatch_{{[0-9]}}_matmul.mlir --input=?x16xf32=0 --input=i64=?
// BENCH-DYN: func.func @dynamic_dispatch_{{[0-9]}}_matmul(%arg0: tensor<?x16xf32> {{.*}}, %arg1: index {{.*}}) -> tensor<?x4xf32> {
// BENCH-DYN: tensor.empty(%arg1) : tensor<?x4xf32>
// RUN: ls %t.bench/dynamic_dispatch_*_matmul.mlir | xargs -I{} kiln-run --module={} --input=2x16xf32=1 --input=i64=2 | FileCheck %s --check-prefix=BENCH-DYN-OUT
// BENCH-DYN-OUT: 2x4xf32=[8 8 8 8][8 8 8 8]
// RUN: ls %t.bench/main_dispatch_*_matmul.mlir | xargs -I{} kiln-benchmark-module --module={} --input=8x16xf32=0 --dispatches --benchmark_min_time=2x --benchmark_format=csv | FileCheck %s --check-prefix=BENCHED
// BENCHED: 0,main_dispatch_{{[0-9]}}_matmul_dispatch_{{[0-9]}}_matmul,{{.*}}kiln-benchmark-module.mlir:{{[0-9]+}}:8,{{[0-9]+}}x1x1,{{[^,]+}},{{[^,]+}},2,512,128,1024,
// BENCHED-NOT: {{^}}1,
// The same on cpu-sync and on the simulated GPU (compiled for it from the .mlir).
// RUN: kiln-benchmark-module --module=%t.kiln --device=local-sync --function=main --input=8x16xf32=1 --dispatches --benchmark_min_time=2x --benchmark_format=csv | FileCheck %s --check-prefix=DCSV
// RUN: kiln-benchmark-module --module=%s --device=hip-sim --function=main --input=8x16xf32=1 --dispatches --benchmark_min_time=2x --benchmark_format=csv | FileCheck %s --check-prefix=DCSV
// RUN: kiln-benchmark-module --module=%s --device=hip-sim --function=main --input=8x16xf32=1 --benchmark_min_time=3x --benchmark_format=json | FileCheck %s --check-prefix=JSON
//
// Errors: one line on stderr, exit code 1.
// A function that makes no dispatch cannot be benchmarked per dispatch.
// RUN: not kiln-benchmark-module --module=%t.kiln --function=host_only --input=3 --dispatches 2>&1 | FileCheck %s --check-prefix=NODISPATCH
// NODISPATCH: kiln-benchmark-module: FAILED_PRECONDITION: --dispatches: 'host_only' makes no dispatch (it runs on the host alone); benchmark it without --dispatches
// RUN: not kiln-benchmark-module --module=%t.kiln --function=main --dispatches=maybe 2>&1 | FileCheck %s --check-prefix=BADBOOL
// BADBOOL: kiln-benchmark-module: INVALID_ARGUMENT: --dispatches='maybe': expected true or false
// A wrong function, and none with several exports.
// RUN: not kiln-benchmark-module --module=%t.kiln --function=nope 2>&1 | FileCheck %s --check-prefix=WRONGFN
// WRONGFN: kiln-benchmark-module: NOT_FOUND: {{.*}}nope{{.*}}
// RUN: not kiln-benchmark-module --module=%t.kiln 2>&1 | FileCheck %s --check-prefix=NOFN
// NOFN: kiln-benchmark-module: INVALID_ARGUMENT: {{.*}}--function{{.*}}
// Inputs that do not fit the function: the first call fails before any benchmark runs.
// RUN: not kiln-benchmark-module --module=%t.kiln --function=main --input=4xf32=1 > %t.badinput 2>&1
// RUN: FileCheck %s --check-prefix=BADINPUT < %t.badinput
// BADINPUT-NOT: Run on
// BADINPUT: kiln-benchmark-module: INVALID_ARGUMENT: expected a buffer view of 8x16xf32, got 4xf32; {{.*}}; while calling 'main'; in the first call of 'main', before benchmarking
// RUN: not kiln-benchmark-module --module=%t.kiln --function=main --input=4xf32=1 --dispatches 2>&1 | FileCheck %s --check-prefix=BADINPUT-D
// BADINPUT-D: kiln-benchmark-module: INVALID_ARGUMENT: expected a buffer view of 8x16xf32, got 4xf32; {{.*}}; while recording the dispatches of 'main'
// RUN: not kiln-benchmark-module --module=%t.kiln --function=main --input=1 --input=2 2>&1 | FileCheck %s --check-prefix=TOOMANY
// TOOMANY: kiln-benchmark-module: INVALID_ARGUMENT: {{.*}}; for function 'main'
// Stdin that is not a module.
// RUN: not kiln-benchmark-module --module=- < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: kiln-benchmark-module: INVALID_ARGUMENT: --module=-: stdin holds text, not a compiled module
// RUN: not kiln-benchmark-module --module=- < /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTYSTDIN
// EMPTYSTDIN: kiln-benchmark-module: INVALID_ARGUMENT: --module=-: stdin is empty
// Bad benchmark flags, before anything runs.
// RUN: not kiln-benchmark-module --module=%t.kiln --benchmark_format=xml 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: kiln-benchmark-module: INVALID_ARGUMENT: --benchmark_format='xml': expected console, json or csv
// RUN: not kiln-benchmark-module --module=%t.kiln --benchmark_out_format=xml 2>&1 | FileCheck %s --check-prefix=OUTFORMAT
// OUTFORMAT: kiln-benchmark-module: INVALID_ARGUMENT: --benchmark_out_format='xml': expected console, json or csv
// RUN: not kiln-benchmark-module --module=%t.kiln --benchmark_min_time=soon 2>&1 | FileCheck %s --check-prefix=MINTIME
// MINTIME: kiln-benchmark-module: INVALID_ARGUMENT: --benchmark_min_time='soon': expected seconds (0.5 or 0.5s) or a number of iterations (100x)
// RUN: not kiln-benchmark-module --module=%t.kiln --benchmark_min_time=1.5x 2>&1 | FileCheck %s --check-prefix=MINTIME-X
// MINTIME-X: --benchmark_min_time='1.5x': expected
// RUN: not kiln-benchmark-module --module=%t.kiln --batch_size=0 2>&1 | FileCheck %s --check-prefix=BATCH0
// BATCH0: kiln-benchmark-module: INVALID_ARGUMENT: --batch_size=0: expected at least 1
// RUN: not kiln-benchmark-module --module=%t.kiln --benchmark_repetitions=-1 2>&1 | FileCheck %s --check-prefix=REPS-BAD
// REPS-BAD: kiln-benchmark-module: INVALID_ARGUMENT: --benchmark_repetitions='-1': expected a non-negative integer
// RUN: not kiln-benchmark-module --module=%t.kiln --benchmark_out=%t.missing/dir/out.json 2>&1 | FileCheck %s --check-prefix=OUT
// OUT: kiln-benchmark-module: {{[A-Z_]+}}: {{.*}}; --benchmark_out='{{.*}}out.json'
// RUN: not kiln-benchmark-module --module=%t.kiln --benchmark_filter=x 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: kiln-benchmark-module: INVALID_ARGUMENT: unknown flag '--benchmark_filter=x'; see kiln-benchmark-module --help for the flags
// RUN: not kiln-benchmark-module 2>&1 | FileCheck %s --check-prefix=NOMODULE
// NOMODULE: kiln-benchmark-module: INVALID_ARGUMENT: --module=FILE.kiln (or FILE.mlir, or - for stdin) is required
// RUN: kiln-benchmark-module --help | FileCheck %s --check-prefix=HELP
// HELP: usage: kiln-benchmark-module --module=FILE.kiln|FILE.mlir|-
// HELP: --dispatches
// HELP: --dump_dispatch_benchmarks=DIR
// HELP: --batch_size=N
// HELP: --benchmark_format=console|json|csv
// HELP: --benchmark_repetitions=N
// HELP: --benchmark_min_time=SECONDS|Nx
// HELP: --benchmark_out=FILE

func.func @main(%a: tensor<8x16xf32>) -> tensor<8x4xf32> {
  %b = arith.constant dense<0.5> : tensor<16x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

func.func @host_only(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  return %y : i32
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
