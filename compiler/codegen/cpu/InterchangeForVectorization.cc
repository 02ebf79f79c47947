#include "compiler/codegen/cpu/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_INTERCHANGEFORVECTORIZATION
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// The loop order with the output's contiguous loop last, or nothing if `op` does not fit.
std::optional<SmallVector<unsigned>> InnermostContiguousOrder(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0) return std::nullopt;
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (output.getNumResults() == 0) return std::nullopt;
  auto last = dyn_cast<AffineDimExpr>(output.getResults().back());
  if (!last) return std::nullopt;
  unsigned d = last.getPosition();
  unsigned loops = op.getNumLoops();
  if (d == loops - 1 || op.getIteratorTypesArray()[d] != utils::IteratorType::parallel) return std::nullopt;
  bool streams_an_input = llvm::any_of(op.getDpsInputOperands(), [&](OpOperand* input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    return map.getNumResults() > 0 && map.getResults().back() == last;
  });
  if (!streams_an_input) return std::nullopt;
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < loops; ++i) {
    if (i != d) order.push_back(i);
  }
  order.push_back(d);
  return order;
}

struct InterchangeForVectorizationPass : impl::InterchangeForVectorizationBase<InterchangeForVectorizationPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() && InnermostContiguousOrder(op)) candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      SmallVector<unsigned> order = *InnermostContiguousOrder(op);
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized = linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized)) continue;  // stays as it is: still correct
        generic = *generalized;
      }
      (void)linalg::interchangeGenericOp(rewriter, generic, order);
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
