// Bad input to kiln-compile: a diagnostic with its location and exit code 1, never a crash.
// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s --check-prefix=BADOP
// BADOP: kiln-compile-errors.mlir:11:8: error: 'tensor.generate' is not supported by kiln
// RUN: not kiln-compile %t.missing.mlir -o %t.kiln 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: kiln-compile: cannot read '{{.*}}missing.mlir': No such file or directory
// RUN: not kiln-compile %s -o %t.kiln --no-such-flag 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: Unknown command line argument '--no-such-flag'
// RUN: not kiln-compile %s -o %t.kiln --target=tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: unknown --target 'tpu'; this compiler targets: cpu
func.func @generate(%n: index) -> tensor<?xf32> {
  %t = tensor.generate %n {
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    tensor.yield %one : f32
  } : tensor<?xf32>
  return %t : tensor<?xf32>
}
