// kiln-compile as a drop-in for iree-compile: the module goes to stdout without -o (or
// with -o -), never to a terminal; remarks only with --remarks.
// RUN: kiln-compile %s -o %t.file.kiln
// RUN: kiln-compile %s > %t.stdout.kiln
// RUN: kiln-compile %s -o - > %t.dash.kiln
// RUN: cmp %t.file.kiln %t.stdout.kiln
// RUN: cmp %t.file.kiln %t.dash.kiln
// RUN: kiln-run --module=%t.stdout.kiln --input=8xf32=1 --expected_output=f32=8
// A terminal gets an error instead of binary (script gives kiln-compile a pseudo-terminal).
// RUN: not script -qec "kiln-compile %s" /dev/null | FileCheck %s --check-prefix=TTY
// TTY: kiln-compile: refusing to write a binary module to a terminal; give -o FILE.kiln or redirect stdout
// RUN: not kiln-compile %s --target=gfx942 --report=- 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: kiln-compile: --report=- and the module would both go to stdout; give -o FILE or --report=FILE
//
// A full reduction runs as one workgroup: the remark says so only when asked.
// RUN: kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: kiln-run --module=%s --input=8xf32=1 2>&1 | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: remark
// RUN: kiln-compile %s --remarks -o %t.kiln 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: kiln-compile-stdout.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: dispatch '{{.*}}' runs as one workgroup: its root has no parallel loop
// Warnings and errors are printed as before.
// RUN: not kiln-compile %s --target=tpu -o %t.kiln 2>&1 | FileCheck %s --check-prefix=ERROR
// ERROR: error: unknown --target 'tpu'

func.func @main(%a: tensor<8xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%a : tensor<8xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}
