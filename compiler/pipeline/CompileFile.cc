#include "compiler/pipeline/CompileFile.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

namespace kiln::compiler {

StatusOr<std::vector<uint8_t>> CompileFile(const std::string& path, const CompileOptions& options) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path);
  if (!file) return NotFoundError("cannot read '", path, "': ", file.getError().message());
  mlir::DialectRegistry registry;
  RegisterCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  mlir::SourceMgrDiagnosticHandler handler(sources, &context, os);
  mlir::FailureOr<std::vector<uint8_t>> module = CompileSource(context, sources, options);
  if (mlir::failed(module)) {
    while (!diagnostics.empty() && diagnostics.back() == '\n') diagnostics.pop_back();
    return InvalidArgumentError("compiling '", path, "' failed:\n", diagnostics);
  }
  return std::move(*module);
}

}  // namespace kiln::compiler
