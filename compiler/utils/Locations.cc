#include "compiler/utils/Locations.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

namespace kiln::compiler {

std::string LocationString(mlir::Location loc) {
  std::string result;
  loc->walk([&](mlir::Location inner) {
    if (auto file = mlir::dyn_cast<mlir::FileLineColLoc>(inner)) {
      result = (file.getFilename().str() + ":" + std::to_string(file.getLine()) + ":" +
                std::to_string(file.getColumn()));
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return result;
}

std::string IndexCheckSite(mlir::Operation* op, llvm::StringRef what) {
  std::string site = what.str() + " of " + op->getName().getStringRef().str();
  std::string where = LocationString(op->getLoc());
  return where.empty() ? site : site + " (" + where + ")";
}

std::string SliceOffsetSite(mlir::Operation* op, int64_t dimension, llvm::StringRef operand) {
  return IndexCheckSite(op, "the slice offset into dimension " + std::to_string(dimension) + " of the " + operand.str());
}

}  // namespace kiln::compiler
