#include "compiler/codegen/cpu/BoundedTiles.h"
#include "compiler/codegen/cpu/ContractionTiling.h"
#include "compiler/codegen/cpu/GroupDotProducts.h"
#include "compiler/codegen/cpu/MatrixTileProducts.h"
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/codegen/cpu/PrefetchPrefix.h"
#include "compiler/codegen/cpu/TransposedSums.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_VECTORIZECONTRACTIONS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// The block that `read` covers, when it is a 2-D in-bounds read of a memref (not a bounded
// tile's, whose lines past the edge may be another worker's).
std::optional<OutputBlock> BlockOf(vector::TransferReadOp read) {
  auto memref_type = dyn_cast<MemRefType>(read.getBase().getType());
  VectorType vector_type = read.getVectorType();
  if (!memref_type || memref_type.getRank() != 2 || vector_type.getRank() != 2 || read.getMask() ||
      read.hasOutOfBoundsDim() || !read.getPermutationMap().isMinorIdentity()) {
    return std::nullopt;
  }
  return OutputBlock{read.getBase(), llvm::to_vector<2>(read.getIndices()), vector_type.getDimSize(0),
                     vector_type.getDimSize(1)};
}

// A memref.prefetch, or an scf.if without results whose regions hold only prefetches and
// pure ops (a prefetch some steps or tiles make, TileContractions.cc).
bool IsPrefetchHint(Operation& op) {
  if (isa<memref::PrefetchOp>(op)) return true;
  auto branch = dyn_cast<scf::IfOp>(op);
  if (!branch || branch.getNumResults() != 0) return false;
  WalkResult walk = branch->walk([&](Operation* inner) {
    if (inner == branch.getOperation() || isa<memref::PrefetchOp, scf::YieldOp>(inner) || isPure(inner)) {
      return WalkResult::advance();
    }
    return WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

// What the last op with effects before `loop` wrote to `read`'s vector: the fill of a
// register tile's output in the first block of k (TileContractions.cc), a
// vector.transfer_write of the same vector, maybe under an scf.if (its condition: the
// first block).
struct InitialFill {
  Operation* op;    // the write or the scf.if around it
  Value condition;  // null: the write is unconditional
  Value value;      // the vector written, defined before `op`
};

std::optional<InitialFill> InitialFillBefore(RewriterBase& rewriter, scf::ForOp loop, vector::TransferReadOp read) {
  Operation* before = loop->getPrevNode();
  while (before && isPure(before)) before = before->getPrevNode();  // the accumulators' zeros, views
  if (!before) return std::nullopt;
  InitialFill fill{before, nullptr, nullptr};
  auto write = dyn_cast<vector::TransferWriteOp>(before);
  if (auto branch = dyn_cast<scf::IfOp>(before)) {
    if (branch.getNumResults() != 0 || !branch.getElseRegion().empty()) return std::nullopt;
    fill.condition = branch.getCondition();
    for (Operation& op : branch.thenBlock()->without_terminator()) {
      // (A vectorised fill also reads its output, unused until canonicalisation.)
      if (auto candidate = dyn_cast<vector::TransferWriteOp>(op); candidate && !write) {
        write = candidate;
      } else if (!isPure(&op) && !isOpTriviallyDead(&op)) {
        return std::nullopt;
      }
    }
  }
  if (!write || write.getMask() || read.getMask() || write.getBase() != read.getBase() ||
      write.getVectorType() != read.getVectorType() || write.getPermutationMap() != read.getPermutationMap() ||
      !llvm::equal(write.getIndices(), read.getIndices(),
                   [](Value a, Value b) { return isEqualConstantIntOrValue(a, b); })) {
    return std::nullopt;
  }
  fill.value = write.getValueToStore();
  if (Operation* def = fill.value.getDefiningOp(); def && before->isAncestor(def)) {
    // The splat (a vector.broadcast of the fill's scalar) moves out of the scf.if.
    if (!isPure(def) || !llvm::all_of(def->getOperands(), [&](Value v) {
          return !v.getDefiningOp() ? !before->isAncestor(v.getParentBlock()->getParentOp())
                                    : !before->isAncestor(v.getDefiningOp());
        })) {
      return std::nullopt;
    }
    rewriter.moveOpBefore(def, before);
  }
  return fill;
}

// Keeps the accumulator of a register tile in registers across `loop` (the k loop): the
// vector is carried as an iteration argument and its transfer_write moves after the loop;
// its transfer_read moves before the loop, or, for a float sum of products, after it (the
// sum then starts from zero and the output is added once; an output filled just before
// the loop is not read back: the fill's value is added, InitialFillBefore). Applies when
// the loop body writes memory only through that one transfer_write (prefetches, hints,
// may be there too), at loop-invariant indices of a loop-invariant view, and reads
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
    if (IsPrefetchHint(op)) continue;  // it neither reads nor writes the accumulator
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
  // A sum of products (a vector.contract that adds into the read) starts from zero and
  // adds the output once after the loop: the output's load is then off the FMAs' critical
  // path (an output block that comes from L3 stalled the first FMAs of every register
  // tile), and the out-of-order core issues it early, as its address is known.
  auto contract = write.getValueToStore().getDefiningOp<vector::ContractionOp>();
  Type element = read.getVectorType().getElementType();
  bool add_after = contract && contract->getParentOp() == loop.getOperation() &&
                   contract.getKind() == vector::CombiningKind::ADD && contract.getAcc() == read.getResult() &&
                   isa<FloatType>(element);
  rewriter.setInsertionPoint(loop);
  Value init = add_after ? arith::ConstantOp::create(rewriter, read.getLoc(), read.getVectorType(),
                                                     rewriter.getZeroAttr(read.getVectorType()))
                               .getResult()
                         : read.getResult();
  if (!add_after) rewriter.moveOpBefore(read, loop);
  // An output beyond a core's L2 comes from L3 or memory for every block of k: its tile
  // is prefetched during the first steps of the k loop (at the tile's start when the loop
  // is shorter than the tile's lines), so it has arrived by the end. 4096^3 on Zen 5: 2-8%
  // faster. 1024^3 (a 4 MiB output in L3): on an Intel Xeon with a 2 MiB L2, the loads of
  // the output after the k loop took 10.6% of the samples, 4.6% with the prefetches at
  // the tile's start (about 5% faster); on Zen 5 it had measured 1-2% slower, within that
  // machine's noise. Spread over the steps, 1024^3 ran another 6-8% faster on the Xeon
  // (1 thread; the same on 2), where the 24 prefetches at the start had taken 6.5% of the
  // samples.
  std::optional<OutputBlock> block = add_after && IsBeyondPrivateCache(root) ? BlockOf(read) : std::nullopt;
  if (block && !PrefetchForWriteOverSteps(rewriter, read.getLoc(), *block, loop)) {
    PrefetchForWrite(rewriter, read.getLoc(), *block);
  }
  FailureOr<LoopLikeOpInterface> carried = loop.replaceWithAdditionalYields(
      rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder&, Location, ArrayRef<BlockArgument>) { return SmallVector<Value>{write.getValueToStore()}; });
  if (failed(carried)) return;
  auto new_loop = cast<scf::ForOp>(carried->getOperation());
  rewriter.replaceUsesWithIf(read.getResult(), new_loop.getRegionIterArgs().back(),
                             [&](OpOperand& use) { return new_loop->isProperAncestor(use.getOwner()); });
  Value result = new_loop->getResults().back();
  rewriter.moveOpAfter(write, new_loop);
  if (add_after) {
    rewriter.moveOpBefore(read, write);
    rewriter.setInsertionPoint(write);
    // A tile whose output was filled just before the loop (in the first block of k) adds
    // the fill's value instead of reading it back, and the fill goes: the output is
    // written once. Under the fill's condition, each branch adds and writes: a branch
    // that only chose the vector to add (a phi of the tile's vectors beside its
    // accumulators) made LLVM spill them.
    std::optional<InitialFill> fill = InitialFillBefore(rewriter, new_loop, read);
    if (fill && fill->condition) {
      Location loc = read.getLoc();
      auto branch = scf::IfOp::create(rewriter, loc, fill->condition, /*withElseRegion=*/true);
      rewriter.setInsertionPointToStart(branch.thenBlock());
      Value filled = arith::AddFOp::create(rewriter, loc, fill->value, result);
      auto first_write = cast<vector::TransferWriteOp>(rewriter.clone(*write.getOperation()));
      rewriter.modifyOpInPlace(first_write, [&] { first_write.getValueToStoreMutable().assign(filled); });
      rewriter.moveOpBefore(read, branch.elseBlock(), branch.elseBlock()->begin());
      rewriter.moveOpBefore(write, branch.elseBlock(), std::next(read->getIterator()));
      rewriter.setInsertionPoint(write);
      result = arith::AddFOp::create(rewriter, loc, read.getResult(), result);
      rewriter.eraseOp(fill->op);
    } else {
      Value output = read.getResult();
      if (fill) {
        output = fill->value;
        rewriter.eraseOp(read);
        rewriter.eraseOp(fill->op);
      }
      result = arith::AddFOp::create(rewriter, write.getLoc(), output, result);
    }
  }
  rewriter.modifyOpInPlace(write, [&] { write.getValueToStoreMutable().assign(result); });
}

// The positions of W's row (loop dimension `n`) and depth (`k`) among the indices of the
// tile's right-hand operand `rhs`; none when either is not an index of it.
std::optional<std::pair<unsigned, unsigned>> RowAndDepthPositions(linalg::LinalgOp tile, OpOperand* rhs, unsigned n,
                                                                  unsigned k) {
  AffineMap map = tile.getMatchingIndexingMap(rhs);
  std::optional<unsigned> n_result = map.getResultPosition(getAffineDimExpr(n, tile.getContext()));
  std::optional<unsigned> k_result = map.getResultPosition(getAffineDimExpr(k, tile.getContext()));
  if (!n_result || !k_result) return std::nullopt;
  return std::make_pair(*n_result, *k_result);
}

// For a dot-product tile whose right-hand operand `rhs` (W, [.., n, k]) is a view of a
// larger buffer: a function that, given a step's k offset `kk`, prefetches the line at kk
// of each of W's `columns` rows `ahead` rows after the tile's (clamped to the buffer's
// last row, so every address is inside it). Empty when `rhs` is no subview of the same
// rank. The lines go to L2 (prefetcht1), not L1: on Zen 4 (32 KiB L1; K = N = 4096 f32,
// blocks of 1024) M = 4 read W at 0.48 of the streaming read with prefetcht0 and 0.81-0.95
// with prefetcht1, M = 8 at 0.42 and 0.47-0.53 (into L1, the lines of the next tile evict
// the block of x the current tile reads); on the Intel Xeon (48 KiB L1) the two were
// alike (docs/PERFORMANCE.md, runs T and Y).
std::function<void(OpBuilder&, Value)> PrefetchAhead(RewriterBase& rewriter, linalg::LinalgOp tile, OpOperand* rhs,
                                                     unsigned n, unsigned k, int64_t columns, int64_t ahead) {
  auto view = rhs->get().getDefiningOp<memref::SubViewOp>();
  if (!view || view.getSourceType().getRank() != view.getType().getRank()) return {};
  std::optional<std::pair<unsigned, unsigned>> positions = RowAndDepthPositions(tile, rhs, n, k);
  if (!positions) return {};
  const unsigned n_result = positions->first, k_result = positions->second;
  Location loc = tile.getLoc();
  SmallVector<Value> offsets = getValueOrCreateConstantIndexOp(rewriter, loc, view.getMixedOffsets());
  Value source = view.getSource();
  Value last_row = arith::SubIOp::create(rewriter, loc, memref::DimOp::create(rewriter, loc, source, n_result),
                                         arith::ConstantIndexOp::create(rewriter, loc, 1));
  SmallVector<Value> rows_ahead;
  for (int64_t j = 0; j < columns; ++j) {
    Value row = arith::AddIOp::create(rewriter, loc, offsets[n_result],
                                      arith::ConstantIndexOp::create(rewriter, loc, j + ahead));
    rows_ahead.push_back(arith::MinUIOp::create(rewriter, loc, row, last_row));
  }
  return [=](OpBuilder& b, Value kk) {
    SmallVector<Value> at = offsets;
    at[k_result] = arith::AddIOp::create(b, loc, offsets[k_result], kk);
    for (Value row : rows_ahead) {
      at[n_result] = row;
      memref::PrefetchOp::create(b, loc, source, at, /*isWrite=*/false, /*localityHint=*/2, /*isDataCache=*/true);
    }
  };
}

// For a dot-product tile marked kiln.prefetch_next_chunk [chunk rows C, block of k B]
// (TileContractions.cc), whose right-hand operand `rhs` is a view at [n0, k0] of a chunk of
// C rows of W, itself a view at [c, 0] of W: a function that, given a step's k offset `kk`,
// prefetches `columns` lines of the next chunk (W's rows from c + C), the tile's share of
// it in memory order. The chunk's tiles run k0 by k0, n0 by n0 within one, each reading
// B x `columns` elements; the tile at (k0, n0) prefetches the elements from k0 * C +
// n0 * B of the next chunk's rows taken as one sequence, `columns` x `lanes` per step, so
// that the chunk's tiles together prefetch all of the next chunk once, in order (rows
// clamped to W's last one). Empty when the views are not so nested or W's depth is
// dynamic.
std::function<void(OpBuilder&, Value)> PrefetchNextChunk(RewriterBase& rewriter, linalg::LinalgOp tile, OpOperand* rhs,
                                                         unsigned n, unsigned k, int64_t columns, int64_t lanes,
                                                         ArrayRef<int64_t> chunk_and_block) {
  auto view = rhs->get().getDefiningOp<memref::SubViewOp>();
  auto chunk = view ? view.getSource().getDefiningOp<memref::SubViewOp>() : nullptr;
  if (!chunk || chunk_and_block.size() != 2 || chunk.getSourceType().getRank() != 2 || view.getType().getRank() != 2 ||
      !view.hasUnitStride() || !chunk.hasUnitStride()) {
    return {};
  }
  std::optional<std::pair<unsigned, unsigned>> positions = RowAndDepthPositions(tile, rhs, n, k);
  if (!positions) return {};
  const unsigned n_result = positions->first, k_result = positions->second;
  Value source = chunk.getSource();
  int64_t depth = chunk.getSourceType().getDimSize(k_result);
  std::optional<int64_t> chunk_k = getConstantIntValue(chunk.getMixedOffsets()[k_result]);
  if (ShapedType::isDynamic(depth) || !chunk_k || *chunk_k != 0) return {};
  Location loc = view.getLoc();
  // By value: the function returned below calls it after this one has returned.
  auto index = [loc](OpBuilder& b, int64_t i) -> Value { return arith::ConstantIndexOp::create(b, loc, i); };
  auto offset = [&](memref::SubViewOp of, unsigned result) {
    return getValueOrCreateConstantIndexOp(rewriter, loc, of.getMixedOffsets()[result]);
  };
  const int64_t chunk_rows = chunk_and_block[0], block = chunk_and_block[1];
  Value next_chunk = arith::AddIOp::create(rewriter, loc, offset(chunk, n_result), index(rewriter, chunk_rows));
  Value first = arith::AddIOp::create(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, offset(view, k_result), index(rewriter, chunk_rows)),
      arith::MulIOp::create(rewriter, loc, offset(view, n_result), index(rewriter, block)));
  Value last_row = arith::SubIOp::create(rewriter, loc, memref::DimOp::create(rewriter, loc, source, n_result),
                                         index(rewriter, 1));
  return [=](OpBuilder& b, Value kk) {
    Value step_first = arith::AddIOp::create(b, loc, first, arith::MulIOp::create(b, loc, kk, index(b, columns)));
    for (int64_t j = 0; j < columns; ++j) {
      Value element = j == 0 ? step_first : arith::AddIOp::create(b, loc, step_first, index(b, j * lanes));
      Value row = arith::AddIOp::create(b, loc, next_chunk, arith::DivUIOp::create(b, loc, element, index(b, depth)));
      SmallVector<Value> at(2);
      at[n_result] = arith::MinUIOp::create(b, loc, row, last_row);
      at[k_result] = arith::RemUIOp::create(b, loc, element, index(b, depth));
      memref::PrefetchOp::create(b, loc, source, at, /*isWrite=*/false, /*localityHint=*/2, /*isDataCache=*/true);
    }
  };
}

