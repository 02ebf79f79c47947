// kiln-run as a drop-in for iree-run-module: its output format, a module piped from
// kiln-compile, the only function called without --function, IREE's device names,
// every --output and --expected_output form, and exit codes.
// RUN: kiln-compile %s -o %t.kiln
//
// Results print as iree-run-module prints them; --function may be omitted (one export).
// RUN: kiln-run --module=%t.kiln '--input=2x2xf32=[1 2][3 4]' --input=5 | FileCheck %s --check-prefix=PRINT
// PRINT:      EXEC @main
// PRINT-NEXT: result[0]: hal.buffer_view
// PRINT-NEXT: 2x2xf32=[2 4][6 8]
// PRINT-NEXT: result[1]: i32=6
// PRINT-NOT:  {{.}}
// Floats print as C's %G; long tensors are elided.
// RUN: kiln-run --module=%t.kiln --input=2x2xf32=1e-7,0.25,1e9,-3 --input=0 | FileCheck %s --check-prefix=FLOATS
// FLOATS: 2x2xf32=[2E-07 0.5][2E+09 -6]
// RUN: kiln-run --module=%t.kiln --input=2x2xf32=1 --input=0 --output_max_element_count=3 | FileCheck %s --check-prefix=ELIDE
// ELIDE: 2x2xf32=[2 2][2...]
//
// A module on stdin: kiln-compile writes to stdout without -o (or with -o -).
// RUN: kiln-compile %s | kiln-run --module=- --input=2x2xf32=1 --input=1 | FileCheck %s --check-prefix=PIPE
// RUN: kiln-compile %s -o - | kiln-run --module=- --function=main --input=2x2xf32=1 --input=1 | FileCheck %s --check-prefix=PIPE
// PIPE: result[0]: hal.buffer_view
// PIPE-NEXT: 2x2xf32=[2 2][2 2]
// PIPE-NEXT: result[1]: i32=2
// Stdin that is not a module: text, other bytes, nothing.
// RUN: not kiln-run --module=- < %s 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: kiln-run: INVALID_ARGUMENT: --module=-: stdin holds text, not a compiled module; compile it first (kiln-compile x.mlir | kiln-run --module=-) or pass the source as --module=x.mlir
// RUN: %python -c "import sys; sys.stdout.buffer.write(bytes(range(256)))" | not kiln-run --module=- 2>&1 | FileCheck %s --check-prefix=BINARY
// BINARY: kiln-run: INVALID_ARGUMENT: not a kiln module{{.*}}; --module=-: stdin is not a kiln module
// RUN: not kiln-run --module=- < /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: kiln-run: INVALID_ARGUMENT: --module=-: stdin is empty; expected a compiled module
//
// IREE's device names.
// RUN: kiln-run --module=%t.kiln --device=local-task --input=2x2xf32=1 --input=1 --expected_output=2x2xf32=2 --expected_output=2
// RUN: kiln-run --module=%t.kiln --device=local-sync --input=2x2xf32=1 --input=1 --expected_output=2x2xf32=2 --expected_output=2
// RUN: kiln-run --module=%t.kiln --device=local-task:// --input=2x2xf32=1 --input=1 --expected_output=2x2xf32=2 --expected_output=2
// RUN: kiln-run --list_devices | FileCheck %s --check-prefix=ALIASES
// ALIASES: aliases (IREE's device names): local-task = cpu local-sync = cpu-sync amdgpu = hip
// RUN: not kiln-run --module=%t.kiln --device=local-sync:3 2>&1 | FileCheck %s --check-prefix=ALIAS-INDEX
// ALIAS-INDEX: kiln-run: NOT_FOUND: the 'cpu-sync' driver has one device, 'cpu-sync:0'; there is no device 3
// RUN: %if no-amd-gpu %{ not kiln-run --module=%t.kiln --device=amdgpu 2>&1 | FileCheck %s --check-prefix=AMDGPU %}
// AMDGPU: kiln-run: UNAVAILABLE: {{.*}}while creating a 'amdgpu' device
// RUN: not kiln-run --module=%t.kiln --device=vulkan 2>&1 | FileCheck %s --check-prefix=UNKNOWN-DEVICE
// UNKNOWN-DEVICE: kiln-run: NOT_FOUND: unknown device driver 'vulkan'; available: cpu, cpu-sync, hip, hip-sim, local-task (cpu), local-sync (cpu-sync), amdgpu (hip)
//
// --output: '' ignores a result, '-' prints it without its "result[i]: ", files.
// RUN: kiln-run --module=%t.kiln --input=2x2xf32=1 --input=1 --output= --output=- | FileCheck %s --check-prefix=DASH
// DASH:      EXEC @main
// DASH-NEXT: i32=2
// DASH-NOT:  {{.}}
// RUN: rm -f %t.*.npy %t.*.bin
// RUN: kiln-run --module=%t.kiln --input=2x2xf32=1 --input=1 --output=@%t.r.npy --output=+%t.r.npy
// RUN: kiln-run --module=%t.kiln --input=2x2xf32=2 --input=41 --output=+%t.r.npy --output=
// RUN: %python -c "import numpy as np; f = open('%t.r.npy', 'rb'); print([np.load(f).tolist() for _ in range(3)], np.load('%t.r.npy').dtype)" | FileCheck %s --check-prefix=NPY
// NPY: {{\[}}{{\[}}[2.0, 2.0], [2.0, 2.0]], 2, {{\[}}[4.0, 4.0], [4.0, 4.0]]] float32
// RUN: kiln-run --module=%t.kiln --input=2x2xf32=1 --input=7 --output=@%t.r.bin --output=+%t.r.bin
// RUN: kiln-run --module=%t.kiln --input=2x2xf32=1 --input=9 --output=+%t.r.bin --output=+%t.r.bin
// RUN: %python -c "import numpy as np; a = np.fromfile('%t.r.bin', dtype=np.int32); print(a.size, a.view(np.float32)[0], a[4], a[9])" | FileCheck %s --check-prefix=BIN
// BIN: 10 2.0 8 10
// Inputs read the same files back: @ the first array, + the next, * all remaining.
// RUN: kiln-run --module=%t.kiln --input=@%t.r.npy --input=0 --expected_output=2x2xf32=4 --expected_output=1
// RUN: not kiln-run --module=%t.kiln --input=2x2xf32=@%t.r.bin --input=0 --expected_output=2x2xf32=4 --expected_output=1 2>&1 | FileCheck %s --check-prefix=RAWREST
// RAWREST: kiln-run: INVALID_ARGUMENT: '{{.*}}r.bin' holds 40 bytes but the inputs read from it take 16; check their shapes
//
// --expected_output: results are compared, not printed; every mismatch is reported.
// RUN: kiln-run --module=%t.kiln '--input=2x2xf32=[1 2][3 4]' --input=5 '--expected_output=2x2xf32=[2 4][6 8]' --expected_output=6 | FileCheck %s --check-prefix=SUCCESS
// SUCCESS:      EXEC @main
// SUCCESS-NEXT: [SUCCESS] all function outputs matched their expected values.
// SUCCESS-NOT:  result[
// RUN: kiln-run --module=%t.kiln --input=2x2xf32=1 --input=5 '--expected_output=(ignored)' --expected_output=6 | FileCheck %s --check-prefix=SUCCESS
// RUN: kiln-run --module=%t.kiln --input=2x2xf32=1 --input=1 --output=@%t.e.npy --output=
// RUN: kiln-run --module=%t.kiln --input=2x2xf32=1 --input=1 --expected_output=@%t.e.npy --expected_output=2 | FileCheck %s --check-prefix=SUCCESS
// RUN: not kiln-run --module=%t.kiln '--input=2x2xf32=[1 2][3 4]' --input=5 --expected_output=2x2xf32=0 --expected_output=7 | FileCheck %s --check-prefix=FAILED
// FAILED:      [FAILED] result[0]: element at index 0 (2) does not match the expected (0); expected that the view is equal to contents of a view of 2x2xf32
// FAILED-NEXT:   expected:
// FAILED-NEXT: 2x2xf32=[0 0][0 0]
// FAILED-NEXT:   actual:
// FAILED-NEXT: 2x2xf32=[2 4][6 8]
// FAILED-NEXT: [FAILED] result[1]: i32 values differ
// FAILED-NEXT:   expected: 7
// FAILED-NEXT:   actual: 6
// FAILED-NOT:  SUCCESS
// RUN: not kiln-run --module=%t.kiln --input=2x2xf32=1 --input=5 --expected_output=2x2xf32=2 --expected_output=6.5 2>&1 | FileCheck %s --check-prefix=BADEXPECT
// BADEXPECT: kiln-run: INVALID_ARGUMENT: '6.5': expected an integer scalar; in --expected_output 1
// IREE's thresholds: an absolute tolerance per float width.
// RUN: not kiln-run --module=%t.kiln --input=2x2xf32=1 --input=0 --expected_output=2x2xf32=2.1 --expected_output=1
// RUN: kiln-run --module=%t.kiln --input=2x2xf32=1 --input=0 --expected_output=2x2xf32=2.1 --expected_output=1 --expected_f32_threshold=0.2
// RUN: not kiln-run --module=%t.kiln --input=2x2xf32=1 --input=0 --expected_output=2x2xf32=2.1 --expected_output=1 --expected_f64_threshold=0.2
//
// Exit codes: 0, 1 for a mismatch, 1 for an error.
// RUN: sh -c "kiln-run --module=%t.kiln --input=2x2xf32=1 --input=0 > /dev/null; echo exit=\$?" | FileCheck %s --check-prefix=EXIT0
// EXIT0: exit=0
// RUN: sh -c "kiln-run --module=%t.kiln --input=2x2xf32=1 --input=0 --expected_output=2x2xf32=0 --expected_output=1 > /dev/null; echo exit=\$?" | FileCheck %s --check-prefix=EXIT1
// RUN: sh -c "kiln-run --module=%t.kiln --input=2x2xf32=1 2> /dev/null; echo exit=\$?" | FileCheck %s --check-prefix=EXIT1
// RUN: sh -c "kiln-run --bogus 2> /dev/null; echo exit=\$?" | FileCheck %s --check-prefix=EXIT1
// EXIT1: exit=1
// RUN: not kiln-run --module=%t.kiln --input=2x2xf32=1 2>&1 | FileCheck %s --check-prefix=ARGS
// ARGS: kiln-run: INVALID_ARGUMENT: the function takes 2 inputs (ref, i32), 1 were given; for function 'main'
//
// --print_statistics goes to stderr, as iree-run-module's does.
// RUN: kiln-run --module=%t.kiln --input=2x2xf32=1 --input=0 --print_statistics 2> %t.stats | FileCheck %s --check-prefix=NOSTATS
// NOSTATS-NOT: statistics
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// STATS: [statistics] dispatches: 1,

// Values omitted from an input are zeros; another shape is a metadata mismatch, in
// iree-run-module's words.
// RUN: kiln-run --module=%t.kiln --input=2x2xf32 --input=0 --expected_output=2x2xf32=0 --expected_output=1 | FileCheck %s --check-prefix=ZEROS
// ZEROS: [SUCCESS] all function outputs matched their expected values.
// RUN: not kiln-run --module=%t.kiln --input=2x2xf32 --input=5 --expected_output=4xf32=0 --expected_output=6 | FileCheck %s --check-prefix=META
// META: [FAILED] result[0]: metadata is 2x2xf32; expected that the view matches 4xf32

func.func @main(%x: tensor<2x2xf32>, %n: i32) -> (tensor<2x2xf32>, i32) {
  %r = arith.addf %x, %x : tensor<2x2xf32>
  %c1 = arith.constant 1 : i32
  %m = arith.addi %n, %c1 : i32
  return %r, %m : tensor<2x2xf32>, i32
}
