// Two-level tiling of matmul-like contractions on buffers: cache blocks, then register
// tiles with the remainders peeled off, so that most register tiles have static shapes.
// Right-hand operands stored [n, k] are either packed per cache block or, for few rows,
// tiled for dot products along k (ContractionTiling.h). bf16 and i8 matmuls on a target with
// their dot-product instructions are packed in groups of k per block (GroupDotProducts.h).
#include "compiler/codegen/cpu/ContractionTiling.h"
#include "compiler/codegen/cpu/GroupDotProducts.h"
#include "compiler/codegen/cpu/MatrixTileProducts.h"
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/codegen/cpu/Tiling.h"
#include "compiler/utils/NamedMatmuls.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_TILECONTRACTIONS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// The scf.for among `loops` that iterates over loop dimension `dim`, given the tile sizes
// and the order (of all dimensions; empty: dimension order) the loops were made with: a
// loop for each non-zero size, in that order.
scf::ForOp LoopFor(ArrayRef<LoopLikeOpInterface> loops, ArrayRef<int64_t> tile_sizes, unsigned dim,
                   ArrayRef<int64_t> order = {}) {
  SmallVector<int64_t> dims =
      order.empty() ? llvm::to_vector(llvm::seq<int64_t>(0, tile_sizes.size())) : llvm::to_vector(order);
  size_t index = 0;
  for (int64_t d : dims) {
    if (d == dim) break;
    index += tile_sizes[d] != 0;
  }
  if (tile_sizes[dim] == 0 || index >= loops.size()) return nullptr;
  LoopLikeOpInterface loop = loops[index];
  return dyn_cast<scf::ForOp>(loop.getOperation());
}

// Tiles each register tile marked `mark` in the peeled remainder loop `partial` again, by
// one along `dim`, moving the mark to the new tiles: a remainder of a few rows (or
// columns) becomes that many tiles of one, static in `dim`.
void TileRemainder(RewriterBase& rewriter, scf::ForOp partial, StringRef mark, unsigned dim) {
  SmallVector<linalg::LinalgOp> remainders;
  partial.walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(mark)) remainders.push_back(op);
  });
  for (linalg::LinalgOp remainder : remainders) {
    Attribute value = remainder->getAttr(mark);
    SmallVector<int64_t> sizes(remainder.getNumLoops(), 0);
    sizes[dim] = 1;
    remainder->removeAttr(mark);
    linalg::LinalgOp tile = TileLinalgOp(rewriter, remainder, sizes);
    (tile ? tile : remainder)->setAttr(mark, value);
  }
}

// Tiles `copy` (a copy or transpose of a 2-D block, after any unit batch dimension) into
// squares of `lanes` x `lanes` elements, marked as register tiles (kiln-cpu-vectorize-
// contractions turns them into vector loads, a vector.transpose for a transpose, and
// stores), and peels both loops, so that only the edges of a block that is not a multiple
// of `lanes` become loops.
void TilePackingCopy(RewriterBase& rewriter, linalg::LinalgOp copy, int64_t lanes) {
  int64_t rank = copy.getNumLoops();
  SmallVector<int64_t> sizes(rank, 1);
  sizes[rank - 2] = sizes[rank - 1] = lanes;
  SmallVector<LoopLikeOpInterface> loops;
  linalg::LinalgOp tile = TileLinalgOp(rewriter, copy, sizes, {}, &loops);
  if (!tile) return;
  tile->setAttr(kRegisterTileAttr, rewriter.getUnitAttr());
  for (unsigned dim : {rank - 2, rank - 1}) {
    scf::ForOp partial;
    if (scf::ForOp loop = LoopFor(loops, sizes, dim)) (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
  }
}

// The body of a copy into `to`: the value, widened (arith.extf) when its type differs.
std::function<void(OpBuilder&, Location, ValueRange)> YieldWidenedTo(Type to) {
  return [to](OpBuilder& b, Location loc, ValueRange args) {
    Value value = args[0];
    if (value.getType() != to) value = arith::ExtFOp::create(b, loc, to, value);
    linalg::YieldOp::create(b, loc, value);
  };
}

// A copy of `source` into `packed` (of the same rank), of the last two dimensions swapped
// with `transpose`; the values widened (arith.extf) when `packed` has a wider element type.
// Without widening, a linalg.copy or linalg.transpose; with it, the same as a generic.
linalg::LinalgOp CreatePackingCopy(OpBuilder& b, Location loc, Value source, Value packed, bool transpose) {
  int64_t rank = cast<ShapedType>(source.getType()).getRank();
  SmallVector<int64_t> permutation = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (transpose) std::swap(permutation[rank - 2], permutation[rank - 1]);
  Type from = getElementTypeOrSelf(source.getType()), to = getElementTypeOrSelf(packed.getType());
  if (from == to) {
    if (transpose) return linalg::TransposeOp::create(b, loc, source, packed, permutation);
    return linalg::CopyOp::create(b, loc, source, packed);
  }
  SmallVector<unsigned> source_dims(permutation.begin(), permutation.end());
  SmallVector<AffineMap> maps = {AffineMap::getPermutationMap(source_dims, b.getContext()),
                                 AffineMap::getMultiDimIdentityMap(rank, b.getContext())};
  return linalg::GenericOp::create(b, loc, TypeRange{}, ValueRange{source}, ValueRange{packed}, maps,
                                   SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
                                   YieldWidenedTo(to));
}

// `op` (a linalg.matmul or linalg.batch_matmul) with its input operand `operand` replaced
// by `input`, which may have another element type (a widened copy): a new op
// (RebuildNamedMatmul), `op` erased. Null for any other op, which is left as it is.
linalg::LinalgOp ReplaceMatmulInput(RewriterBase& rewriter, linalg::LinalgOp op, unsigned operand, Value input) {
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inputs = op.getDpsInputs();
  inputs[operand] = input;
  linalg::LinalgOp product = RebuildNamedMatmul(rewriter, op, inputs, op.getDpsInits());
  if (product) rewriter.eraseOp(op);
  return product;
}

// For a matmul whose left-hand operand is narrower than its output (f16 or bf16 into f32)
// and read in place by the register tiles: that operand widened once into a heap buffer of
// the output's element type, and the matmul on it. Dot-product matmuls (x, [m, k], at most
// 8 rows) would otherwise widen all of x again in every tile of columns (vcvtph2ps shares
// ports with the FMAs: M = 8 with f16 read W at a third of the streaming rate), and batch
// matmuls, whose left-hand operand is not packed, every row in every block of columns.
// With plan.spread_lhs_rows (dot-product tiles on pieces of x's rows shorter than an L1
// way), x is copied, widened or not, into rows SpreadRowsStride elements long, and the
// product reads the copy's first k of each row (a memref.subview).
// Returns `op` unchanged when there is nothing to copy.
linalg::LinalgOp CopyLeftHandOperand(RewriterBase& rewriter, linalg::LinalgOp op, const ContractionTilePlan& plan) {
  OpOperand* lhs = op.getDpsInputOperand(0);
  if (op.getMatchingIndexingMap(lhs).isFunctionOfDim(plan.n_dim)) lhs = op.getDpsInputOperand(1);
  Type wide = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  auto lhs_type = dyn_cast<MemRefType>(lhs->get().getType());
  if (!lhs_type) return op;
  const bool widen = lhs_type.getElementType() != wide && isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op);
  const int64_t rank = lhs_type.getRank();
  const bool spread = plan.spread_lhs_rows && rank >= 2 && !lhs_type.isDynamicDim(rank - 2);
  if (!widen && !spread) return op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Type element = widen ? wide : lhs_type.getElementType();
  SmallVector<int64_t> shape(lhs_type.getShape());
  SmallVector<Value> dynamic_sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (lhs_type.isDynamicDim(d)) dynamic_sizes.push_back(memref::DimOp::create(rewriter, loc, lhs->get(), d));
  }
  if (spread) {
    int64_t bytes = element.getIntOrFloatBitWidth() / 8, rows = shape[rank - 2];
    if (!lhs_type.isDynamicDim(rank - 1)) {
      shape[rank - 1] = SpreadRowsStride(rows, shape[rank - 1], bytes);
    } else {
      // The same rule on the dynamic length: the length rounded up to whole ways, plus the
      // rows' offset (SpreadRowsStride of a zero length).
      int64_t way = kL1WayBytes / bytes;
      Value length = dynamic_sizes.back();
      Value way_value = arith::ConstantIndexOp::create(rewriter, loc, way);
      Value ways = arith::CeilDivUIOp::create(rewriter, loc, length, way_value);
      Value aligned = arith::MulIOp::create(rewriter, loc, ways, way_value);
      dynamic_sizes.back() = arith::AddIOp::create(
          rewriter, loc, aligned, arith::ConstantIndexOp::create(rewriter, loc, SpreadRowsStride(rows, 0, bytes)));
    }
  }
  Value copy = memref::AllocOp::create(rewriter, loc, MemRefType::get(shape, element), dynamic_sizes,
                                       rewriter.getI64IntegerAttr(64));
  Value view = copy;
  if (spread) {
    SmallVector<OpFoldResult> zeros(rank, rewriter.getIndexAttr(0)), ones(rank, rewriter.getIndexAttr(1));
    view = memref::SubViewOp::create(rewriter, loc, copy, zeros, memref::getMixedSizes(rewriter, loc, lhs->get()),
                                     ones);
  }
  CreatePackingCopy(rewriter, loc, lhs->get(), view, /*transpose=*/false);
  linalg::LinalgOp product = op;
  if (widen) {
    product = ReplaceMatmulInput(rewriter, op, lhs->getOperandNumber(), view);
  } else {
    rewriter.modifyOpInPlace(op, [&] { lhs->set(view); });
  }
  rewriter.setInsertionPointAfter(product);
  memref::DeallocOp::create(rewriter, loc, copy);
  return product;
}