// Replaces `tile`, a dot-product register tile (kiln.dot_product_tile, see
// ContractionTiling.h) with static m and n sizes, by vector code: a loop over k in steps of
// `lanes` carrying one vector of partial sums per output, each step loading a vector of
// every left-hand row and right-hand column (both contiguous in k) and accumulating their
// products with FMAs (and, with kiln.prefetch_rows, prefetching W's rows that many rows
// ahead at the same k); then the k % lanes last elements through masked loads; then each
// output adds the sum of its partial sums (reassociated: a tree of vector adds; across the
// tile's vectors, added to each row of outputs as a vector, where SumEachVector takes
// them and the output's rows are contiguous in n). Fails and
// leaves `tile` alone when m or n is dynamic.
LogicalResult VectorizeDotProductTile(RewriterBase& rewriter, linalg::LinalgOp tile, int64_t lanes) {
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(tile);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 || dims->k.size() != 1) return failure();
  unsigned m = dims->m.front(), n = dims->n.front(), k = dims->k.front();
  SmallVector<int64_t> ranges = tile.getStaticLoopRanges();
  int64_t rows = ranges[m], columns = ranges[n];
  if (ShapedType::isDynamic(rows) || ShapedType::isDynamic(columns)) return failure();
  OpOperand *lhs = tile.getDpsInputOperand(0), *rhs = tile.getDpsInputOperand(1), *out = tile.getDpsInitOperand(0);
  if (!tile.getMatchingIndexingMap(rhs).isFunctionOfDim(n)) std::swap(lhs, rhs);

  Location loc = tile.getLoc();
  rewriter.setInsertionPoint(tile);
  Type element = getElementTypeOrSelf(out->get().getType());
  auto vector_type = VectorType::get({lanes}, element);
  Value zero_index = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, lanes);
  Value zeros = arith::ConstantOp::create(rewriter, loc, vector_type, rewriter.getZeroAttr(vector_type));
  // The indices of `operand` at the loop position `position` (batch dimensions are 0: a
  // register tile has one batch element).
  auto indices = [&](OpOperand* operand, ArrayRef<std::pair<unsigned, Value>> position) {
    return llvm::map_to_vector(tile.getMatchingIndexingMap(operand).getResults(), [&](AffineExpr result) {
      unsigned dim = cast<AffineDimExpr>(result).getPosition();
      for (auto [d, value] : position) {
        if (d == dim) return value;
      }
      return zero_index;
    });
  };
  auto index = [&](int64_t i) -> Value { return arith::ConstantIndexOp::create(rewriter, loc, i); };
  // A narrower operand (f16 or bf16 into f32, ContractionTiling.h) is widened as loaded.
  auto widened = [&](OpBuilder& b, Value loaded) -> Value {
    if (getElementTypeOrSelf(loaded.getType()) == element) return loaded;
    return arith::ExtFOp::create(b, loc, vector_type, loaded);
  };
  SmallVector<Value> row_index, column_index;
  for (int64_t i = 0; i < rows; ++i) row_index.push_back(index(i));
  for (int64_t j = 0; j < columns; ++j) column_index.push_back(index(j));

  AffineMap lhs_map = tile.getMatchingIndexingMap(lhs);
  Value depth = memref::DimOp::create(rewriter, loc, lhs->get(), lhs_map.getNumResults() - 1);
  Value full_depth = arith::SubIOp::create(rewriter, loc, depth, arith::RemUIOp::create(rewriter, loc, depth, step));
  // One step: the products of rows x columns vectors at `kk` added to `sums`, loaded by `load`.
  auto accumulate = [&](OpBuilder& b, Value kk, ValueRange sums, auto load) {
    SmallVector<Value> lhs_vectors, rhs_vectors, result;
    for (int64_t i = 0; i < rows; ++i) lhs_vectors.push_back(load(b, lhs->get(), indices(lhs, {{m, row_index[i]}, {k, kk}})));
    for (int64_t j = 0; j < columns; ++j) {
      rhs_vectors.push_back(load(b, rhs->get(), indices(rhs, {{n, column_index[j]}, {k, kk}})));
    }
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < columns; ++j) {
        result.push_back(vector::FMAOp::create(b, loc, lhs_vectors[i], rhs_vectors[j], sums[i * columns + j]));
      }
    }
    return result;
  };
  std::function<void(OpBuilder&, Value)> prefetch;
  if (auto ahead = tile->getAttrOfType<IntegerAttr>(kPrefetchRowsAttr)) {
    prefetch = PrefetchAhead(rewriter, tile, rhs, n, k, columns, ahead.getInt());
  } else if (auto chunk = tile->getAttrOfType<DenseI64ArrayAttr>(kPrefetchNextChunkAttr)) {
    prefetch = PrefetchNextChunk(rewriter, tile, rhs, n, k, columns, lanes, chunk.asArrayRef());
  }
  SmallVector<Value> initial(rows * columns, zeros);
  auto loop = scf::ForOp::create(
      rewriter, loc, zero_index, full_depth, step, initial, [&](OpBuilder& b, Location, Value kk, ValueRange sums) {
        auto load = [&](OpBuilder& lb, Value base, ValueRange at) -> Value {
          return widened(lb, vector::LoadOp::create(lb, loc, vector_type.clone(getElementTypeOrSelf(base.getType())),
                                                    base, at));
        };
        if (prefetch) prefetch(b, kk);
        scf::YieldOp::create(b, loc, accumulate(b, kk, sums, load));
      });
  // The last depth % lanes elements, unless the depth is static and a multiple of the
  // lanes: with none left the masked loads fold to zeros, and each sum's + 0 * 0 stays an
  // add (x + 0.0 is not x for x = -0.0), 16 adds per 8 x 2 tile.
  SmallVector<Value> sums = loop.getResults();
  int64_t static_depth = cast<ShapedType>(lhs->get().getType()).getShape().back();
  if (ShapedType::isDynamic(static_depth) || static_depth % lanes != 0) {
    Value remaining = arith::SubIOp::create(rewriter, loc, depth, full_depth);
    Value mask = vector::CreateMaskOp::create(rewriter, loc, VectorType::get({lanes}, rewriter.getI1Type()),
                                              ValueRange{remaining});
    auto masked_load = [&](OpBuilder& b, Value base, ValueRange at) -> Value {
      VectorType loaded = vector_type.clone(getElementTypeOrSelf(base.getType()));
      Value none = arith::ConstantOp::create(b, loc, loaded, b.getZeroAttr(loaded));
      return widened(b, vector::MaskedLoadOp::create(b, loc, loaded, base, at, mask, none));
    };
    sums = accumulate(rewriter, full_depth, loop.getResults(), masked_load);
  }
  // The outputs of a row are contiguous: their totals then come from one transposed sum
  // of all the tile's vectors and are added to the row as a vector (about a third of the
  // instructions of one horizontal reduction per output, which took 17% of the samples of
  // M = 8 tiles 1024 deep; their time did not change beyond the noise, as they wait on W).
  AffineMap out_map = tile.getMatchingIndexingMap(out);
  auto out_type = dyn_cast<MemRefType>(out->get().getType());
  if (CanSumEachVector(rows * columns, lanes) && out_type && out_type.isLastDimUnitStride() &&
      out_map.getNumResults() > 0 && out_map.getResults().back() == getAffineDimExpr(n, tile.getContext())) {
    Value totals = SumEachVector(rewriter, loc, sums);
    auto row_type = VectorType::get({columns}, element);
    for (int64_t i = 0; i < rows; ++i) {
      SmallVector<Value> at = indices(out, {{m, row_index[i]}, {n, column_index[0]}});
      Value row_totals = vector::ExtractStridedSliceOp::create(rewriter, loc, totals, ArrayRef<int64_t>{i * columns},
                                                                ArrayRef<int64_t>{columns}, ArrayRef<int64_t>{1});
      Value before = vector::LoadOp::create(rewriter, loc, row_type, out->get(), at);
      Value after = arith::AddFOp::create(rewriter, loc, before, row_totals, arith::FastMathFlags::reassoc);
      vector::StoreOp::create(rewriter, loc, after, out->get(), at);
    }
    rewriter.eraseOp(tile);
    return success();
  }
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < columns; ++j) {
      SmallVector<Value> at = indices(out, {{m, row_index[i]}, {n, column_index[j]}});
      Value before = memref::LoadOp::create(rewriter, loc, out->get(), at);
      Value total = vector::ReductionOp::create(rewriter, loc, vector::CombiningKind::ADD, sums[i * columns + j], before,
                                                arith::FastMathFlags::reassoc);
      memref::StoreOp::create(rewriter, loc, total, out->get(), at);
    }
  }
  rewriter.eraseOp(tile);
  return success();
}

