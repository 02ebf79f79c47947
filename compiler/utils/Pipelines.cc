#include "compiler/utils/Pipelines.h"

#include "llvm/Support/ErrorHandling.h"
#include "mlir/Pass/PassRegistry.h"

namespace kiln::compiler {

void AddPipeline(mlir::OpPassManager& pm, llvm::StringRef text) {
  if (mlir::failed(mlir::parsePassPipeline(text, pm, llvm::errs()))) {
    llvm::report_fatal_error(llvm::Twine("kiln: invalid built-in pass pipeline: ") + text);
  }
}

}  // namespace kiln::compiler
