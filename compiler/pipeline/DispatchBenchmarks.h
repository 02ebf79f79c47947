// kiln-compile --dump-dispatch-benchmarks=DIR: each dispatch as a standalone program that
// kiln-benchmark-module runs directly (docs/tools.md, "Microbenchmarks").
#pragma once

#include "llvm/ADT/StringRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

namespace kiln::compiler {

// Writes DIR/NAME.mlir for every executable function of `executables` (the module dispatch
// formation made): a public function of the same name taking the dispatch's input bindings
// as tensors and returning its outputs, with the command line that times it in a comment.
// Compiled again it is that one dispatch. A dispatch with dynamic shapes takes tensors of
// dynamic shape (its dynamic sizes read off them) and, after them, a scalar argument per
// other push constant it reads; its command line has a "?" for each value to choose.
mlir::LogicalResult DumpDispatchBenchmarks(mlir::ModuleOp executables, llvm::StringRef dir);

}  // namespace kiln::compiler
