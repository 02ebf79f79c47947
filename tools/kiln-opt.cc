// kiln-opt: mlir-opt with kiln's dialects and passes (and every upstream one the pipeline
// uses), for lit tests and debugging.
//   kiln-opt file.mlir -kiln-form-dispatches [-verify-diagnostics] [-split-input-file]
#include "compiler/pipeline/Compile.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char** argv) {
  mlir::DialectRegistry registry;
  kiln::compiler::RegisterCompilerDialects(registry);
  kiln::compiler::RegisterCompilerPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "kiln optimizer driver\n", registry));
}