// Replaces `block`, a cache block whose right-hand operand is [batch?, k, n] or (with
// plan.transposed_rhs) [batch?, n, k], by a matmul (or batch_matmul) of the same left-hand
// operand and output with that operand copied or transposed into a [batch?, k, n] buffer
// on the stack of the block's full size (kc x nc elements: 128 to 512 deep x 2 or 4
// vectors, 16 to 128 KiB in f32, allocated once per contraction), of the output's element
// type (narrower operands are widened by the copy). The copy happens where `block` was, outside the loop
// over its rows, so every row of the left-hand operand reuses it.
linalg::LinalgOp PackRightHandBlock(RewriterBase& rewriter, linalg::LinalgOp block, const ContractionTilePlan& plan) {
  Location loc = block.getLoc();
  OpOperand *lhs = block.getDpsInputOperand(0), *rhs = block.getDpsInputOperand(1);
  if (!block.getMatchingIndexingMap(rhs).isFunctionOfDim(plan.n_dim)) std::swap(lhs, rhs);
  auto rhs_type = cast<MemRefType>(rhs->get().getType());
  int64_t rank = rhs_type.getRank();  // 2, or 3 with a batch dimension

  SmallVector<int64_t> packed_shape(rank - 2, 1);
  packed_shape.append({plan.cache_tile[plan.k_dim], plan.cache_tile[plan.n_dim]});
  auto fn = block->getParentOfType<FunctionOpInterface>();
  rewriter.setInsertionPointToStart(&fn.getFunctionBody().front());
  Type packed_element = getElementTypeOrSelf(block.getDpsInits()[0].getType());
  Value storage = memref::AllocaOp::create(rewriter, loc, MemRefType::get(packed_shape, packed_element), ValueRange{},
                                           rewriter.getI64IntegerAttr(64));

  rewriter.setInsertionPoint(block);
  SmallVector<OpFoldResult> sizes = memref::getMixedSizes(rewriter, loc, rhs->get());
  if (plan.transposed_rhs) std::swap(sizes[rank - 2], sizes[rank - 1]);
  SmallVector<OpFoldResult> zeros(rank, rewriter.getIndexAttr(0)), ones(rank, rewriter.getIndexAttr(1));
  Value packed = memref::SubViewOp::create(rewriter, loc, storage, zeros, sizes, ones);
  linalg::LinalgOp copy = CreatePackingCopy(rewriter, loc, rhs->get(), packed, plan.transposed_rhs);
  TilePackingCopy(rewriter, copy, plan.vector_length);

  rewriter.setInsertionPoint(block);
  ValueRange outputs = block.getDpsInits();
  linalg::LinalgOp product;
  if (rank == 2) {
    product = linalg::MatmulOp::create(rewriter, loc, ValueRange{lhs->get(), packed}, outputs);
  } else {
    product = linalg::BatchMatmulOp::create(rewriter, loc, ValueRange{lhs->get(), packed}, outputs);
  }
  rewriter.eraseOp(block);
  return product;
}

// The register tiles of a packed block over which the prefetches of the next block are
// spread (chosen for a prefill's 128 rows in tiles of 8; 96 of them in tiles of 6).
constexpr int64_t kPrefetchSpreadTiles = 16;
// Products of more rows than this do not prefetch the next block: its packing is then a
// small share of the time, and the prefetches' address arithmetic on every step of the
// k loop costs more. On Zen 5 (W of 16 MiB, K = N = 2048), 128 rows took 4.65 ms with
// them against 5.45, 256 rows were 6% faster, 512 rows 2%. On the Intel Xeon, 4096^3
// ran 2% faster without them (its k loop split after the output's prefetches,
// PrefetchPrefix.h). Spread over the first 32 steps of each tile instead (the loop then
// split there too), a prefill's 128-row products ran 7% slower on 1 thread than spread
// over all steps: 32 lines from memory in about as many steps exceed the core's fill
// buffers.
constexpr int64_t kMaxRowsPrefetchingNextBlock = 512;

// Emits, at a step `kk` of a register tile's k loop, a prefetch of one line of the block
// the next packing reads; see NextBlockPrefetcher.
using StepPrefetch = std::function<void(OpBuilder&, Location, Value kk)>;

