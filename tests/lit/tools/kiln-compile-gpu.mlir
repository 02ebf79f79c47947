// The AMD GPU target from the tools' side: the resource report, kiln-dump's view of the
// GPU container, the extracted code object and host twin, a module for two targets, and
// the errors for what the GPU path does not do.
// RUN: kiln-compile --target=gfx942 %s -o %t.kiln --report=- | FileCheck %s --check-prefix=REPORT
// REPORT: gfx942 scale_dispatch_0_generic: workgroup 64x1x1 (distributed), VGPR {{[0-9]+}}, SGPR {{[0-9]+}}, AGPR 0, LDS 0 B, scratch 0 B/work-item, occupancy {{[1-8]}}/8 waves per SIMD, at {{.*}}kiln-compile-gpu.mlir:[[# @LINE + 37]]:8
// RUN: kiln-run --module=%t.kiln --device=hip-sim --function=scale --input=5xf32=1,2,3,4,5 --expected_output=5xf32=2,4,6,8,10

// RUN: kiln-dump %t.kiln | FileCheck %s --check-prefix=DUMP
// DUMP: format amdgpu-hsaco
// DUMP: GPU kernels:
// DUMP-NEXT: gfx942 scale_dispatch_0_generic: workgroup 64x1x1, VGPR

// RUN: rm -rf %t.dir && kiln-dump %t.kiln --extract-executables=%t.dir
// RUN: llvm-readelf-22 --file-header --notes %t.dir/kiln_executable.gfx942.hsaco | FileCheck %s --check-prefix=HSACO
// HSACO: Machine: EM_AMDGPU
// HSACO: Flags: {{.*}}gfx942
// HSACO: .kernarg_segment_size: 36
// HSACO: .name: scale_dispatch_0_generic
// RUN: llvm-nm-22 -D %t.dir/kiln_executable.gfx942.twin.so | FileCheck %s --check-prefix=TWIN
// TWIN: T kiln_gpu_twin_library_query

// wave32 on RDNA3.
// RUN: kiln-compile --target=gfx1100 %s -o %t.rdna.kiln --report=- | FileCheck %s --check-prefix=RDNA
// RDNA: gfx1100 scale_dispatch_0_generic: workgroup 32x1x1

// One module for the CPU and the GPU: each device loads its own binary.
// RUN: kiln-compile --target=cpu,gfx942 %s -o %t.both.kiln
// RUN: kiln-run --module=%t.both.kiln --device=cpu --function=scale --input=3xf32=1,2,3 --expected_output=3xf32=2,4,6
// RUN: kiln-run --module=%t.both.kiln --device=hip-sim --function=scale --input=3xf32=1,2,3 --expected_output=3xf32=2,4,6
// A GPU module on the CPU: the one line says what the module has and what the device loads.
// RUN: not kiln-run --module=%t.kiln --device=cpu --function=scale --input=3xf32=1,2,3 2>&1 | FileCheck %s --check-prefix=WRONG-DEVICE
// WRONG-DEVICE: executable format 'amdgpu-hsaco'

// RUN: not kiln-compile --target=gfx1234 %s -o %t.bad.kiln 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown --target 'gfx1234'; this compiler targets: cpu, gfx942, gfx90a, gfx1100 (or a comma-separated list of them)
// RUN: not kiln-compile --target=gfx942,gfx1100 %s -o %t.bad.kiln 2>&1 | FileCheck %s --check-prefix=TWO-CHIPS
// TWO-CHIPS: error: --target names 2 GPU chips; a module holds code for at most one chip (and the CPU)
// RUN: not kiln-compile --target=cpu,cpu %s -o %t.bad.kiln 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: --target names 'cpu' twice

func.func @scale(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = arith.addf %x, %x : tensor<?xf32>
  return %r : tensor<?xf32>
}
