// The runtime tools compile .mlir through libkiln_compile_plugin.so, loaded only then
// (tools/compiler_plugin.h): kiln-run links no MLIR or LLVM, and a missing plugin is a
// clear error that says what to do, while a compiled module runs without it.
// RUN: kiln-compile %s -o %t.kiln
// RUN: env KILN_COMPILER_PLUGIN=%t.missing.so kiln-run --module=%t.kiln --input=2xf32=1,2 | FileCheck %s
// CHECK: 2xf32=2 4
// RUN: not env KILN_COMPILER_PLUGIN=%t.missing.so kiln-run --module=%s --input=2xf32=1,2 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: compiling .mlir needs the compiler plugin libkiln_compile_plugin.so, not found (looked at {{.*}}missing.so; KILN_COMPILER_PLUGIN names it); compile with kiln-compile and pass the .kiln file
// RUN: not env KILN_COMPILER_PLUGIN=%t.missing.so kiln-check %s 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: ldd "$(command -v kiln-run)" > %t.ldd && grep -q libc.so %t.ldd
// RUN: not grep -E "libMLIR|libLLVM" %t.ldd
func.func @double(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = arith.addf %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