// For `block`, a cache block of a 2-D right-hand operand about to be packed (a view of a
// larger buffer, iterated k, n, m): prefetches of the next block packed (at the next n, or
// after the last n the first of the next block of k), spread evenly over the k steps of
// the first `tiles` register tiles that pass the packed block, the tile's index given by
// `tile_row` (its first row among the product's rows) / `tile_rows`. With `guarded` (when
// the product may have more tiles), each step tests the tile's index and later tiles
// prefetch nothing: a profile of 4096^3, whose workgroups' rows are dynamic, had the
// address arithmetic (about 15 scalar instructions beside 24 FMAs) on every step of its
// 682 tiles per block, for lines that only the first 16 prefetch. Each prefetch is
// clamped into the buffer, so every address is valid.
// Without them, an operand beyond the last-level cache came from memory only when the
// packing read it, a block at a time, while no FMA ran: 128 x 2048 x 2048 on Zen 5 (W
// of 16 MiB) took 5.45 ms, 4.65 ms with the prefetches (the Llama prefill 10% less on 1
// thread; 256 rows 6%, 512 rows 2%). 1024^3, whose 4 MiB operand stays in L3, was 1-5%
// slower with them, so operands that fit keep none.
// Empty when the operand is no subview of a 2-D buffer (a batched one).
StepPrefetch NextBlockPrefetcher(RewriterBase& rewriter, Value block, const ContractionTilePlan& plan,
                                 Value tile_row, int64_t tile_rows, int64_t tiles, bool guarded) {
  auto view = block.getDefiningOp<memref::SubViewOp>();
  if (!view || view.getSourceType().getRank() != 2 || view.getType().getRank() != 2) return {};
  unsigned n_result = plan.transposed_rhs ? 0 : 1;
  int64_t rows = plan.cache_tile[plan.transposed_rhs ? plan.n_dim : plan.k_dim];
  int64_t columns = plan.cache_tile[plan.transposed_rhs ? plan.k_dim : plan.n_dim];
  int64_t depth = plan.cache_tile[plan.k_dim];
  int64_t element_bytes = view.getSourceType().getElementTypeBitWidth() / 8;
  if (element_bytes == 0 || element_bytes > 64) return {};
  int64_t line_elements = 64 / element_bytes;
  int64_t lines_per_row = llvm::divideCeil(columns, line_elements);
  int64_t lines_per_tile = llvm::divideCeil(rows * lines_per_row, tiles);
  Location loc = view.getLoc();
  // The next block: the next columns, or after the last ones the first of the next k.
  Value source = view.getSource();
  unsigned k_result = 1 - n_result;
  SmallVector<Value> offsets = getValueOrCreateConstantIndexOp(rewriter, loc, view.getMixedOffsets());
  auto constant = [&](int64_t value) -> Value { return arith::ConstantIndexOp::create(rewriter, loc, value); };
  Value next_n = arith::AddIOp::create(rewriter, loc, offsets[n_result], constant(plan.cache_tile[plan.n_dim]));
  Value past_last = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge, next_n,
                                          memref::DimOp::create(rewriter, loc, source, n_result));
  offsets[n_result] = arith::SelectOp::create(rewriter, loc, past_last, constant(0), next_n);
  offsets[k_result] = arith::SelectOp::create(
      rewriter, loc, past_last, arith::AddIOp::create(rewriter, loc, offsets[k_result], constant(depth)),
      offsets[k_result]);
  return [=](OpBuilder& b, Location at_loc, Value kk) {
    auto index = [&](int64_t value) -> Value { return arith::ConstantIndexOp::create(b, at_loc, value); };
    Value tile = arith::DivUIOp::create(b, at_loc, tile_row, index(tile_rows));
    OpBuilder::InsertionGuard guard(b);
    if (guarded) {
      Value prefetching = arith::CmpIOp::create(b, at_loc, arith::CmpIPredicate::ult, tile, index(tiles));
      auto only_first = scf::IfOp::create(b, at_loc, prefetching, /*withElseRegion=*/false);
      b.setInsertionPointToStart(only_first.thenBlock());
    }
    Value step_line = arith::DivUIOp::create(b, at_loc, arith::MulIOp::create(b, at_loc, kk, index(lines_per_tile)),
                                             index(depth));
    Value line = arith::AddIOp::create(b, at_loc, arith::MulIOp::create(b, at_loc, tile, index(lines_per_tile)),
                                       step_line);
    Value row = arith::DivUIOp::create(b, at_loc, line, index(lines_per_row));
    Value column = arith::MulIOp::create(b, at_loc, arith::RemUIOp::create(b, at_loc, line, index(lines_per_row)),
                                         index(line_elements));
    SmallVector<Value> within_block = {row, column}, at;
    for (auto [dim, within] : llvm::enumerate(within_block)) {
      Value last = arith::SubIOp::create(b, at_loc, memref::DimOp::create(b, at_loc, source, dim), index(1));
      at.push_back(arith::MinUIOp::create(b, at_loc, arith::AddIOp::create(b, at_loc, offsets[dim], within), last));
    }
    memref::PrefetchOp::create(b, at_loc, source, at, /*isWrite=*/false, /*localityHint=*/3, /*isDataCache=*/true);
  };
}

// The fill of a product's output, moved into its first block of k: each register tile
// fills its own output there (TileRowIntoRegisterTiles), which kiln-cpu-vectorize-
// contractions folds into the tile (its sums plus the fill's value are written without
// reading the output: the output is written once). A whole output filled before the
// product went through the cache twice: the fill took 4% of the samples of a batch matmul
// 16 x 256^3, and a 64 MiB output (4096^3) went to memory and back.
struct FirstBlockFill {
  Value value;         // the fill's scalar
  Value first;         // true in the first block of k; null when k is a single block
  bool every_tile = true;  // false once a register tile could not fill its own output
};

// Fills `output` with `fill.value` (in the first block of k) at the rewriter's insertion
// point; the fill is marked as a register tile when `tile_mark`.
Operation* CreateFirstBlockFill(RewriterBase& rewriter, Location loc, const FirstBlockFill& fill, Value output,
                                bool tile_mark) {
  OpBuilder::InsertionGuard guard(rewriter);
  scf::IfOp in_first;
  if (fill.first) {
    in_first = scf::IfOp::create(rewriter, loc, fill.first, /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(in_first.thenBlock());
  }
  auto op = linalg::FillOp::create(rewriter, loc, fill.value, output);
  if (tile_mark) op->setAttr(kRegisterTileAttr, rewriter.getUnitAttr());
  return in_first ? in_first.getOperation() : op.getOperation();
}

// Before `tile`'s k loop (`k_loop`, inside the loops over its rows and columns), the fill
// of its output in the first block of k; false when the output's view is not invariant in
// the k loop.
bool FillRegisterTile(RewriterBase& rewriter, linalg::LinalgOp tile, scf::ForOp k_loop, const FirstBlockFill& fill) {
  (void)moveLoopInvariantCode(cast<LoopLikeOpInterface>(k_loop.getOperation()));
  Value output = tile.getDpsInits()[0];
  if (!k_loop.isDefinedOutsideOfLoop(output)) return false;
  rewriter.setInsertionPoint(k_loop);
  CreateFirstBlockFill(rewriter, tile.getLoc(), fill, output, /*tile_mark=*/true);
  return true;
}

// Tiles `rows` into register tiles of the plan's columns and k = 1, iterated n, k, and
// peels the n loop, so that only the last columns of a block have a dynamic size. `rows`
// has the register tile's rows (row_count is that number: not tiled along m) or is what
// remains of a block's rows (row_count is 1: a register tile per row, static). With
// `prefetch`, each step of the k loop calls it.
void TileRowIntoRegisterTiles(RewriterBase& rewriter, linalg::LinalgOp rows, const ContractionTilePlan& plan,
                              int64_t row_count, const StepPrefetch& prefetch = {}, FirstBlockFill* fill = nullptr) {
  SmallVector<int64_t> sizes = plan.register_tile;
  sizes[plan.m_dim] = row_count == plan.register_tile[plan.m_dim] ? 0 : row_count;
  SmallVector<LoopLikeOpInterface> loops;
  linalg::LinalgOp tile = TileLinalgOp(rewriter, rows, sizes, {}, &loops);
  if (!tile) {
    if (fill) fill->every_tile = false;
    return;
  }
  tile->setAttr(kRegisterTileAttr, rewriter.getUnitAttr());
  if (fill) {
    // Before the columns' loop is peeled, so that the last columns' tile has its fill too.
    scf::ForOp tile_k_loop = LoopFor(loops, sizes, plan.k_dim);
    if (!tile_k_loop || !FillRegisterTile(rewriter, tile, tile_k_loop, *fill)) fill->every_tile = false;
  }
  if (scf::ForOp k_loop = prefetch ? LoopFor(loops, sizes, plan.k_dim) : nullptr) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(k_loop.getBody());
    prefetch(rewriter, tile.getLoc(), k_loop.getInductionVar());
  }
  scf::ForOp partial;
  if (scf::ForOp n_loop = LoopFor(loops, sizes, plan.n_dim)) {
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, n_loop, partial);
  }
}

