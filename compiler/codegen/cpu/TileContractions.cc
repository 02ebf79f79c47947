// Two-level tiling of matmul-like contractions on buffers: cache blocks, then register
// tiles with the remainders peeled off, so that most register tiles have static shapes.
#include "compiler/codegen/cpu/ContractionTiling.h"
#include "compiler/codegen/cpu/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_TILECONTRACTIONS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

SmallVector<OpFoldResult> AsIndexAttrs(Builder& b, ArrayRef<int64_t> sizes) {
  return llvm::map_to_vector(sizes, [&](int64_t size) -> OpFoldResult { return b.getIndexAttr(size); });
}

// The scf.for among `loops` that iterates over loop dimension `dim`, given the tile sizes
// the loops were made with (a loop for each non-zero size, in dimension order).
scf::ForOp LoopFor(ArrayRef<LoopLikeOpInterface> loops, ArrayRef<int64_t> tile_sizes, unsigned dim) {
  size_t index = 0;
  for (unsigned d = 0; d < dim; ++d) index += tile_sizes[d] != 0;
  if (index >= loops.size()) return nullptr;
  LoopLikeOpInterface loop = loops[index];
  return dyn_cast<scf::ForOp>(loop.getOperation());
}

void TileContraction(linalg::LinalgOp op, const ContractionTilePlan& plan) {
  IRRewriter rewriter(op.getContext());
  rewriter.setInsertionPoint(op);
  scf::SCFTilingOptions cache;
  cache.setTileSizes(AsIndexAttrs(rewriter, plan.cache_tile)).setInterchange(plan.cache_order);
  cache.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  FailureOr<scf::SCFTilingResult> blocks = scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), cache);
  if (failed(blocks)) return;
  rewriter.eraseOp(op);
  Operation* block = blocks->tiledOps.back();

  rewriter.setInsertionPoint(block);
  scf::SCFTilingOptions registers;
  registers.setTileSizes(AsIndexAttrs(rewriter, plan.register_tile));
  registers.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  FailureOr<scf::SCFTilingResult> tiles = scf::tileUsingSCF(rewriter, cast<TilingInterface>(block), registers);
  if (failed(tiles)) return;
  rewriter.eraseOp(block);
  tiles->tiledOps.back()->setAttr(kRegisterTileAttr, rewriter.getUnitAttr());

  // Peel the m and n loops: their main parts then have the register tile's static sizes.
  scf::ForOp m_loop = LoopFor(tiles->loops, plan.register_tile, plan.m_dim);
  scf::ForOp n_loop = LoopFor(tiles->loops, plan.register_tile, plan.n_dim);
  for (scf::ForOp loop : {m_loop, n_loop}) {
    scf::ForOp partial;
    if (loop) (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
  }
}

struct TileContractionsPass : impl::TileContractionsBase<TileContractionsPass> {
  using TileContractionsBase::TileContractionsBase;
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, ContractionTilePlan>> work;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<ContractionTilePlan> plan = PlanContractionTiles(op, vectorBits)) work.emplace_back(op, *plan);
    });
    for (auto& [op, plan] : work) TileContraction(op, plan);
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
