// kiln-opt: mlir-opt with kiln's input dialects and passes, for lit tests and debugging.
//   kiln-opt file.mlir -kiln-check-input-ops [-verify-diagnostics] [-split-input-file]
#include "compiler/dialect/KilnDialect.h"
#include "compiler/input/InputDialects.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "compiler/transforms/Passes.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char** argv) {
  mlir::DialectRegistry registry;
  kiln::compiler::RegisterInputDialects(registry);
  registry.insert<kiln::compiler::KilnDialect, mlir::bufferization::BufferizationDialect, mlir::memref::MemRefDialect>();
  mlir::registerTransformsPasses();  // canonicalize, cse, ... for pipelines in tests
  kiln::compiler::registerKilnPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "kiln optimizer driver\n", registry));
}