// `op` restricted to `size` iterations of its dimension `dim` from `offset`: a new op on
// views of its operands, before `op` (which stays). Null if the op cannot be tiled.
linalg::LinalgOp SliceOfDimension(RewriterBase& rewriter, linalg::LinalgOp op, unsigned dim, OpFoldResult offset,
                                  OpFoldResult size) {
  auto tileable = cast<TilingInterface>(op.getOperation());
  SmallVector<OpFoldResult> offsets, sizes;
  for (const Range& range : tileable.getIterationDomain(rewriter)) {
    offsets.push_back(range.offset);
    sizes.push_back(range.size);
  }
  offsets[dim] = offset;
  sizes[dim] = size;
  FailureOr<TilingResult> sliced = tileable.getTiledImplementation(rewriter, offsets, sizes);
  if (failed(sliced) || sliced->tiledOps.size() != 1) return nullptr;
  return dyn_cast<linalg::LinalgOp>(sliced->tiledOps.front());
}

// The rows of a block after its last whole register tile (`last_rows`: fewer than the
// tile's rows, a count that is dynamic when the blocks of rows are not all full): a tile
// of the largest power of two below the tile's rows if that many remain, then of half
// that, and so on down to tiles of one row, so that every tile is static (6-row tiles
// leave 0-5 rows: a tile of 4, of 2 and of 1, each run when its rows are there). Tiles of
// one row each took these rows before: their k loop loads a vector of B per FMA, where a
// 4-row tile loads one per 4.
void TileLastRows(RewriterBase& rewriter, linalg::LinalgOp last_rows, const ContractionTilePlan& plan,
                  FirstBlockFill* fill) {
  const unsigned m = plan.m_dim;
  int64_t rows = static_cast<int64_t>(
      llvm::bit_floor(static_cast<uint64_t>(std::max<int64_t>(plan.register_tile[m] - 1, 1))));
  for (; rows > 1 && last_rows; rows /= 2) {
    Location loc = last_rows.getLoc();
    rewriter.setInsertionPoint(last_rows);
    OpFoldResult extent = cast<TilingInterface>(last_rows.getOperation()).getIterationDomain(rewriter)[m].size;
    std::optional<int64_t> static_extent = getConstantIntValue(extent);
    if (static_extent && *static_extent < rows) continue;
    // The group of `rows` rows, under a test of the count when it is dynamic.
    Value enough, rows_value;
    scf::IfOp branch;
    if (!static_extent) {
      rows_value = arith::ConstantIndexOp::create(rewriter, loc, rows);
      enough = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge, cast<Value>(extent), rows_value);
      branch = scf::IfOp::create(rewriter, loc, enough, /*withElseRegion=*/false);
      rewriter.setInsertionPointToStart(branch.thenBlock());
    }
    linalg::LinalgOp group = SliceOfDimension(rewriter, last_rows, m, rewriter.getIndexAttr(0), rewriter.getIndexAttr(rows));
    if (!group) {
      if (branch) rewriter.eraseOp(branch);
      return TileRowIntoRegisterTiles(rewriter, last_rows, plan, 1, {}, fill);
    }
    ContractionTilePlan group_plan = plan;  // the group has the rows of its register tiles
    group_plan.register_tile[m] = rows;
    TileRowIntoRegisterTiles(rewriter, group, group_plan, rows, {}, fill);
    if (static_extent && *static_extent == rows) {
      rewriter.eraseOp(last_rows);
      return;
    }
    rewriter.setInsertionPoint(last_rows);
    OpFoldResult rest_offset = rewriter.getIndexAttr(rows), rest_size;
    if (static_extent) {
      rest_size = rewriter.getIndexAttr(*static_extent - rows);
    } else {
      Value offset =
          arith::SelectOp::create(rewriter, loc, enough, rows_value, arith::ConstantIndexOp::create(rewriter, loc, 0));
      rest_offset = offset;
      rest_size = arith::SubIOp::create(rewriter, loc, cast<Value>(extent), offset).getResult();
    }
    linalg::LinalgOp rest = SliceOfDimension(rewriter, last_rows, m, rest_offset, rest_size);
    if (!rest) return TileRowIntoRegisterTiles(rewriter, last_rows, plan, 1, {}, fill);
    rewriter.eraseOp(last_rows);
    last_rows = rest;
  }
  if (last_rows) TileRowIntoRegisterTiles(rewriter, last_rows, plan, 1, {}, fill);
}

// The left-hand operand of a packed product (no batch) in groups of `rows` rows, copied
// once per block of k at the start of `k_loop` (before its blocks of columns) into a heap
// buffer [groups, kc, rows]: element (g * rows + i, k) of the block at [g, k, i], so that a
// register tile's rows are contiguous at each k, of element type `packed_element` (the
// output's: a narrower operand is widened by the copy). Only whole groups are copied; the
// last m % rows rows are read in place. Returns the buffer's view for the current block of k
// ([groups, depth, rows]), or null when `lhs` is not a [m, k] buffer.
Value PackLeftHandBlocks(RewriterBase& rewriter, scf::ForOp k_loop, Value lhs, Type packed_element,
                         const ContractionTilePlan& plan, int64_t rows) {
  auto lhs_type = dyn_cast<MemRefType>(lhs.getType());
  if (!lhs_type || lhs_type.getRank() != 2) return nullptr;
  Location loc = k_loop.getLoc();
  MLIRContext* ctx = rewriter.getContext();
  const int64_t depth = plan.cache_tile[plan.k_dim];
  AffineExpr s0 = getAffineSymbolExpr(0, ctx), s1 = getAffineSymbolExpr(1, ctx);
  rewriter.setInsertionPoint(k_loop);
  OpFoldResult groups = affine::makeComposedFoldedAffineApply(rewriter, loc, s0.floorDiv(rows),
                                                              {memref::getMixedSize(rewriter, loc, lhs, 0)});
  auto storage_type = MemRefType::get({ShapedType::kDynamic, depth, rows}, packed_element);
  Value storage = memref::AllocOp::create(rewriter, loc, storage_type,
                                          ValueRange{getValueOrCreateConstantIndexOp(rewriter, loc, groups)},
                                          rewriter.getI64IntegerAttr(64));
  rewriter.setInsertionPointAfter(k_loop);
  memref::DeallocOp::create(rewriter, loc, storage);

  rewriter.setInsertionPointToStart(k_loop.getBody());
  OpFoldResult first = k_loop.getInductionVar();
  // Every block is `depth` deep when that divides the operand's (static) depth.
  int64_t total_depth = lhs_type.getDimSize(1);
  OpFoldResult this_depth =
      !ShapedType::isDynamic(total_depth) && total_depth % depth == 0
          ? OpFoldResult(rewriter.getIndexAttr(depth))
          : affine::makeComposedFoldedAffineMin(
                rewriter, loc, AffineMap::get(0, 2, {getAffineConstantExpr(depth, ctx), s1 - s0}, ctx),
                {first, memref::getMixedSize(rewriter, loc, lhs, 1)});
  OpFoldResult whole_rows = affine::makeComposedFoldedAffineApply(rewriter, loc, s0 * rows, {groups});
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  Value source = memref::SubViewOp::create(rewriter, loc, lhs, {zero, first}, {whole_rows, this_depth}, {one, one});
  Value packed = memref::SubViewOp::create(rewriter, loc, storage, {zero, zero, zero},
                                           {groups, this_depth, rewriter.getIndexAttr(rows)}, {one, one, one});
  AffineExpr g = getAffineDimExpr(0, ctx), k = getAffineDimExpr(1, ctx), i = getAffineDimExpr(2, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {g * rows + i, k}, ctx), AffineMap::getMultiDimIdentityMap(3, ctx)};
  linalg::GenericOp::create(rewriter, loc, TypeRange{}, ValueRange{source}, ValueRange{packed}, maps,
                            SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
                            YieldWidenedTo(packed_element));
  return packed;
}

