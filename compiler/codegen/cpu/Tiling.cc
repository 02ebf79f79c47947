#include "compiler/codegen/cpu/Tiling.h"

#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"

namespace kiln::compiler::cpu {

using namespace mlir;

linalg::LinalgOp TileLinalgOp(RewriterBase& rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes,
                              ArrayRef<int64_t> order, SmallVectorImpl<LoopLikeOpInterface>* loops) {
  rewriter.setInsertionPoint(op);
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes))
      .setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  if (!order.empty()) options.setInterchange(order);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled)) return nullptr;
  rewriter.eraseOp(op);
  if (loops) loops->assign(tiled->loops.begin(), tiled->loops.end());
  return cast<linalg::LinalgOp>(tiled->tiledOps.back());
}

}  // namespace kiln::compiler::cpu
