// kiln-compile --dump-dispatch-benchmarks=DIR: each dispatch as a standalone program that
// kiln-benchmark-module runs directly (docs/tools.md, "Microbenchmarks").
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

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

// The push-constant words of each dispatch of one call, as kiln-benchmark-module
// --dispatches records them: per executable function name, the distinct word lists it
// ran with, in the order they first ran.
using DispatchRuns = std::map<std::string, std::vector<std::vector<uint32_t>>, std::less<>>;

// Writes each dispatch of `runs` as DumpDispatchBenchmarks does, with every push constant
// replaced by the value it ran with, so that its arguments and results have the concrete
// shapes of that call and its command line needs no "?": DIR/NAME.mlir for the first word
// list of NAME, DIR/NAME.2.mlir, DIR/NAME.3.mlir, ... for the others. A dispatch the call
// did not make is not written; one `executables` lacks, or words that do not fit its
// signature, are errors.
mlir::LogicalResult DumpDispatchBenchmarksOfRun(mlir::ModuleOp executables, llvm::StringRef dir,
                                               const DispatchRuns& runs);

}  // namespace kiln::compiler