// Group `group` of `packed_lhs` ([groups, depth, rows]) as the [rows, depth] left-hand
// operand of a register tile's rows (strides [1, rows]).
Value PackedLeftHandRows(OpBuilder& b, Location loc, Value packed_lhs, Value group) {
  auto type = cast<MemRefType>(packed_lhs.getType());
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  SmallVector<OpFoldResult> offsets = {group, zero, zero};
  SmallVector<OpFoldResult> sizes = {one, memref::getMixedSize(b, loc, packed_lhs, 1), b.getIndexAttr(type.getDimSize(2))};
  SmallVector<OpFoldResult> strides = {one, one, one};
  int64_t depth = getConstantIntValue(sizes[1]).value_or(ShapedType::kDynamic);
  auto reduced =
      memref::SubViewOp::inferRankReducedResultType({depth, type.getDimSize(2)}, type, offsets, sizes, strides);
  Value group_view = memref::SubViewOp::create(b, loc, reduced, packed_lhs, offsets, sizes, strides);
  AffineMap transpose = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, b.getContext());
  return memref::TransposeOp::create(b, loc, group_view, AffineMapAttr::get(transpose));
}

// The linalg.fill that initialises `op`'s output just before it (its output the same
// value, nothing between them), when `op` reduces over a static, non-empty k: every output
// element is then first written by the first block of k, which can fill it itself.
linalg::FillOp FillBeforeProduct(linalg::LinalgOp op, unsigned k_dim) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  int64_t depth = op.getStaticLoopRanges()[k_dim];
  if (!fill || !fill.hasPureBufferSemantics() || fill.getDpsInits()[0] != op.getDpsInits()[0] ||
      ShapedType::isDynamic(depth) || depth <= 0) {
    return nullptr;
  }
  return fill;
}

void TileForOuterProducts(RewriterBase& rewriter, linalg::LinalgOp op, ContractionTilePlan plan,
                          int64_t vector_bits, bool f16_vectors) {
  // The output's fill moves into the first block of k (FirstBlockFill), once the blocks
  // are there: until then, a product that stays a loop nest keeps it.
  linalg::FillOp fill = FillBeforeProduct(op, plan.k_dim);
  // With AVX-512, a packed product without batch packs its left-hand operand per block of
  // k (PackLeftHandBlocks), for the register tiles of whole rows, widening it if narrow.
  // Otherwise (a batch matmul, or narrower vectors) a narrow left-hand operand is widened
  // whole first.
  const bool packs_lhs =
      plan.kernel == ContractionKernel::kPackedOuterProduct && vector_bits >= 512 && op.getNumLoops() == 3;
  if (!packs_lhs) op = CopyLeftHandOperand(rewriter, op, plan);
  // Cache blocks of the right-hand operand (batch, n, k), then blocks of rows inside them.
  SmallVector<int64_t> block_sizes = plan.cache_tile;
  block_sizes[plan.m_dim] = 0;
  Value lhs_operand;
  Type output_element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  for (OpOperand* input : op.getDpsInputOperands()) {
    if (!op.getMatchingIndexingMap(input).isFunctionOfDim(plan.n_dim)) lhs_operand = input->get();
  }
  SmallVector<LoopLikeOpInterface> cache_loops;
  linalg::LinalgOp block = TileLinalgOp(rewriter, op, block_sizes, plan.cache_order, &cache_loops);
  if (!block) return;
  Value packed_lhs;
  if (packs_lhs && lhs_operand && cast<ShapedType>(lhs_operand.getType()).getRank() == 2) {
    if (scf::ForOp k_loop = LoopFor(cache_loops, block_sizes, plan.k_dim, plan.cache_order)) {
      packed_lhs = PackLeftHandBlocks(rewriter, k_loop, lhs_operand, output_element, plan,
                                      plan.register_tile[plan.m_dim]);
    }
  }
  const ContractionTilePlan block_plan = plan;
  Value packed_block;  // the view of the right-hand operand that each packing copies
  int64_t product_rows = ShapedType::kDynamic;
  if (plan.kernel == ContractionKernel::kPackedOuterProduct) {
    OpOperand* rhs = block.getDpsInputOperand(1);
    if (!block.getMatchingIndexingMap(rhs).isFunctionOfDim(plan.n_dim)) rhs = block.getDpsInputOperand(0);
    packed_block = rhs->get();
    block = PackRightHandBlock(rewriter, block, plan);
    // The product's own dimensions (batch?, m, n, k) and the same tile sizes.
    GroupDotFeatures vectors_only;  // the packed product is planned for its element type only
    vectors_only.f16_vectors = f16_vectors;
    std::optional<ContractionTilePlan> packed =
        PlanContractionTiles(block, vector_bits, /*allow_packing=*/false, vectors_only);
    if (!packed || packed->kernel != ContractionKernel::kOuterProduct) return;  // stays a (correct) loop nest
    plan = *packed;
    product_rows = block.getStaticLoopRanges()[plan.m_dim];
  }
  SmallVector<int64_t> row_sizes(plan.cache_tile.size(), 0);
  row_sizes[plan.m_dim] = plan.cache_tile[plan.m_dim];
  SmallVector<LoopLikeOpInterface> block_loops;
  block = TileLinalgOp(rewriter, block, row_sizes, {}, &block_loops);
  if (!block) return;
  // The fill of the rows' block in the first block of k stays only if some register tile
  // could not fill its own output.
  std::optional<FirstBlockFill> first_block_fill;
  Operation* rows_fill = nullptr;
  if (fill) {
    first_block_fill = FirstBlockFill{fill.getInputs()[0], nullptr};
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(block);
    if (scf::ForOp k_loop = LoopFor(cache_loops, block_sizes, plan.k_dim, plan.cache_order)) {
      first_block_fill->first = arith::CmpIOp::create(rewriter, block.getLoc(), arith::CmpIPredicate::eq,
                                                      k_loop.getInductionVar(), k_loop.getLowerBound());
    }
    rows_fill = CreateFirstBlockFill(rewriter, block.getLoc(), *first_block_fill, block.getDpsInits()[0],
                                     /*tile_mark=*/false);
    rewriter.eraseOp(fill);
  }
  FirstBlockFill* tile_fill = first_block_fill ? &*first_block_fill : nullptr;

  // Rows of register tiles, the last rows apart, then the register tiles within them.
  SmallVector<int64_t> row_sizes_of_tile(plan.register_tile.size(), 0);
  row_sizes_of_tile[plan.m_dim] = plan.register_tile[plan.m_dim];
  SmallVector<LoopLikeOpInterface> loops;
  linalg::LinalgOp rows = TileLinalgOp(rewriter, block, row_sizes_of_tile, {}, &loops);
  if (!rows) return;
  scf::ForOp partial;
  auto m_loop = dyn_cast<scf::ForOp>(loops.front().getOperation());
  if (m_loop) (void)scf::peelForLoopAndSimplifyBounds(rewriter, m_loop, partial);
  StepPrefetch prefetch;
  auto block_loop = block_loops.empty() ? nullptr : dyn_cast<scf::ForOp>(block_loops.front().getOperation());
  bool few_rows = ShapedType::isDynamic(product_rows) || product_rows <= kMaxRowsPrefetchingNextBlock;
  if (packed_block && IsBeyondLastLevelCache(packed_block) && few_rows && m_loop && block_loop) {
    // The tiles' first row within the packed product's rows; spread over at most
    // kPrefetchSpreadTiles tiles (fewer when the rows are static and fewer).
    rewriter.setInsertionPointToStart(m_loop.getBody());
    Value tile_row = arith::AddIOp::create(rewriter, m_loop.getLoc(), block_loop.getInductionVar(),
                                           m_loop.getInductionVar());
    int64_t tile_rows = plan.register_tile[plan.m_dim];
    int64_t tiles = ShapedType::isDynamic(product_rows)
                        ? kPrefetchSpreadTiles
                        : std::clamp<int64_t>(product_rows / tile_rows, 1, kPrefetchSpreadTiles);
    bool more_tiles = ShapedType::isDynamic(product_rows) || product_rows / tile_rows > tiles;
    prefetch = NextBlockPrefetcher(rewriter, packed_block, block_plan, tile_row, tile_rows, tiles, more_tiles);
  }
  if (packed_lhs && m_loop && block_loop) {
    // The tile's rows are whole groups of the packed left-hand operand.
    Location loc = m_loop.getLoc();
    rewriter.setInsertionPoint(rows);
    Value first_row = arith::AddIOp::create(rewriter, loc, block_loop.getInductionVar(), m_loop.getInductionVar());
    Value group = arith::DivUIOp::create(
        rewriter, loc, first_row, arith::ConstantIndexOp::create(rewriter, loc, plan.register_tile[plan.m_dim]));
    OpOperand* lhs = rows.getDpsInputOperand(0);
    if (rows.getMatchingIndexingMap(lhs).isFunctionOfDim(plan.n_dim)) lhs = rows.getDpsInputOperand(1);
    Value packed_rows = PackedLeftHandRows(rewriter, loc, packed_lhs, group);
    if (getElementTypeOrSelf(lhs->get().getType()) == getElementTypeOrSelf(packed_rows.getType())) {
      rewriter.modifyOpInPlace(rows, [&] { lhs->set(packed_rows); });
    } else if (linalg::LinalgOp replaced = ReplaceMatmulInput(rewriter, rows, lhs->getOperandNumber(), packed_rows)) {
      rows = replaced;  // widened while packed
    }
  }
  TileRowIntoRegisterTiles(rewriter, rows, plan, plan.register_tile[plan.m_dim], prefetch, tile_fill);
  if (partial) {
    linalg::LinalgOp last_rows;
    partial.walk([&](linalg::LinalgOp op) { last_rows = op; });
    if (last_rows) TileLastRows(rewriter, last_rows, plan, tile_fill);
  }
  if (rows_fill && tile_fill->every_tile) rewriter.eraseOp(rows_fill);
}

