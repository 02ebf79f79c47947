// Building pass pipelines from upstream passes' registered names.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "mlir/Pass/PassManager.h"

namespace kiln::compiler {

// Appends the textual pipeline `text` to `pm`. The built-in pipelines are constants, so a
// typo is a programming error, reported fatally by the first test that compiles anything.
void AddPipeline(mlir::OpPassManager& pm, llvm::StringRef text);

}  // namespace kiln::compiler
