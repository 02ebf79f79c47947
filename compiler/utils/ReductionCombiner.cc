#include "compiler/utils/ReductionCombiner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace kiln::compiler {

using namespace mlir;

std::optional<ReductionCombiner> MatchReductionCombiner(linalg::LinalgOp op) {
  if (!op || op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0 || op->getNumRegions() != 1) {
    return std::nullopt;
  }
  Block& body = op->getRegion(0).front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || yield.getNumOperands() != 1) return std::nullopt;
  Operation* combiner = yield.getValues()[0].getDefiningOp();
  Value acc = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  if (!combiner || combiner->getBlock() != &body || combiner->getNumOperands() != 2 ||
      combiner->getNumResults() != 1 || !combiner->hasTrait<OpTrait::IsCommutative>() || !acc.hasOneUse() ||
      !llvm::is_contained(combiner->getOperands(), acc)) {
    return std::nullopt;
  }
  Value element = combiner->getOperand(0) == acc ? combiner->getOperand(1) : combiner->getOperand(0);
  if (element == acc) return std::nullopt;
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  if (!neutral) return std::nullopt;
  return ReductionCombiner{combiner, *neutral, element};
}

}  // namespace kiln::compiler
