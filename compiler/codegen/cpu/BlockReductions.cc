// Blocked float sums: each block of a long reduction dimension is summed into a fresh
// accumulator and the block sums are added level by level, so that no accumulator adds
// more than a few thousand values in sequence (kiln-cpu-block-reductions).
#include "compiler/codegen/cpu/BlockReductions.h"

#include "compiler/codegen/cpu/Passes.h"
#include "compiler/codegen/cpu/Tiling.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_BLOCKREDUCTIONS
#include "compiler/codegen/cpu/Passes.h.inc"

using namespace mlir;

namespace {

// The static extent of every output dimension's block: the tile size of the loop it
// iterates over, or the loop's whole static extent when that loop is not tiled.
SmallVector<int64_t> AccumulatorShape(linalg::LinalgOp op, ArrayRef<int64_t> tile_sizes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> shape;
  for (AffineExpr result : op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults()) {
    unsigned dim = cast<AffineDimExpr>(result).getPosition();
    shape.push_back(tile_sizes[dim] != 0 ? tile_sizes[dim] : ranges[dim]);
  }
  return shape;
}

// Tiles `op` by `tile_sizes` in `order` and gives the tile a fresh accumulator of
// `shape` (a stack buffer allocated once per function, viewed with the tile's output
// sizes): set to zero before the tile, added to the tile's output after it. Returns the
// tile, or null (and `op` unchanged) if tiling fails.
linalg::LinalgOp TileIntoFreshAccumulator(RewriterBase& rewriter, linalg::LinalgOp op, ArrayRef<int64_t> tile_sizes,
                                          ArrayRef<int64_t> order, ArrayRef<int64_t> shape) {
  linalg::LinalgOp tile = TileLinalgOp(rewriter, op, tile_sizes, order);
  if (!tile) return nullptr;
  Location loc = tile.getLoc();
  OpOperand* init = tile.getDpsInitOperand(0);
  Value output = init->get();
  Type element_type = cast<MemRefType>(output.getType()).getElementType();

  auto fn = tile->getParentOfType<FunctionOpInterface>();
  rewriter.setInsertionPointToStart(&fn.getFunctionBody().front());
  Value accumulator = memref::AllocaOp::create(rewriter, loc, MemRefType::get(shape, element_type), ValueRange{},
                                               rewriter.getI64IntegerAttr(64));
  rewriter.setInsertionPoint(tile);
  int64_t rank = static_cast<int64_t>(shape.size());
  if (rank > 0) {
    SmallVector<OpFoldResult> zeros(rank, rewriter.getIndexAttr(0)), ones(rank, rewriter.getIndexAttr(1));
    accumulator = memref::SubViewOp::create(rewriter, loc, accumulator, zeros,
                                            memref::getMixedSizes(rewriter, loc, output), ones);
  }
  Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element_type));
  linalg::FillOp::create(rewriter, loc, zero, accumulator);
  rewriter.modifyOpInPlace(tile, [&] { init->set(accumulator); });

  rewriter.setInsertionPointAfter(tile);
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  linalg::GenericOp::create(rewriter, loc, ValueRange{accumulator}, ValueRange{output},
                            ArrayRef<AffineMap>{identity, identity},
                            SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
                            [](OpBuilder& b, Location body_loc, ValueRange args) {
                              Value sum = arith::AddFOp::create(b, body_loc, args[1], args[0]);
                              linalg::YieldOp::create(b, body_loc, sum);
                            });
  return tile;
}

// Elements per innermost block along reduction loop `dim` of `op`.
int64_t InnermostBlock(linalg::LinalgOp op, unsigned dim) {
  return dim + 1 == op.getNumLoops() ? kSumBlock : kSumBlockAcrossLanes;
}

}  // namespace

std::optional<unsigned> BlockedSumDimension(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1) return std::nullopt;
  OpOperand* init = op.getDpsInitOperand(0);
  if (!isa<FloatType>(getElementTypeOrSelf(init->get().getType()))) return std::nullopt;
  if (!op.getMatchingIndexingMap(init).isProjectedPermutation()) return std::nullopt;
  BlockArgument accumulator = op.getMatchingBlockArgument(init);
  if (!accumulator.hasOneUse()) return std::nullopt;
  auto add = dyn_cast<arith::AddFOp>(*accumulator.getUsers().begin());
  if (!add || op.getBlock()->getTerminator()->getOperand(0) != add.getResult()) return std::nullopt;
  SmallVector<unsigned> reduction_dims;
  op.getReductionDims(reduction_dims);
  unsigned dim = reduction_dims.front();
  int64_t extent = op.getStaticLoopRanges()[dim];
  if (!ShapedType::isDynamic(extent) && extent <= InnermostBlock(op, dim)) return std::nullopt;
  return dim;
}

bool BlockSum(RewriterBase& rewriter, linalg::LinalgOp op) {
  std::optional<unsigned> reduction = BlockedSumDimension(op);
  if (!reduction) return false;
  unsigned dim = *reduction;
  int64_t loops = op.getNumLoops();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();

  // Block sizes, outermost level first: those smaller than the dimension.
  SmallVector<int64_t> levels;
  for (int64_t size = InnermostBlock(op, dim); size < kSumCapacity; size *= kSumLevelFactor) {
    if (ShapedType::isDynamic(ranges[dim]) || ranges[dim] > size) levels.insert(levels.begin(), size);
  }

  // The outermost level also tiles the parallel loops: those outside the reduction loop
  // by one (each line is summed on its own, as before), those inside it so that the
  // accumulator holds at most kSumAccumulatorElements: innermost loops whole while they
  // are static and fit, the next one in pieces, the rest by one.
  SmallVector<int64_t> sizes(loops, 0), order;
  for (int64_t d = 0; d < dim; ++d) {
    sizes[d] = 1;
    order.push_back(d);
  }
  int64_t kept = 1;
  bool split = false;
  for (int64_t d = loops - 1; d > static_cast<int64_t>(dim); --d) {
    if (split) {
      sizes[d] = 1;
    } else if (ShapedType::isDynamic(ranges[d]) || kept * ranges[d] > kSumAccumulatorElements) {
      sizes[d] = std::max<int64_t>(1, kSumAccumulatorElements / kept);
      split = true;
    } else {
      kept *= ranges[d];
    }
  }
  for (int64_t d = dim + 1; d < loops; ++d) order.push_back(d);
  order.push_back(dim);
  sizes[dim] = levels.front();
  SmallVector<int64_t> shape = AccumulatorShape(op, sizes);

  linalg::LinalgOp tile = TileIntoFreshAccumulator(rewriter, op, sizes, order, shape);
  for (int64_t size : ArrayRef(levels).drop_front()) {
    if (!tile) break;
    SmallVector<int64_t> level_sizes(loops, 0);
    level_sizes[dim] = size;
    tile = TileIntoFreshAccumulator(rewriter, tile, level_sizes, {}, shape);
  }
  return true;
}

namespace {

struct BlockReductionsPass : impl::BlockReductionsBase<BlockReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> sums;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (BlockedSumDimension(op)) sums.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : sums) BlockSum(rewriter, op);
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