// Register tiles of a group of rows by a few columns over the whole depth or a block of
// it, iterated n, m (after k, for blocks; the tiles then prefetch W, within chunks of
// plan.chunk_rows of W's rows when the plan has them);
// the columns that remain after the last full tile are tiles of one column each, so that
// every tile has static m and n sizes. Those prefetch nothing when W is chunked (their
// view is not the chunk's, which kiln.prefetch_next_chunk expects).
void TileForDotProducts(RewriterBase& rewriter, linalg::LinalgOp op, const ContractionTilePlan& plan) {
  op = CopyLeftHandOperand(rewriter, op, plan);
  bool chunked = false;
  if (plan.chunk_rows > 0) {
    SmallVector<int64_t> chunk(op.getNumLoops(), 0);
    chunk[plan.n_dim] = plan.chunk_rows;
    if (linalg::LinalgOp rows = TileLinalgOp(rewriter, op, chunk)) {
      op = rows;
      chunked = true;
    }
  }
  SmallVector<LoopLikeOpInterface> loops;
  linalg::LinalgOp tile = TileLinalgOp(rewriter, op, plan.register_tile, plan.cache_order, &loops);
  if (!tile) return;
  tile->setAttr(kDotProductTileAttr, rewriter.getI64IntegerAttr(plan.vector_length));
  if (chunked) {
    tile->setAttr(kPrefetchNextChunkAttr,
                  rewriter.getDenseI64ArrayAttr({plan.chunk_rows, plan.register_tile[plan.k_dim]}));
  } else if (plan.prefetch_rows > 0) {
    tile->setAttr(kPrefetchRowsAttr, rewriter.getI64IntegerAttr(plan.prefetch_rows));
  }
  scf::ForOp n_loop = LoopFor(loops, plan.register_tile, plan.n_dim, plan.cache_order);
  scf::ForOp partial;
  if (n_loop && plan.register_tile[plan.n_dim] > 1 &&
      succeeded(scf::peelForLoopAndSimplifyBounds(rewriter, n_loop, partial)) && partial) {
    TileRemainder(rewriter, partial, kDotProductTileAttr, plan.n_dim);
    partial.walk([](linalg::LinalgOp remainder) { remainder->removeAttr(kPrefetchNextChunkAttr); });
  }
}

// Tiles `op` into tiles of `rows` along `m_dim`, marked `mark`, and peels the loop: the
// last rows become tiles of one row, marked too, so that every tile has static rows.
void TileRowsAndMark(RewriterBase& rewriter, linalg::LinalgOp op, unsigned m_dim, int64_t rows, StringRef mark) {
  SmallVector<int64_t> sizes(op.getNumLoops(), 0);
  sizes[m_dim] = rows;
  SmallVector<LoopLikeOpInterface> loops;
  linalg::LinalgOp tile = TileLinalgOp(rewriter, op, sizes, {}, &loops);
  if (!tile) return;
  tile->setAttr(mark, rewriter.getUnitAttr());
  scf::ForOp partial;
  if (scf::ForOp m_loop = LoopFor(loops, sizes, m_dim)) (void)scf::peelForLoopAndSimplifyBounds(rewriter, m_loop, partial);
  if (partial) TileRemainder(rewriter, partial, mark, m_dim);
}

// The contraction over the k of `op` that fill whole groups of `group`; the last k % group
// become a contraction of their own (left to loops: at most 3 k per output).
linalg::LinalgOp SplitOffPartialGroup(RewriterBase& rewriter, linalg::LinalgOp op, unsigned k_dim, int64_t group) {
  int64_t depth = op.getStaticLoopRanges()[k_dim];
  if (!ShapedType::isDynamic(depth) && depth % group == 0) return op;
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  SmallVector<Range> domain = cast<TilingInterface>(op.getOperation()).getIterationDomain(rewriter);
  AffineExpr s0 = getAffineSymbolExpr(0, rewriter.getContext());
  OpFoldResult whole = affine::makeComposedFoldedAffineApply(rewriter, loc, s0 - s0 % group, {domain[k_dim].size});
  auto [whole_groups, rest] = linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()), k_dim, whole);
  (void)rest;
  return whole_groups ? cast<linalg::LinalgOp>(whole_groups.getOperation()) : linalg::LinalgOp();
}

