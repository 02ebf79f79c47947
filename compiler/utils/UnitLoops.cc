#include "compiler/utils/UnitLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

namespace kiln::compiler {

using namespace mlir;

linalg::GenericOp DropUnitReductionLoops(RewriterBase& b, linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics()) return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned loops = op.getNumLoops();
  SmallVector<bool> unit(loops, false);
  SmallVector<AffineExpr> renumbered;
  SmallVector<utils::IteratorType> kept_iterators;
  for (unsigned d = 0; d < loops; ++d) {
    unit[d] = ranges[d] == 1 && iterators[d] == utils::IteratorType::reduction;
    renumbered.push_back(b.getAffineDimExpr(kept_iterators.size()));
    if (!unit[d]) kept_iterators.push_back(iterators[d]);
  }
  if (kept_iterators.size() == loops) return {};
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  SmallVector<Operation*> views;
  auto fail = [&]() {
    for (Operation* view : llvm::reverse(views)) b.eraseOp(view);
    return linalg::GenericOp();
  };
  for (OpOperand& operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type) return fail();
    SmallVector<AffineExpr> results;
    SmallVector<int64_t> shape;
    for (auto [i, e] : llvm::enumerate(map.getResults())) {
      auto dim_expr = dyn_cast<AffineDimExpr>(e);
      std::optional<unsigned> dim = dim_expr ? std::optional<unsigned>(dim_expr.getPosition()) : std::nullopt;
      if (dim && unit[*dim]) {
        if (type.getDimSize(i) != 1) return fail();
        continue;
      }
      for (unsigned d = 0; d < loops; ++d) {
        if (unit[d] && e.isFunctionOfDim(d)) return fail();
      }
      results.push_back(e.replaceDims(renumbered));
      shape.push_back(type.getDimSize(i));
    }
    Value value = operand.get();
    if (shape.size() != map.getNumResults()) {
      value = memref::createCanonicalRankReducingSubViewOp(b, op.getLoc(), value, shape);
      views.push_back(value.getDefiningOp());
    }
    operands.push_back(value);
    maps.push_back(AffineMap::get(kept_iterators.size(), 0, results, b.getContext()));
  }
  int64_t inputs = op.getNumDpsInputs();
  auto generic = linalg::GenericOp::create(b, op.getLoc(), TypeRange{}, ValueRange(operands).take_front(inputs),
                                           ValueRange(operands).drop_front(inputs), maps, kept_iterators);
  IRMapping mapping;
  op.getRegion().cloneInto(&generic.getRegion(), mapping);
  generic->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  SmallVector<linalg::IndexOp> indices;
  generic.walk([&](linalg::IndexOp index) { indices.push_back(index); });
  for (linalg::IndexOp index : indices) {
    b.setInsertionPoint(index);
    if (unit[index.getDim()]) {
      b.replaceOp(index, arith::ConstantIndexOp::create(b, index.getLoc(), 0));
    } else {
      b.replaceOpWithNewOp<linalg::IndexOp>(index, cast<AffineDimExpr>(renumbered[index.getDim()]).getPosition());
    }
  }
  return generic;
}


}  // namespace kiln::compiler
