// Access to one line of a memref along a dimension, shared by the loop lowerings of the
// iree_linalg_ext ops (LinalgExtToLoops.cc, RadixSort.cc).
#pragma once

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

// Scratch lines carved out of one heap block. One block, not a line each: glibc's dynamic
// thresholds serve blocks of a few MiB from the calling thread's heap after the first call
// and trim the heap once more than twice that is free at its top, which several freed
// lines always left, so every call on the calling thread (cpu-sync, an embedder's own
// thread) faulted them in again (17% of a 1M sort's time on an Intel Xeon VM;
// docs/PERFORMANCE.md, run AE). One block of the same size stays below the trim threshold
// and is reused call after call. Lines of other than integer, float or index elements get
// their own allocation.
struct ScratchLines {
  llvm::SmallVector<Line> lines;        // one per requested (element type, length), in order
  llvm::SmallVector<mlir::Value> heap;  // what DeallocateScratchLines frees
};
// Bytes of one element of a scratch line (memrefs of i1 take a byte per element), or 0 for
// elements other than integers, floats and indices.
int64_t ScratchElementBytes(mlir::Type element);

ScratchLines AllocateScratchLines(mlir::OpBuilder& b, mlir::Location loc,
                                  llvm::ArrayRef<std::pair<mlir::Type, mlir::Value>> shapes);
void DeallocateScratchLines(mlir::OpBuilder& b, mlir::Location loc, const ScratchLines& scratch);

// Element i of every line, and the values stored at i of every line (one per line).
inline llvm::SmallVector<mlir::Value> LoadAll(mlir::OpBuilder& b, mlir::Location loc, llvm::ArrayRef<Line> lines,
                                              mlir::Value i) {
  llvm::SmallVector<mlir::Value> values;
  for (const Line& line : lines) values.push_back(line.Load(b, loc, i));
  return values;
}
inline void StoreAll(mlir::OpBuilder& b, mlir::Location loc, llvm::ArrayRef<Line> lines, mlir::ValueRange values,
                     mlir::Value i) {
  for (auto [line, v] : llvm::zip_equal(lines, values)) line.Store(b, loc, v, i);
}

// `first ? x : y`, both scratch lines of the same type: the source or target of a
// ping-pong pass chosen at run time.
inline Line PickLine(mlir::OpBuilder& b, mlir::Location loc, mlir::Value first, const Line& x, const Line& y) {
  return Line{mlir::arith::SelectOp::create(b, loc, first, x.memref, y.memref), x.position, x.dimension};
}

// for (i = lower; i < upper; ++i) body(i).
inline void ForRange(mlir::OpBuilder& b, mlir::Location loc, mlir::Value lower, mlir::Value upper,
                     llvm::function_ref<void(mlir::OpBuilder&, mlir::Location, mlir::Value)> body) {
  mlir::scf::ForOp::create(b, loc, lower, upper, IndexConstant(b, loc, 1), mlir::ValueRange{},
                           [&](mlir::OpBuilder& nb, mlir::Location l, mlir::Value i, mlir::ValueRange) {
                             body(nb, l, i);
                             mlir::scf::YieldOp::create(nb, l);
                           });
}

// A loop nest over [0, upper[d]) for every d, innermost last.
inline void ForEachPosition(mlir::OpBuilder& b, mlir::Location loc, mlir::ValueRange upper,
                            llvm::function_ref<void(mlir::OpBuilder&, mlir::Location, mlir::ValueRange)> body) {
  llvm::SmallVector<mlir::Value> lower(upper.size(), IndexConstant(b, loc, 0));
  llvm::SmallVector<mlir::Value> steps(upper.size(), IndexConstant(b, loc, 1));
  mlir::scf::buildLoopNest(b, loc, lower, upper, steps, body);
}

// Calls `body` once per line of `memref` along `dimension`, with the line's position.
inline void ForEachLine(mlir::OpBuilder& b, mlir::Location loc, mlir::Value memref, int64_t dimension,
                        llvm::function_ref<void(mlir::OpBuilder&, mlir::Location, llvm::SmallVector<mlir::Value>)> body) {
  int64_t rank = mlir::cast<mlir::MemRefType>(memref.getType()).getRank();
  llvm::SmallVector<mlir::Value> upper;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != dimension) upper.push_back(mlir::memref::DimOp::create(b, loc, memref, d));
  }
  ForEachPosition(b, loc, upper, [&](mlir::OpBuilder& nb, mlir::Location l, mlir::ValueRange ivs) {
    llvm::SmallVector<mlir::Value> position(ivs.begin(), ivs.end());
    position.insert(position.begin() + dimension, IndexConstant(nb, l, 0));
    body(nb, l, position);
  });
}

}  // namespace kiln::compiler::cpu