// kPackedGroupDotProduct with AMX tiles (MatrixTileProducts.h) on `block`, a cache block of
// all rows x kc x at most plan.cache_tile[n] columns (of `all_columns`, the contraction's
// static n or dynamic, which bounds the buffer): the block's whole 32-column pieces
// are packed side by side ([pieces, kc / g, 32, g], on the heap: up to 512 KiB, more than
// a stack should hold; i8 adds their column sums when some rows take vector tiles), then
// the rows pass in tiles of 32 (kiln.matrix_tile), each tile taking every piece in turn,
// so that its rows of A stay in L1 while the packed block streams from L2. The rows after
// the last 32 take vector tiles of 8 (kiln.group_dot_tile) on the same pieces; the columns
// after the last 32 stay a contraction (loops).
void LayOutMatrixTileBlock(RewriterBase& rewriter, linalg::LinalgOp block, const ContractionTilePlan& plan,
                           int64_t all_columns) {
  Location loc = block.getLoc();
  MLIRContext* ctx = rewriter.getContext();
  OpOperand *lhs_operand = block.getDpsInputOperand(0), *rhs_operand = block.getDpsInputOperand(1);
  if (!block.getMatchingIndexingMap(rhs_operand).isFunctionOfDim(plan.n_dim)) std::swap(lhs_operand, rhs_operand);
  Value lhs = lhs_operand->get(), rhs = rhs_operand->get(), out = block.getDpsInits()[0];
  const int64_t g = GroupSize(plan.group_kind);
  const int64_t depth = plan.cache_tile[plan.k_dim];
  if (ShapedType::isDynamic(all_columns)) all_columns = plan.cache_tile[plan.n_dim];
  const int64_t most_pieces =
      std::max<int64_t>(std::min(plan.cache_tile[plan.n_dim], all_columns) / kGroupDotColumns, 1);
  Type element = getElementTypeOrSelf(rhs.getType());
  Type accumulator = getElementTypeOrSelf(out.getType());
  const int64_t all_rows = cast<MemRefType>(out.getType()).getDimSize(0);
  // The column sums undo vpdpbusd's offset in the vector tiles of the rows after the last
  // 32; AMX tiles do not need them, so they are left out when there are no such rows.
  const bool i8_sums = plan.group_kind == GroupDotKind::kI8Quads &&
                       (ShapedType::isDynamic(all_rows) || all_rows % kMatrixTileRows != 0);

  auto fn = block->getParentOfType<func::FuncOp>();
  rewriter.setInsertionPointToStart(&fn.getFunctionBody().front());
  auto storage_type = MemRefType::get({most_pieces, depth / g, kGroupDotColumns, g}, element);
  Value storage = memref::AllocOp::create(rewriter, loc, storage_type, ValueRange{}, rewriter.getI64IntegerAttr(64));
  Value sums_storage;
  if (i8_sums) {
    sums_storage = memref::AllocaOp::create(rewriter, loc, MemRefType::get({most_pieces, kGroupDotColumns}, accumulator),
                                            ValueRange{}, rewriter.getI64IntegerAttr(64));
  }
  fn.walk([&](func::ReturnOp ret) {
    rewriter.setInsertionPoint(ret);
    memref::DeallocOp::create(rewriter, loc, storage);
  });

  rewriter.setInsertionPoint(block);
  auto index = [&](int64_t i) -> OpFoldResult { return rewriter.getIndexAttr(i); };
  auto value = [&](OpFoldResult v) { return getValueOrCreateConstantIndexOp(rewriter, loc, v); };
  AffineExpr s0 = getAffineSymbolExpr(0, ctx);
  OpFoldResult rows = memref::getMixedSize(rewriter, loc, out, 0);
  OpFoldResult columns = memref::getMixedSize(rewriter, loc, out, 1);
  OpFoldResult pieces = affine::makeComposedFoldedAffineApply(rewriter, loc, s0.floorDiv(kGroupDotColumns), {columns});
  OpFoldResult whole_rows =
      affine::makeComposedFoldedAffineApply(rewriter, loc, s0 - s0 % kMatrixTileRows, {rows});
  OpFoldResult whole_columns =
      affine::makeComposedFoldedAffineApply(rewriter, loc, s0 - s0 % kGroupDotColumns, {columns});
  // Piece `piece` of the packed block and of the sums, and of A, B (or W) and C.
  auto piece_views = [&](OpBuilder& b, Value piece) {
    SmallVector<OpFoldResult> offsets = {piece, index(0), index(0), index(0)};
    SmallVector<OpFoldResult> sizes = {index(1), index(depth / g), index(kGroupDotColumns), index(g)};
    SmallVector<OpFoldResult> ones(4, index(1));
    auto type = memref::SubViewOp::inferRankReducedResultType({depth / g, kGroupDotColumns, g}, storage_type, offsets,
                                                              sizes, ones);
    Value packed = memref::SubViewOp::create(b, loc, type, storage, offsets, sizes, ones);
    Value sums;
    if (i8_sums) {
      auto sums_type = cast<MemRefType>(sums_storage.getType());
      SmallVector<OpFoldResult> s_offsets = {piece, index(0)}, s_sizes = {index(1), index(kGroupDotColumns)};
      auto reduced = memref::SubViewOp::inferRankReducedResultType({kGroupDotColumns}, sums_type, s_offsets, s_sizes,
                                                                   {index(1), index(1)});
      sums = memref::SubViewOp::create(b, loc, reduced, sums_storage, s_offsets, s_sizes, {index(1), index(1)});
    }
    return std::make_pair(packed, sums);
  };
  // (Plain arithmetic: inside a loop's body builder the loop is not yet whole, and affine
  // folding would look for its owner.)
  auto first_column = [&](OpBuilder& b, Value piece) -> OpFoldResult {
    return arith::MulIOp::create(b, loc, piece, arith::ConstantIndexOp::create(b, loc, kGroupDotColumns)).getResult();
  };
  auto columns_of = [&](OpBuilder& b, Value source, OpFoldResult first, OpFoldResult count) -> Value {
    if (plan.transposed_rhs) {
      return memref::SubViewOp::create(b, loc, source, {first, index(0)}, {count, index(depth)}, {index(1), index(1)});
    }
    return memref::SubViewOp::create(b, loc, source, {index(0), first}, {index(depth), count}, {index(1), index(1)});
  };
  Value zero = value(index(0)), one = value(index(1));
  scf::ForOp::create(rewriter, loc, zero, value(pieces), one, ValueRange{},
                     [&](OpBuilder& b, Location, Value piece, ValueRange) {
                       auto [packed, sums] = piece_views(b, piece);
                       CreateGroupPack(b, loc, columns_of(b, rhs, first_column(b, piece), index(kGroupDotColumns)),
                                       packed, plan.transposed_rhs);
                       if (sums) CreateGroupColumnSums(b, loc, packed, sums);
                       scf::YieldOp::create(b, loc);
                     });
  auto product_on = [&](OpBuilder& b, Value piece, OpFoldResult first_row, OpFoldResult row_count) {
    auto [packed, sums] = piece_views(b, piece);
    Value a = memref::SubViewOp::create(b, loc, lhs, {first_row, index(0)}, {row_count, index(depth)},
                                        {index(1), index(1)});
    Value c = memref::SubViewOp::create(b, loc, out, {first_row, first_column(b, piece)},
                                        {row_count, index(kGroupDotColumns)}, {index(1), index(1)});
    return CreateGroupProduct(b, loc, a, packed, sums, c);
  };
  scf::ForOp::create(rewriter, loc, zero, value(whole_rows), value(index(kMatrixTileRows)), ValueRange{},
                     [&](OpBuilder& b, Location, Value row, ValueRange) {
                       scf::ForOp::create(b, loc, zero, value(pieces), one, ValueRange{},
                                          [&](OpBuilder& nb, Location, Value piece, ValueRange) {
                                            product_on(nb, piece, row, index(kMatrixTileRows))
                                                ->setAttr(kMatrixTileAttr, nb.getUnitAttr());
                                            scf::YieldOp::create(nb, loc);
                                          });
                       scf::YieldOp::create(b, loc);
                     });
  OpFoldResult rows_left =
      affine::makeComposedFoldedAffineApply(rewriter, loc, s0 % kMatrixTileRows, {rows});
  SmallVector<linalg::GenericOp> row_remainders;
  if (!isConstantIntValue(rows_left, 0)) {
    scf::ForOp::create(rewriter, loc, zero, value(pieces), one, ValueRange{},
                       [&](OpBuilder& b, Location, Value piece, ValueRange) {
                         row_remainders.push_back(product_on(b, piece, whole_rows, rows_left));
                         scf::YieldOp::create(b, loc);
                       });
  }
  OpFoldResult columns_left =
      affine::makeComposedFoldedAffineApply(rewriter, loc, s0 % kGroupDotColumns, {columns});
  if (!isConstantIntValue(columns_left, 0)) {
    Value c = memref::SubViewOp::create(rewriter, loc, out, {index(0), whole_columns}, {rows, columns_left},
                                        {index(1), index(1)});
    SmallVector<Value> operands = {nullptr, nullptr, c};
    operands[lhs_operand->getOperandNumber()] = lhs;
    operands[rhs_operand->getOperandNumber()] = columns_of(rewriter, rhs, whole_columns, columns_left);
    clone(rewriter, block, TypeRange{}, operands);
  }
  for (linalg::GenericOp remainder : row_remainders) {
    TileRowsAndMark(rewriter, remainder, 0, kGroupDotRows, kGroupDotTileAttr);
  }
  rewriter.eraseOp(block);
}

