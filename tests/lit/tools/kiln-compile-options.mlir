// kiln-compile's options: --target-cpu, --dump-ir-after, --dump-dispatches.
// RUN: rm -rf %t.dir && kiln-compile %s -o %t.kiln --target-cpu=x86-64-v3 --dump-dispatches=%t.dir --dump-ir-after=kiln-form-dispatches 2> %t.ir
// RUN: FileCheck %s --check-prefix=IR < %t.ir
// IR: IR Dump After FormDispatches (kiln-form-dispatches)
// IR: kiln.dispatch @kiln_executable::@negate_dispatch_0_generic
// RUN: FileCheck %s --check-prefix=DISPATCH < %t.dir/negate_dispatch_0_generic.mlir
// DISPATCH: func.func @negate_dispatch_0_generic
// DISPATCH: arith.negf
// RUN: kiln-run --module=%t.kiln --function=negate --input=2xf32=1,-2 --expected_output=2xf32=-1,2
// RUN: not kiln-compile %s -o %t.kiln --target-cpu=pentium9000 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: unknown --target-cpu 'pentium9000'
func.func @negate(%a: tensor<2xf32>) -> tensor<2xf32> {
  %r = arith.negf %a : tensor<2xf32>
  return %r : tensor<2xf32>
}
