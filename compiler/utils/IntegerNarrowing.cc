#include "compiler/utils/IntegerNarrowing.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::compiler {
namespace {

using namespace mlir;

// Keeps the solver's states to the IR the narrowing patterns leave.
struct SolverStates : RewriterBase::Listener {
  explicit SolverStates(DataFlowSolver& solver) : solver(solver) {}
  void notifyOperationErased(Operation* op) override {
    solver.eraseState(solver.getProgramPointAfter(op));
    for (Value result : op->getResults()) solver.eraseState(result);
  }
  DataFlowSolver& solver;
};

}  // namespace

void NarrowIntegerVectorOps(Operation* root, ArrayRef<Operation*> loops, ArrayRef<Operation*> keep) {
  llvm::SmallPtrSet<Operation*, 16> kept(keep.begin(), keep.end());
  SmallVector<Operation*> ops;
  for (Operation* loop : loops) {
    loop->walk([&](Operation* op) {
      if (op->getDialect() && isa<arith::ArithDialect>(op->getDialect()) && op->getNumResults() == 1 &&
          isa<VectorType>(op->getResult(0).getType()) &&
          isa<IntegerType>(getElementTypeOrSelf(op->getResult(0).getType())) && !kept.contains(op)) {
        ops.push_back(op);
      }
    });
  }
  if (ops.empty()) return;
  DataFlowSolver solver;
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<dataflow::IntegerRangeAnalysis>();
  if (failed(solver.initializeAndRun(root))) return;
  SolverStates listener(solver);
  RewritePatternSet patterns(root->getContext());
  arith::populateIntRangeNarrowingPatterns(patterns, solver, {8, 16, 32});
  GreedyRewriteConfig config;
  config.setListener(&listener);
  (void)applyOpPatternsGreedily(ops, std::move(patterns), config);
}

}  // namespace kiln::compiler
