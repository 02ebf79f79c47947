// kiln-benchmark-module --dispatches on hip-sim's code-object executor: per dispatch what the
// executor counted (hal::Device::LastDispatchCounters) and the MI300X estimate from it
// (docs/hip-sim-executor.md, "Counts"); on devices that do not count, no such fields at all.
// REQUIRES: hip-sim-code-object
// RUN: kiln-compile --target=gfx942 %s -o %t.kiln
//
// A 1M-element f32 add: 2 x 4 MiB read, 4 MiB written, once each (exactly: neither more nor
// an over-read tail); 128-bit accesses, so 3 vector memory instructions per 64 x 4 elements
// (4096 wave-iterations); no LDS, no MFMA. One 8-VGPR wave per workgroup: 8 waves per SIMD.
// HBM-bound on the MI300X: 12 MiB at 5.3 TB/s.
// RUN: env KILN_HSA_SIM_MODE=code-object kiln-benchmark-module --module=%t.kiln --device=hip-sim --function=add --input=1048576xf32=1 --input=1048576xf32=2 --dispatches --benchmark_min_time=1x --benchmark_format=json | FileCheck %s --check-prefix=ADD
// ADD: "name": "add_dispatch_0_add"
// ADD: "counters": {"workgroups_executed": {{[1-9][0-9]*}}, "waves_executed": {{[1-9][0-9]*}}, "salu": {{[0-9]+}}, "smem": {{[0-9]+}}, "valu": {{[1-9][0-9]*}}, "mfma": 0, "vmem": 12288, "lds": 0, "branch": {{[0-9]+}}, "wait": {{[0-9]+}}, "global_read_bytes": 8388608, "global_written_bytes": 4194304, "lds_read_bytes": 0, "lds_written_bytes": 0, "occupancy_waves_per_simd": 8, "occupancy_workgroups_per_cu": {{[0-9]+}}, "occupancy_waves_per_cu": 32},
// ADD-NEXT: "occupancy_limit": "waves", "mfma_by_mnemonic": {},
// ADD-NEXT: "mi300x_estimate": {"time_us": 2.37413, "compute_us": {{[0-9.e-]+}}, "memory_us": 2.37413, "bound": "HBM", "mfma_rates_known": true, "model": "estimate: docs/hip-sim-executor.md, Counts"}}
//
// The same over two dimensions (1024 x 1024, flattened: kiln-gpu-flatten-elementwise), and
// 1000003 elements: 250000 vectors (3907 wave-iterations), then 3 elements in one more wave,
// each byte read and written once.
// RUN: env KILN_HSA_SIM_MODE=code-object kiln-benchmark-module --module=%t.kiln --device=hip-sim --function=add2d --input=1024x1024xf32=1 --input=1024x1024xf32=2 --dispatches --benchmark_min_time=1x --benchmark_format=json | FileCheck %s --check-prefix=ADD2D
// ADD2D: "counters": {{{.*}} "mfma": 0, "vmem": 12288, "lds": 0, {{.*}} "global_read_bytes": 8388608, "global_written_bytes": 4194304,
// RUN: env KILN_HSA_SIM_MODE=code-object kiln-benchmark-module --module=%t.kiln --device=hip-sim --function=add_odd --input=1000003xf32=1 --input=1000003xf32=2 --dispatches --benchmark_min_time=1x --benchmark_format=json | FileCheck %s --check-prefix=ODD
// ODD: "counters": {{{.*}} "vmem": 11724, {{.*}} "global_read_bytes": 8000024, "global_written_bytes": 4000012,
//
// The console shows them in a second table, labelled an estimate.
// RUN: env KILN_HSA_SIM_MODE=code-object kiln-benchmark-module --module=%t.kiln --device=hip-sim --function=add --input=1048576xf32=1 --input=1048576xf32=2 --dispatches --benchmark_min_time=1x | FileCheck %s --check-prefix=CONSOLE
// CONSOLE: sum of the dispatch medians:
// CONSOLE-NEXT: counted by the device in each dispatch's first run alone {{.*}} an ESTIMATE of its time on an MI300X (a roofline, {{.*}}not a measurement):
// CONSOLE-NEXT: # dispatch SALU SMEM VALU MFMA VMEM LDS branch wait global rd B global wr B LDS B occupancy (bound) MI300X estimate (bound)
// CONSOLE-NEXT: 0 add_dispatch_0_add {{[0-9]+}} {{[0-9]+}} {{[0-9]+}} 0 12288 0 {{[0-9]+}} {{[0-9]+}} 8388608 4194304 0 8/SIMD {{[0-9]+}} wg/CU (waves) 2.374 us (HBM)
//
// In CSV, the counter columns follow the usual ones.
// RUN: env KILN_HSA_SIM_MODE=code-object kiln-benchmark-module --module=%t.kiln --device=hip-sim --function=add --input=1048576xf32=1 --input=1048576xf32=2 --dispatches --benchmark_min_time=1x --benchmark_format=csv | FileCheck %s --check-prefix=CSV
// CSV: ,share_of_call,workgroups_executed,waves_executed,salu,smem,valu,mfma,vmem,lds,branch,wait,global_read_bytes,global_written_bytes,lds_read_bytes,lds_written_bytes,occupancy_waves_per_simd,occupancy_workgroups_per_cu,occupancy_waves_per_cu,occupancy_limit,mi300x_estimate_us,mi300x_bound
// CSV-NEXT: 0,add_dispatch_0_add,{{.*}},0,12288,0,{{[0-9]+}},{{[0-9]+}},8388608,4194304,0,0,8,{{[0-9]+}},32,waves,2.37413,HBM
//
// A 128^3 f16 matmul: the minimum of v_mfma_f32_32x32x8_f16 (2 * 128^3 / (2 * 32 * 32 * 8) =
// 256) and every f32 result written once (64 KiB).
// RUN: env KILN_HSA_SIM_MODE=code-object kiln-benchmark-module --module=%t.kiln --device=hip-sim --function=matmul --input=128x128xf16=1 --input=128x128xf16=1 --dispatches --benchmark_min_time=1x --benchmark_format=json | FileCheck %s --check-prefix=MATMUL
// MATMUL: "name": "matmul_dispatch_{{[0-9]+}}_matmul"
// MATMUL: "counters": {{{.*}} "mfma": 256, {{.*}} "global_written_bytes": 65536,
// MATMUL-NEXT: "mfma_by_mnemonic": {"v_mfma_f32_32x32x8_f16": 256}
// MATMUL-NEXT: "mi300x_estimate": {"time_us": {{[0-9.e-]+}},
//
// No counts: the host twins (hip-sim's default mode) and the CPU have none, so the fields are
// absent (not zero).
// RUN: env KILN_HSA_SIM_MODE=twin kiln-benchmark-module --module=%t.kiln --device=hip-sim --function=add --input=1048576xf32=1 --input=1048576xf32=2 --dispatches --benchmark_min_time=1x --benchmark_format=json | FileCheck %s --check-prefix=NONE
// RUN: kiln-compile %s -o %t.cpu.kiln
// RUN: kiln-benchmark-module --module=%t.cpu.kiln --device=cpu --function=add --input=1048576xf32=1 --input=1048576xf32=2 --dispatches --benchmark_min_time=1x --benchmark_format=json | FileCheck %s --check-prefix=NONE
// NONE: "name": "add_dispatch_0_add"
// NONE-NOT: "counters"
// NONE-NOT: mi300x
// RUN: env KILN_HSA_SIM_MODE=twin kiln-benchmark-module --module=%t.kiln --device=hip-sim --function=add --input=1048576xf32=1 --input=1048576xf32=2 --dispatches --benchmark_min_time=1x --benchmark_format=csv | FileCheck %s --check-prefix=NONE-CSV
// NONE-CSV: ,share_of_call{{$}}
// RUN: env KILN_HSA_SIM_MODE=twin kiln-benchmark-module --module=%t.kiln --device=hip-sim --function=add --input=1048576xf32=1 --input=1048576xf32=2 --dispatches --benchmark_min_time=1x | FileCheck %s --check-prefix=NONE-CONSOLE
// NONE-CONSOLE: sum of the dispatch medians:
// NONE-CONSOLE-NOT: counted by the device

func.func @add(%a: tensor<1048576xf32>, %b: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %e = tensor.empty() : tensor<1048576xf32>
  %r = linalg.add ins(%a, %b : tensor<1048576xf32>, tensor<1048576xf32>) outs(%e : tensor<1048576xf32>) -> tensor<1048576xf32>
  return %r : tensor<1048576xf32>
}

func.func @add2d(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %e = tensor.empty() : tensor<1024x1024xf32>
  %r = linalg.add ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}

func.func @add_odd(%a: tensor<1000003xf32>, %b: tensor<1000003xf32>) -> tensor<1000003xf32> {
  %e = tensor.empty() : tensor<1000003xf32>
  %r = linalg.add ins(%a, %b : tensor<1000003xf32>, tensor<1000003xf32>) outs(%e : tensor<1000003xf32>) -> tensor<1000003xf32>
  return %r : tensor<1000003xf32>
}

func.func @matmul(%a: tensor<128x128xf16>, %b: tensor<128x128xf16>) -> tensor<128x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf16>, tensor<128x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
