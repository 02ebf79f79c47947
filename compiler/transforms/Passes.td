// kiln's compiler passes. mlir-tblgen turns this into pass declarations, base classes and
// registration (compiler/transforms/Passes.h.inc).
#ifndef KILN_COMPILER_TRANSFORMS_PASSES
#define KILN_COMPILER_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def CheckInputOps : Pass<"kiln-check-input-ops", "mlir::ModuleOp"> {
  let summary = "Reports every op kiln cannot compile, naming it";
  let description = [{
    The first stage of the pipeline after parsing and verification. Walks the module and
    emits an error at each op outside the supported input (the input dialects of
    compiler/input/InputDialects.h, with tensor ops restricted to the supported list), so
    that an unsupported program fails up front with every offending op and its location,
    instead of failing somewhere inside a later lowering. Ops of dialects that are not
    registered never get here: the parser rejects them.
  }];
}

#endif  // KILN_COMPILER_TRANSFORMS_PASSES
