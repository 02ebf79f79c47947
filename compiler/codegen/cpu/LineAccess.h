// Access to one line of a memref along a dimension, shared by the loop lowerings of the
// iree_linalg_ext ops (LinalgExtToLoops.cc, RadixSort.cc).
#pragma once

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace kiln::compiler::cpu {

inline mlir::Value IndexConstant(mlir::OpBuilder& b, mlir::Location loc, int64_t v) {
  return mlir::arith::ConstantIndexOp::create(b, loc, v);
}

// The elements of `memref` at `position` with entry `dimension` varying, or a whole 1-D
// scratch buffer ({buffer, {c0}, 0}).
struct Line {
  mlir::Value memref;
  llvm::SmallVector<mlir::Value> position;
  int64_t dimension = 0;

  mlir::Value Load(mlir::OpBuilder& b, mlir::Location loc, mlir::Value i) const {
    llvm::SmallVector<mlir::Value> p = position;
    p[dimension] = i;
    return mlir::memref::LoadOp::create(b, loc, memref, p);
  }
  void Store(mlir::OpBuilder& b, mlir::Location loc, mlir::Value v, mlir::Value i) const {
    llvm::SmallVector<mlir::Value> p = position;
    p[dimension] = i;
    mlir::memref::StoreOp::create(b, loc, v, memref, p);
  }
};

// A 1-D scratch line of `n` elements of `element`, on the heap (the caller deallocates).
inline Line AllocateScratchLine(mlir::OpBuilder& b, mlir::Location loc, mlir::Type element, mlir::Value n) {
  auto type = mlir::MemRefType::get({mlir::ShapedType::kDynamic}, element);
  return Line{mlir::memref::AllocOp::create(b, loc, type, mlir::ValueRange{n}), {IndexConstant(b, loc, 0)}, 0};
}

}  // namespace kiln::compiler::cpu
