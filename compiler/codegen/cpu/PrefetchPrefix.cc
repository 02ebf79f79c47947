#include "compiler/codegen/cpu/PrefetchPrefix.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::compiler::cpu {

using namespace mlir;

namespace {

// The lines of 64 bytes of a block's rows.
struct BlockLines {
  int64_t per_row, elements;
};

BlockLines LinesOf(const OutputBlock& block) {
  unsigned bits = cast<MemRefType>(block.base.getType()).getElementTypeBitWidth();
  int64_t elements = std::max<int64_t>(64 * 8 / bits, 1);
  return {static_cast<int64_t>(llvm::divideCeil(block.columns, elements)), elements};
}

memref::PrefetchOp PrefetchLineForWrite(OpBuilder& b, Location loc, const OutputBlock& block, Value row, Value column) {
  Value at_row = arith::AddIOp::create(b, loc, block.at[0], row);
  Value at_column = arith::AddIOp::create(b, loc, block.at[1], column);
  return memref::PrefetchOp::create(b, loc, block.base, ValueRange{at_row, at_column}, /*isWrite=*/true,
                                    /*localityHint=*/3, /*isDataCache=*/true);
}

}  // namespace

void PrefetchForWrite(RewriterBase& rewriter, Location loc, const OutputBlock& block) {
  BlockLines lines = LinesOf(block);
  for (int64_t row = 0; row < block.rows; ++row) {
    for (int64_t line = 0; line < lines.per_row; ++line) {
      PrefetchLineForWrite(rewriter, loc, block, arith::ConstantIndexOp::create(rewriter, loc, row),
                           arith::ConstantIndexOp::create(rewriter, loc, line * lines.elements));
    }
  }
}

bool PrefetchForWriteOverSteps(RewriterBase& rewriter, Location loc, const OutputBlock& block, scf::ForOp loop) {
  BlockLines lines = LinesOf(block);
  int64_t count = block.rows * lines.per_row;
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  // A loop of a dynamic number of steps (the last, partial block of k) prefetches the lines
  // its steps reach: the prefetches are hints.
  if (count <= 0 || !lower || !step || *lower != 0 || *step != 1 || (upper && *upper < count)) return false;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(loop.getBody());
  auto index = [&](int64_t i) -> Value { return arith::ConstantIndexOp::create(rewriter, loc, i); };
  Value line = arith::MinUIOp::create(rewriter, loc, loop.getInductionVar(), index(count - 1));
  Value row = arith::DivUIOp::create(rewriter, loc, line, index(lines.per_row));
  Value column = arith::MulIOp::create(rewriter, loc, arith::RemUIOp::create(rewriter, loc, line, index(lines.per_row)),
                                       index(lines.elements));
  MarkPrefetchSteps(PrefetchLineForWrite(rewriter, loc, block, row, column), count);
  return true;
}

void MarkPrefetchSteps(Operation* prefetch, int64_t steps) {
  Builder b(prefetch->getContext());
  prefetch->setAttr(kPrefetchStepsAttr, b.getI64IntegerAttr(steps));
}

void SplitPrefetchPrefix(RewriterBase& rewriter, scf::ForOp loop) {
  SmallVector<memref::PrefetchOp> marked;
  int64_t steps = 0;
  for (auto prefetch : loop.getBody()->getOps<memref::PrefetchOp>()) {
    auto attr = prefetch->getAttrOfType<IntegerAttr>(kPrefetchStepsAttr);
    if (!attr) continue;
    marked.push_back(prefetch);
    steps = std::max<int64_t>(steps, attr.getInt());
    rewriter.modifyOpInPlace(prefetch, [&] { prefetch->removeAttr(kPrefetchStepsAttr); });
  }
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (marked.empty() || !lower || !step || *step <= 0 || steps <= 0) return;
  const int64_t split = *lower + steps * *step;
  if (upper && split >= *upper) return;  // every step prefetches something new

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  Value at = arith::ConstantOp::create(rewriter, loop.getLoc(), loop.getLowerBound().getType(),
                                       rewriter.getIntegerAttr(loop.getLowerBound().getType(), split));
  // A dynamic upper bound: the first loop ends at whichever comes first.
  if (!upper) at = arith::MinSIOp::create(rewriter, loop.getLoc(), at, loop.getUpperBound());
  auto prefix = cast<scf::ForOp>(rewriter.clone(*loop.getOperation()));
  rewriter.modifyOpInPlace(prefix, [&] { prefix.getUpperBoundMutable().assign(at); });
  rewriter.modifyOpInPlace(loop, [&] {
    loop.getLowerBoundMutable().assign(at);
    loop.getInitArgsMutable().assign(prefix.getResults());
  });
  for (memref::PrefetchOp prefetch : marked) rewriter.eraseOp(prefetch);
  // The prefetches' address arithmetic, now unused, in reverse order so that each op's
  // users go before it.
  SmallVector<Operation*> body =
      llvm::map_to_vector(loop.getBody()->without_terminator(), [](Operation& op) { return &op; });
  for (Operation* op : llvm::reverse(body)) {
    if (isOpTriviallyDead(op)) rewriter.eraseOp(op);
  }
}

}  // namespace kiln::compiler::cpu
