#include "compiler/codegen/cpu/ContractionTiling.h"
#include "compiler/codegen/cpu/Passes.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_VECTORIZECONTRACTIONS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// Keeps the accumulator of a register tile in registers across `loop` (the k loop): its
// transfer_read moves before the loop, its transfer_write after it, and the vector is
// carried as an iteration argument. Applies when the loop body writes memory only through
// that one transfer_write, at loop-invariant indices of a loop-invariant view, and reads
// nothing else of the same buffer. Upstream hoisting refuses views (it cannot rule out
// aliasing through them); here distinct bindings are known not to alias (they are
// `llvm.noalias`), so comparing root buffers is enough.
void HoistAccumulator(RewriterBase& rewriter, scf::ForOp loop) {
  vector::TransferWriteOp write;
  for (Operation& op : loop.getBody()->without_terminator()) {
    if (auto candidate = dyn_cast<vector::TransferWriteOp>(op)) {
      if (write) return;
      write = candidate;
      continue;
    }
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || effects.hasEffect<MemoryEffects::Write>() || effects.hasEffect<MemoryEffects::Allocate>() ||
        effects.hasEffect<MemoryEffects::Free>()) {
      if (!isPure(&op)) return;
    }
  }
  if (!write || !loop.isDefinedOutsideOfLoop(write.getBase()) ||
      !llvm::all_of(write.getIndices(), [&](Value v) { return loop.isDefinedOutsideOfLoop(v); })) {
    return;
  }
  Value root = memref::skipViewLikeOps(cast<MemrefValue>(write.getBase()));
  vector::TransferReadOp read;
  for (Operation& op : loop.getBody()->without_terminator()) {
    auto other = dyn_cast<vector::TransferReadOp>(op);
    if (!other) {
      if (isa<memref::LoadOp, vector::LoadOp>(op)) return;  // conservatively: a read we do not track
      continue;
    }
    if (memref::skipViewLikeOps(cast<MemrefValue>(other.getBase())) != root) continue;
    if (read || other.getBase() != write.getBase() || !llvm::equal(other.getIndices(), write.getIndices(),
                     [](Value a, Value b) { return isEqualConstantIntOrValue(a, b); }) ||
        other.getVectorType() != write.getVectorType() || other.getPermutationMap() != write.getPermutationMap() ||
        other.getMask() || write.getMask()) {
      return;
    }
    read = other;
  }
  if (!read) return;
  rewriter.moveOpBefore(read, loop);
  FailureOr<LoopLikeOpInterface> carried = loop.replaceWithAdditionalYields(
      rewriter, read.getResult(), /*replaceInitOperandUsesInLoop=*/true,
      [&](OpBuilder&, Location, ArrayRef<BlockArgument>) { return SmallVector<Value>{write.getValueToStore()}; });
  if (failed(carried)) return;
  Operation* new_loop = carried->getOperation();
  rewriter.moveOpAfter(write, new_loop);
  rewriter.modifyOpInPlace(write, [&] { write.getValueToStoreMutable().assign(new_loop->getResults().back()); });
}

struct VectorizeContractionsPass : impl::VectorizeContractionsBase<VectorizeContractionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> tiles;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kRegisterTileAttr)) tiles.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp tile : tiles) {
      tile->removeAttr(kRegisterTileAttr);
      // Remainder tiles (dynamic sizes) stay linalg ops and become loops.
      if (tile.hasDynamicShape()) continue;
      rewriter.setInsertionPoint(tile);
      FailureOr<linalg::VectorizationResult> vectorized =
          linalg::vectorize(rewriter, tile, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
                            /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
                            /*assumeDynamicDimsMatchVecSizes=*/false, /*createNamedContraction=*/true);
      if (succeeded(vectorized)) rewriter.eraseOp(tile);
    }
    // The accumulators' reads and writes leave the k loop once the views they go through
    // have been hoisted out of it.
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
      fn.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
      SmallVector<scf::ForOp> loops;
      fn.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops) HoistAccumulator(rewriter, loop);
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
