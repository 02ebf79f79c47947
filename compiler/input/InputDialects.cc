#include "compiler/input/InputDialects.h"

#include "llvm/ADT/StringSet.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include "compiler/input/chlo/ChloDialect.h"
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/input/stablehlo/StablehloDialect.h"

namespace kiln::compiler {

void RegisterInputDialects(mlir::DialectRegistry& registry) {
  registry.insert<mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::tensor::TensorDialect, mlir::tosa::TosaDialect>();
  iree::RegisterIreeInputDialects(registry);
  stablehlo::RegisterStablehloDialect(registry);
  chlo::RegisterChloDialect(registry);
}

bool IsSupportedInputOp(mlir::Operation* op) {
  static const llvm::StringSet<> kWholeDialects = {"builtin", "func", "arith", "math", "linalg", "scf",
                                                   "cf",      "tosa", "util",  "flow", "check",
                                                   "iree_linalg_ext", "stablehlo", "chlo"};
  static const llvm::StringSet<> kTensorOps = {
      "tensor.empty",         "tensor.extract",    "tensor.insert",  "tensor.extract_slice",
      "tensor.insert_slice",  "tensor.collapse_shape", "tensor.expand_shape", "tensor.pad",
      "tensor.yield",         "tensor.concat",     "tensor.cast",    "tensor.dim",
      "tensor.splat",         "tensor.from_elements", "tensor.bitcast", "tensor.reshape"};
  llvm::StringRef dialect = op->getName().getDialectNamespace();
  if (kWholeDialects.contains(dialect)) return true;
  if (dialect == "tensor") return kTensorOps.contains(op->getName().getStringRef());
  return false;
}

const char* SupportedInputSummary() {
  return "func, arith, math, linalg, scf, cf, tosa, IREE's util, flow.tensor, check and iree_linalg_ext ops, stablehlo and chlo (the ops kiln-lower-stablehlo lowers), and tensor.{empty, extract, insert, extract_slice, "
         "insert_slice, collapse_shape, expand_shape, pad, concat, cast, dim, splat, from_elements, bitcast, "
         "reshape}";
}

}  // namespace kiln::compiler