// Whether `generic` is a packing copy that transposes its last two dimensions and widens
// each value (CreatePackingCopy in TileContractions.cc): identity output, the input read
// with those two dimensions swapped, a body of one arith.extf.
bool IsWideningTranspose(linalg::GenericOp generic) {
  if (generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 || generic.getNumReductionLoops() != 0) {
    return false;
  }
  int64_t rank = generic.getNumLoops();
  SmallVector<unsigned> swapped = llvm::to_vector(llvm::seq<unsigned>(0, rank));
  if (rank < 2) return false;
  std::swap(swapped[rank - 2], swapped[rank - 1]);
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  if (maps[0] != AffineMap::getPermutationMap(swapped, generic.getContext()) || !maps[1].isIdentity()) return false;
  Block& body = generic.getRegion().front();
  auto extend = dyn_cast<arith::ExtFOp>(body.front());
  return body.getOperations().size() == 2 && extend && extend.getIn() == body.getArgument(0) &&
         body.getTerminator()->getOperand(0) == extend.getResult();
}

// Replaces `tile`, a 2-D transpose (after unit dimensions) of static square shape, by a
// vector read of its input, a vector.transpose (after an arith.extf, for a widening
// transpose) and a vector write of its output. (The vectoriser would read the input
// through a transposing permutation map, which the transfer lowering turns into strided
// element loads; a vector.transpose of rows becomes shuffles.) Fails and leaves `tile`
// alone otherwise.
LogicalResult VectorizeTransposeTile(RewriterBase& rewriter, linalg::LinalgOp tile) {
  auto generic = dyn_cast<linalg::GenericOp>(tile.getOperation());
  if (!isa<linalg::TransposeOp>(tile.getOperation()) && !(generic && IsWideningTranspose(generic))) return failure();
  Value source = tile.getDpsInputs()[0], init = tile.getDpsInits()[0];
  auto input = dyn_cast<MemRefType>(source.getType());
  auto output = dyn_cast<MemRefType>(init.getType());
  if (!input || !output) return failure();
  int64_t rank = input.getRank();
  ArrayRef<int64_t> shape = input.getShape();
  if (rank < 2 || !input.hasStaticShape() || output.getShape() != shape ||
      llvm::any_of(shape.drop_back(2), [](int64_t size) { return size != 1; }) ||
      shape[rank - 1] != shape[rank - 2]) {
    return failure();
  }
  Location loc = tile.getLoc();
  rewriter.setInsertionPoint(tile);
  auto vector_type = VectorType::get(shape.take_back(2), input.getElementType());
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  SmallVector<Value> origin(rank, zero);
  SmallVector<bool> in_bounds(2, true);
  Value rows = vector::TransferReadOp::create(rewriter, loc, vector_type, source, origin, std::nullopt, in_bounds);
  if (output.getElementType() != input.getElementType()) {
    rows = arith::ExtFOp::create(rewriter, loc, vector_type.clone(output.getElementType()), rows);
  }
  Value columns = vector::TransposeOp::create(rewriter, loc, rows, ArrayRef<int64_t>{1, 0});
  vector::TransferWriteOp::create(rewriter, loc, columns, init, origin, in_bounds);
  rewriter.eraseOp(tile);
  return success();
}

