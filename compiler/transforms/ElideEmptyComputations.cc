// kiln-elide-empty-computations: ops whose results have no elements become tensor.empty.
#include "compiler/transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_ELIDEEMPTYCOMPUTATIONS
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

bool HasNoElements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 0;
}

// Whether `op` computes only results without elements and nothing else: no other effect
// than reading its operands (a destination-style op on tensors writes only its results).
bool ComputesNothing(Operation* op) {
  if (op->getNumResults() == 0 || isa<tensor::EmptyOp>(op) || op->hasTrait<OpTrait::ConstantLike>()) return false;
  if (!llvm::all_of(op->getResultTypes(), HasNoElements)) return false;
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op); dps && dps.hasPureTensorSemantics()) {
    // Its payload may not have effects of its own.
    WalkResult effects = op->walk([&](Operation* inner) {
      return inner == op || isMemoryEffectFree(inner) ? WalkResult::advance() : WalkResult::interrupt();
    });
    return !effects.wasInterrupted();
  }
  return isMemoryEffectFree(op);
}

struct ElideEmptyComputationsPass : impl::ElideEmptyComputationsBase<ElideEmptyComputationsPass> {
  void runOnOperation() override {
    SmallVector<Operation*> empty;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation* op) {
      if (!ComputesNothing(op)) return WalkResult::advance();
      empty.push_back(op);
      return WalkResult::skip();
    });
    IRRewriter rewriter(&getContext());
    for (Operation* op : empty) {
      rewriter.setInsertionPoint(op);
      SmallVector<Value> replacements;
      for (Type type : op->getResultTypes()) {
        auto tensor = cast<RankedTensorType>(type);
        replacements.push_back(
            tensor::EmptyOp::create(rewriter, op->getLoc(), tensor.getShape(), tensor.getElementType(),
                                    tensor.getEncoding()));
      }
      rewriter.replaceOp(op, replacements);
    }
  }
};

}  // namespace
}  // namespace kiln::compiler
