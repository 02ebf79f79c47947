// Which reductions the GPU's workgroup reduction strategy takes (WorkgroupReduction.h).
#include "compiler/codegen/gpu/WorkgroupReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace kiln::compiler::gpu {

using namespace mlir;

std::optional<WorkgroupReductionDims> MatchWorkgroupReduction(linalg::LinalgOp op) {
  if (!op || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1) {
    return std::nullopt;
  }
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) { return map.isProjectedPermutation(); })) {
    return std::nullopt;
  }
  Type input = getElementTypeOrSelf(op.getDpsInputOperand(0)->get().getType());
  Type output = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  if (input != output || !input.isIntOrFloat()) return std::nullopt;
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  AffineMap input_map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  if (input_map.getNumResults() == 0 ||
      cast<AffineDimExpr>(input_map.getResults().back()).getPosition() != reductions.front()) {
    return std::nullopt;
  }
  // The body: yield combiner(in, acc), in either operand order.
  Block& body = op->getRegion(0).front();
  if (body.getOperations().size() != 2) return std::nullopt;
  Operation* combiner = &body.front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (combiner->getNumOperands() != 2 || combiner->getNumResults() != 1 ||
      yield.getValues()[0] != combiner->getResult(0) || !combiner->hasTrait<OpTrait::IsCommutative>()) {
    return std::nullopt;
  }
  Value in = body.getArgument(0), acc = body.getArgument(1);
  bool operands = (combiner->getOperand(0) == in && combiner->getOperand(1) == acc) ||
                  (combiner->getOperand(0) == acc && combiner->getOperand(1) == in);
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  if (!operands || !neutral) return std::nullopt;
  return WorkgroupReductionDims{reductions.front(), combiner, *neutral};
}

}  // namespace kiln::compiler::gpu