struct VectorizeContractionsPass : impl::VectorizeContractionsBase<VectorizeContractionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> tiles, dot_product_tiles;
    SmallVector<std::pair<linalg::GenericOp, StringRef>> group_dot_tiles;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kRegisterTileAttr)) tiles.push_back(op);
      if (op->hasAttr(kDotProductTileAttr)) dot_product_tiles.push_back(op);
      for (StringRef mark : {kGroupPackTileAttr, kGroupSumsTileAttr, kGroupDotTileAttr, kMatrixTileAttr}) {
        auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
        if (generic && op->hasAttr(mark)) group_dot_tiles.emplace_back(generic, mark);
      }
    });
    IRRewriter rewriter(&getContext());
    for (auto [tile, mark] : group_dot_tiles) {
      tile->removeAttr(mark);
      (void)memref::foldMemRefCast(tile);
      // Tiles that do not fit the kernels (dynamic columns or rows) stay linalg ops and become loops.
      if (mark == kGroupPackTileAttr) {
        (void)VectorizeGroupPackTile(rewriter, tile);
      } else if (mark == kGroupSumsTileAttr) {
        (void)VectorizeGroupSumsTile(rewriter, tile);
      } else if (mark == kMatrixTileAttr) {
        (void)VectorizeMatrixTileProduct(rewriter, tile);
      } else {
        (void)VectorizeGroupDotTile(rewriter, tile);
      }
    }
    for (linalg::LinalgOp tile : dot_product_tiles) {
      auto lanes = cast<IntegerAttr>(tile->getAttr(kDotProductTileAttr)).getInt();
      tile->removeAttr(kDotProductTileAttr);
      (void)VectorizeDotProductTile(rewriter, tile, lanes);  // or it stays a linalg op and becomes loops
    }
    for (linalg::LinalgOp tile : tiles) {
      tile->removeAttr(kRegisterTileAttr);
      // Canonicalisation may leave a peeled tile's static views behind casts to dynamic sizes.
      (void)memref::foldMemRefCast(tile);
      if (succeeded(VectorizeTransposeTile(rewriter, tile))) continue;
      if (isa<linalg::TransposeOp>(tile.getOperation())) continue;  // a remainder: loops
      // Remainder tiles (dynamic sizes) are vectorised at their bounds; those without a
      // bound, those that widen an operand (the last rows of a widened product) and the
      // remainders of packing copies stay linalg ops and become loops.
      if (tile.hasDynamicShape()) {
        (void)VectorizeBoundedContractionTile(rewriter, tile);
        continue;
      }
      rewriter.setInsertionPoint(tile);
      // A vector.contract takes operands of one element type: a tile that widens one of
      // them (the last rows of a widened product read in place) becomes arith.extf and a
      // multi-reduction instead.
      bool same_types = llvm::all_equal(llvm::map_range(
          tile->getOperandTypes(), [](Type type) { return getElementTypeOrSelf(type); }));
      FailureOr<linalg::VectorizationResult> vectorized =
          linalg::vectorize(rewriter, tile, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
                            /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
                            /*assumeDynamicDimsMatchVecSizes=*/false, /*createNamedContraction=*/same_types);
      if (succeeded(vectorized)) rewriter.eraseOp(tile);
    }
    // The accumulators' reads and writes leave the k loop once the views they go through
    // have been hoisted out of it.
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
      fn.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
      SmallVector<scf::ForOp> loops;
      fn.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops) HoistAccumulator(rewriter, loop);
      // After the hoisting, so that the accumulators pass from the first steps to the rest
      // as the loops' iteration arguments.
      loops.clear();
      fn.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops) SplitPrefetchPrefix(rewriter, loop);
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
