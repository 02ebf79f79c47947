// --trace=FILE.json on kiln-run and kiln-benchmark-module: Chrome trace-event JSON that
// parses, with a VM call event for the function, one event per dispatch named after it
// (with its source location and workgroup count) inside the call in time, and on the cpu
// driver each worker's workgroup ranges inside their dispatch.
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run --module=%t.kiln --input=64x64xf32=1 --trace=%t.cpu.json | FileCheck %s --check-prefix=OUT
// RUN: %python %S/Inputs/check_trace.py %t.cpu.json two 2 | FileCheck %s --check-prefix=TRACE
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --input=64x64xf32=1 --trace=%t.sync.json > /dev/null
// RUN: %python %S/Inputs/check_trace.py %t.sync.json two 2 | FileCheck %s --check-prefix=TRACE
// RUN: kiln-benchmark-module --module=%t.kiln --input=64x64xf32=1 --benchmark_min_time=2x --trace=%t.bench.json > /dev/null
// RUN: %python %S/Inputs/check_trace.py %t.bench.json two 2 | FileCheck %s --check-prefix=TRACE
// RUN: kiln-benchmark-module --module=%t.kiln --input=64x64xf32=1 --dispatches --benchmark_min_time=2x --trace=%t.disp.json > /dev/null
// RUN: %python %S/Inputs/check_trace.py %t.disp.json two 2 | FileCheck %s --check-prefix=TRACE
// RUN: FileCheck %s --check-prefix=JSON < %t.cpu.json
// On hip-sim each submission is one event from its hand-over to the queue to its
// retirement, naming its dispatches, beside the host's queue_execute call; inside it, one
// event per dispatch from the GPU's own timestamps, in order (--device).
// RUN: kiln-run --module=%s --device=hip-sim --input=64x64xf32=1 --trace=%t.hip.json > /dev/null
// RUN: FileCheck %s --check-prefix=HIP < %t.hip.json
// RUN: %python %S/Inputs/check_trace.py %t.hip.json two 2 --device | FileCheck %s --check-prefix=TRACE
// RUN: kiln-benchmark-module --module=%s --device=hip-sim --input=64x64xf32=1 --benchmark_min_time=2x --trace=%t.hipbench.json > /dev/null
// RUN: %python %S/Inputs/check_trace.py %t.hipbench.json two 2 --device | FileCheck %s --check-prefix=TRACE

// RUN: not kiln-run --module=%t.kiln --input=64x64xf32=1 --trace=%t.missing/trace.json 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not kiln-benchmark-module --module=%t.kiln --input=64x64xf32=1 --trace=%t.missing/trace.json 2>&1 | FileCheck %s --check-prefix=BENCH-ERR

// OUT: EXEC @two
// OUT-NEXT: result[0]: hal.buffer_view
// OUT-NEXT: 64x64xf32=[4096 4096
// TRACE: trace ok: {{[0-9]+}} dispatches inside @two (two_dispatch_{{.*}}matmul{{.*}})
// JSON: "traceEvents"
// JSON-DAG: "name": "thread_name"{{.*}}"main"
// JSON-DAG: "cat": "dispatch"{{.*}}"source_location": "{{.*}}kiln-run-trace.mlir:{{[0-9]+}}:{{[0-9]+}}"
// HIP-DAG: "name": "queue_execute", "cat": "queue"
// HIP-DAG: "name": "queue_execute on device", "cat": "queue"{{.*}}"dispatches": ["two_dispatch_{{[0-9]+}}_matmul", "two_dispatch_{{[0-9]+}}_matmul"]
// HIP-DAG: "cat": "dispatch"{{.*}}"source_location": "{{.*}}kiln-run-trace.mlir:{{[0-9]+}}:{{[0-9]+}}", "workgroup_count": [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]
// ERR: kiln-run: PERMISSION_DENIED: cannot open trace file '{{.*}}missing/trace.json' for writing: No such file or directory; in --trace
// BENCH-ERR: kiln-benchmark-module: PERMISSION_DENIED: cannot open trace file

func.func @two(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m1 = linalg.matmul ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m2 = linalg.matmul ins(%m1, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m2 : tensor<64x64xf32>
}
