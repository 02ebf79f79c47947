// kiln-run --list_devices: every driver, with its devices or why it has none.
// RUN: kiln-run --list_devices | FileCheck %s --check-prefix=LIST
// LIST: cpu: host CPU
// LIST-NEXT:   cpu:0  host CPU
// LIST: hip: AMD GPUs through the HSA runtime (ROCm)
// LIST-NEXT: {{^  (unavailable: UNAVAILABLE: .+|hip:0  gfx.+)$}}
// LIST: hip-sim: simulated AMD GPUs
// LIST-NEXT:   hip-sim:0  gfx942, 304 compute units, wave64, 64 KiB LDS
//
// Without a GPU, --device=hip fails at once with one line saying why.
// RUN: %if no-amd-gpu %{ not kiln-run --module=%s --device=hip > %t.hip 2>&1 %}
// RUN: %if no-amd-gpu %{ FileCheck %s --check-prefix=HIP < %t.hip %}
// RUN: %if no-amd-gpu %{ wc -l < %t.hip | FileCheck %s --check-prefix=ONE-LINE %}
// HIP: kiln-run: UNAVAILABLE: {{(hsa_init of 'libhsa-runtime64.so.1' failed|cannot load the HSA runtime)}}
// ONE-LINE: {{^ *1$}}
//
// A device index the driver lacks, and a malformed one.
// RUN: not kiln-run --module=%s --device=hip-sim:7 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: kiln-run: NOT_FOUND: the 'hip-sim' driver has 1 device(s); there is no device 7
// RUN: not kiln-run --module=%s --device=cpu:1 2>&1 | FileCheck %s --check-prefix=CPU1
// CPU1: kiln-run: NOT_FOUND: the 'cpu' driver has one device, 'cpu:0'; there is no device 1
// RUN: not kiln-run --module=%s --device=cpu:x 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: kiln-run: INVALID_ARGUMENT: device name 'cpu:x' has a bad index 'x'
//
// A .mlir module is compiled for the device it runs on: gfx942 code for hip-sim.
// RUN: kiln-run --module=%s --device=hip-sim --input=4xf32=1,2,3,4 --expected_output=4xf32=2,4,6,8
// hip-sim runs GPU executables; a module compiled for the CPU is refused naming both formats.
// RUN: kiln-compile %s -o %t.cpu.kiln
// RUN: not kiln-run --module=%t.cpu.kiln --device=hip-sim --input=4xf32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: kiln-run: INVALID_ARGUMENT: executable format 'elf-x86_64' is not supported by the hip driver; it loads 'amdgpu-hsaco'

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = arith.addf %a, %a : tensor<4xf32>
  return %b : tensor<4xf32>
}