// Moves `block_fill` (the first block of k's fill of a block's output, a view of `root`,
// in `scope`) into the block's register tiles (kGroupDotTileAttr), one fill before each,
// when they are the only ops in `scope` that write `root`; otherwise leaves it.
void FillGroupDotTiles(RewriterBase& rewriter, Operation* scope, Operation* block_fill, Value root,
                       const FirstBlockFill& fill) {
  SmallVector<linalg::LinalgOp> tiles;
  bool only_tiles = true;
  scope->walk([&](linalg::LinalgOp op) {
    if (block_fill->isAncestor(op)) return;
    for (Value init : op.getDpsInits()) {
      if (!isa<MemrefValue>(init) || memref::skipViewLikeOps(cast<MemrefValue>(init)) != root) continue;
      if (op->hasAttr(kGroupDotTileAttr)) {
        tiles.push_back(op);
      } else {
        only_tiles = false;
      }
    }
  });
  if (!only_tiles || tiles.empty()) return;
  for (linalg::LinalgOp tile : tiles) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(tile);
    CreateFirstBlockFill(rewriter, tile.getLoc(), fill, tile.getDpsInits()[0], /*tile_mark=*/false);
  }
  rewriter.eraseOp(block_fill);
}

// kPackedGroupDotProduct: cache blocks iterated n, k (the last partial block of columns
// apart, left to loops), each packed (GroupDotProducts.h), and the product's rows in
// register tiles of kGroupDotRows (the last ones of one row). With AMX tiles, blocks
// iterated k, n, each laid out by LayOutMatrixTileBlock.
void TileForGroupDotProducts(RewriterBase& rewriter, linalg::LinalgOp op, const ContractionTilePlan& plan) {
  op = SplitOffPartialGroup(rewriter, op, plan.k_dim, GroupSize(plan.group_kind));
  if (!op) return;
  const int64_t all_columns = op.getStaticLoopRanges()[plan.n_dim];
  linalg::FillOp fill = plan.matrix_tiles ? nullptr : FillBeforeProduct(op, plan.k_dim);
  SmallVector<LoopLikeOpInterface> loops;
  linalg::LinalgOp block = TileLinalgOp(rewriter, op, plan.cache_tile, plan.cache_order, &loops);
  if (!block) return;
  if (plan.matrix_tiles) {
    LayOutMatrixTileBlock(rewriter, block, plan, all_columns);
    return;
  }
  // The output's fill moves into the first block of k: before each block (so that the
  // peeled last columns keep it), then, when every register tile of a whole block can
  // fill its own output (which kiln-cpu-vectorize-contractions folds into the tile's
  // writes), before each tile instead.
  Operation* block_fill = nullptr;
  FirstBlockFill first_block_fill;
  if (fill && !loops.empty()) {
    first_block_fill.value = fill.getInputs()[0];
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(block);
    if (scf::ForOp k_loop = LoopFor(loops, plan.cache_tile, plan.k_dim, plan.cache_order)) {
      first_block_fill.first = arith::CmpIOp::create(rewriter, block.getLoc(), arith::CmpIPredicate::eq,
                                                     k_loop.getInductionVar(), k_loop.getLowerBound());
    }
    block_fill = CreateFirstBlockFill(rewriter, block.getLoc(), first_block_fill, block.getDpsInits()[0],
                                      /*tile_mark=*/false);
    rewriter.eraseOp(fill);
  }
  Operation* block_scope = block->getParentOp();
  Value output_root = isa<MemrefValue>(block.getDpsInits()[0])
                          ? memref::skipViewLikeOps(cast<MemrefValue>(block.getDpsInits()[0]))
                          : Value();
  scf::ForOp partial;
  if (scf::ForOp n_loop = LoopFor(loops, plan.cache_tile, plan.n_dim, plan.cache_order)) {
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, n_loop, partial);
  }
  linalg::GenericOp product = PackBlockForGroupDots(rewriter, block, plan);
  TileRowsAndMark(rewriter, product, 0, kGroupDotRows, kGroupDotTileAttr);
  if (block_fill && output_root) FillGroupDotTiles(rewriter, block_scope, block_fill, output_root, first_block_fill);
}

struct TileContractionsPass : impl::TileContractionsBase<TileContractionsPass> {
  using TileContractionsBase::TileContractionsBase;
  void runOnOperation() override {
    std::vector<std::pair<linalg::LinalgOp, ContractionTilePlan>> work;
    getOperation().walk([&](linalg::LinalgOp op) {
      GroupDotFeatures group_dots{dotBf16, dotI8, dotBf16 && amxBf16, dotI8 && amxI8, f16Vectors};
      if (std::optional<ContractionTilePlan> plan =
              PlanContractionTiles(op, vectorBits, true, group_dots, l1DataBytes)) {
        work.emplace_back(op, *plan);
      }
    });
    IRRewriter rewriter(&getContext());
    for (auto& [op, plan] : work) {
      if (plan.kernel == ContractionKernel::kDotProduct) {
        TileForDotProducts(rewriter, op, plan);
      } else if (plan.kernel == ContractionKernel::kPackedGroupDotProduct) {
        TileForGroupDotProducts(rewriter, op, plan);
      } else {
        TileForOuterProducts(rewriter, op, plan, vectorBits, f16Vectors);
      }
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
