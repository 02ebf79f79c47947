#include "compiler/pipeline/CompileFile.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

namespace kiln::compiler {

namespace {

// Runs `stage` on the MLIR file at `path` in a fresh context; its failure becomes an error
// carrying every diagnostic emitted, with source locations, after "`what` 'path' failed".
Status WithSourceFile(const std::string& path, std::string_view what,
                      llvm::function_ref<mlir::LogicalResult(mlir::MLIRContext&, llvm::SourceMgr&)> stage) {
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
  if (mlir::failed(stage(context, sources))) {
    while (!diagnostics.empty() && diagnostics.back() == '\n') diagnostics.pop_back();
    return InvalidArgumentError(what, " '", path, "' failed:\n", diagnostics);
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::vector<uint8_t>> CompileFile(const std::string& path, const CompileOptions& options) {
  std::vector<uint8_t> module;
  KILN_RETURN_IF_ERROR(WithSourceFile(path, "compiling", [&](mlir::MLIRContext& context, llvm::SourceMgr& sources) {
    mlir::FailureOr<std::vector<uint8_t>> bytes = CompileSource(context, sources, options);
    if (mlir::failed(bytes)) return mlir::failure();
    module = std::move(*bytes);
    return mlir::success();
  }));
  return module;
}

Status DumpDispatchBenchmarksOfRunFile(const std::string& path, const CompileOptions& options,
                                       const DispatchRuns& runs) {
  return WithSourceFile(path, "writing the dispatches of", [&](mlir::MLIRContext& context, llvm::SourceMgr& sources) {
    return DumpDispatchBenchmarksOfRun(context, sources, options, runs);
  });
}

}  // namespace kiln::compiler
