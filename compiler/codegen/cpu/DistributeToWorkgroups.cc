// Workgroup distribution on tensors: one contiguous block of one of the root's parallel
// loops per workgroup, producers fused into the block.
#include "compiler/codegen/cpu/ContractionTiling.h"
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/codegen/cpu/SortRunsAndMerges.h"
#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_DISTRIBUTETOWORKGROUPS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// A root is split along its first parallel loop with a dynamic extent or a static one of
// at least this many iterations, so that every workgroup gets a block worth running (a
// decode step's [8, 4096] product splits its 4096 columns, not its 8 rows, which would
// make every workgroup read all the weights); without one, along its first parallel loop.
constexpr int64_t kMinSplitExtent = 64;
// A contraction whose first parallel loop is a batch dimension is split along it from this
// many iterations on: every workgroup then packs and multiplies whole matrices of its own.
// Split along rows, each workgroup packed every matrix's right-hand operand for half of its
// rows (batch_matmul 16 x 256^3 on 2 workers: 1.33 ms; along the batch: 1.11 ms).
constexpr int64_t kMinBatchSplitExtent = 8;
// The grid-stride mode (stride-tile > 0) is the GPU's work-item distribution: an
// elementwise root over one dimension takes blocks of one 128-bit vector per work-item,
// so that neighbouring work-items read neighbouring 16 bytes (global_load_dwordx4).
constexpr int64_t kWorkItemVectorBits = 128;

// The output binding `op` computes whole, when its one result starts as an empty tensor and
// goes only into that binding (bufferization.materialize_in_destination); null otherwise.
Value WholeOutputBinding(linalg::LinalgOp op) {
  if (op->getNumResults() != 1 || op.getNumDpsInits() != 1 || !op->getResult(0).hasOneUse()) return Value();
  if (!op.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>()) return Value();
  auto store = dyn_cast<bufferization::MaterializeInDestinationOp>(*op->getResult(0).getUsers().begin());
  if (!store || !isa<MemRefType>(store.getDest().getType())) return Value();
  return store.getDest();
}

// Whether `op` can be split in two (a vector part and a tail) along its one loop: no operand
// is computed by an op tiling would fuse into both parts, and it writes one output binding
// whole, which both parts then write in place (as slices of a binding, not of an empty
// tensor, which would fold into temporaries of their own).
bool SplittableIntoVectorsAndTail(linalg::LinalgOp op) {
  bool fused_producer = llvm::any_of(op->getOperands(), [](Value operand) {
    Operation* producer = operand.getDefiningOp();
    return producer && isa<TilingInterface>(producer) && !isa<tensor::EmptyOp>(producer);
  });
  return !fused_producer && WholeOutputBinding(op);
}

// Elements per work-item for `root` in the grid-stride mode: a 128-bit vector of its widest
// element when it is elementwise over one static dimension (identity maps, parallel) of at
// least one such vector, else `stride_tile`. When such vectors do not divide the extent, only
// for a root without fused producers: its last extent % block elements are then a tail of
// their own (Distribute), one element a work-item.
int64_t WorkItemBlock(Operation* root, int64_t stride_tile, ArrayRef<Range> domain) {
  auto op = dyn_cast_or_null<linalg::LinalgOp>(root);
  if (!op || op.getNumLoops() != 1 || op.getNumParallelLoops() != 1 || !op.hasPureTensorSemantics()) {
    return stride_tile;
  }
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) { return map.isIdentity(); })) return stride_tile;
  int64_t widest = 0;
  for (Value operand : op->getOperands()) {
    Type element = getElementTypeOrSelf(operand.getType());
    // Vectors of the small float formats (f8, and bf16 on some paths) are expanded to f32
    // elsewhere, which their vector forms do not all take: those keep scalar blocks.
    bool plain = element.isF32() || element.isF16() || element.isF64() || element.isInteger(8) ||
                 element.isInteger(16) || element.isInteger(32) || element.isInteger(64);
    if (!plain) return stride_tile;
    widest = std::max<int64_t>(widest, element.getIntOrFloatBitWidth());
  }
  // The body too: a round trip through f8 inside an f32 computation stays scalar.
  bool plain_body = true;
  op->walk([&](Operation* inner) {
    for (Type type : inner->getResultTypes()) {
      Type element = getElementTypeOrSelf(type);
      if (isa<FloatType>(element) && !element.isF16() && !element.isF32() && !element.isF64()) plain_body = false;
    }
  });
  if (!plain_body) return stride_tile;
  std::optional<int64_t> extent = getConstantIntValue(domain[0].size);
  int64_t block = widest > 0 ? kWorkItemVectorBits / widest : 0;
  if (!extent || block <= stride_tile || *extent < block) return stride_tile;
  if (*extent % block != 0 && !SplittableIntoVectorsAndTail(op)) return stride_tile;
  return block;
}

// The batch, m, n and k loops of `root` if it is a contraction.
std::optional<linalg::ContractionDimensions> ContractionDimsOf(Operation* root) {
  auto op = dyn_cast_or_null<linalg::LinalgOp>(root);
  if (!op || !linalg::isaContractionOpInterface(op)) return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
  if (failed(dims)) return std::nullopt;
  return *dims;
}

// The n loop of `root` if it is a contraction whose static rows (its m loop, `dim`) are
// fewer than its static columns, at least kMinSplitExtent of them: split along rows,
// every workgroup would pack (and read) the whole right-hand operand and reuse each block
// for half the rows; along columns, each packs its own part, reused by all the rows.
// (Prefill of 128 tokens, [128, 2048] x W[2048, 2048]^T on 2 workers: run Q in
// docs/performance-history.md.)
std::optional<size_t> ColumnsToSplitInstead(Operation* root, size_t dim, ArrayRef<Range> domain) {
  std::optional<linalg::ContractionDimensions> dims = ContractionDimsOf(root);
  if (!dims || dims->m.size() != 1 || dims->n.size() != 1 || dims->m.front() != dim) return std::nullopt;
  unsigned n = dims->n.front();
  std::optional<int64_t> rows = getConstantIntValue(domain[dim].size);
  std::optional<int64_t> columns = getConstantIntValue(domain[n].size);
  if (!rows || !columns || *rows >= *columns || *columns < kMinSplitExtent) return std::nullopt;
  return n;
}

// Whether `root` is a contraction whose loop `first` is a batch dimension.
bool LeadsWithBatch(Operation* root, size_t first) {
  std::optional<linalg::ContractionDimensions> dims = ContractionDimsOf(root);
  return dims && llvm::is_contained(dims->batch, first);
}

// The intermediates of fused producers are computed this many bytes of the root's rows
// at a time, so that they stay in the L1 cache between producer and consumer.
constexpr int64_t kRowBlockBytes = 16 << 10;

// The op marked kiln.root inside `scope`, if any.
Operation* FindRoot(Operation* scope) {
  Operation* root = nullptr;
  scope->walk([&](Operation* op) {
    if (op->hasAttr(kRootAttr)) root = op;
  });
  return root;
}

// Tiles `root` along one loop with `tile_sizes` as an scf.for nest, fuses its producers
// into the tile, and replaces it.
FailureOr<scf::SCFTileAndFuseResult> TileAndFuse(RewriterBase& rewriter, TilingInterface root,
                                                 ArrayRef<OpFoldResult> tile_sizes) {
  scf::SCFTileAndFuseOptions options;
  options.tilingOptions.setTileSizes(tile_sizes).setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> tiled = scf::tileConsumerAndFuseProducersUsingSCF(rewriter, root, options);
  if (failed(tiled)) return failure();
  for (auto [original, replacement] : tiled->replacements) rewriter.replaceAllUsesWith(original, replacement);
  if (root->use_empty()) rewriter.eraseOp(root);
  return tiled;
}

// Tiles the root inside a workgroup's `loop` again along `dim`, in blocks of rows of
// about kRowBlockBytes, fusing the producers already in the loop. Best effort: the
// workgroup's block stays as it is when the root cannot be tiled again.
void TileRowsForCache(RewriterBase& rewriter, scf::ForOp loop, size_t dim) {
  Operation* root = FindRoot(loop);
  auto tileable = dyn_cast_or_null<TilingInterface>(root);
  if (!tileable || root->getNumResults() != 1) return;
  auto type = dyn_cast<RankedTensorType>(root->getResult(0).getType());
  if (!type || type.getRank() == 0 || !type.getElementType().isIntOrFloat()) return;
  int64_t row_bytes = llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
  for (int64_t size : type.getShape().drop_front()) {
    row_bytes = ShapedType::isDynamic(size) ? kRowBlockBytes : row_bytes * size;
  }
  int64_t rows = std::max<int64_t>(1, kRowBlockBytes / std::max<int64_t>(row_bytes, 1));
  SmallVector<OpFoldResult> tile_sizes(tileable.getLoopIteratorTypes().size(), rewriter.getIndexAttr(0));
  tile_sizes[dim] = rewriter.getIndexAttr(rows);
  (void)TileAndFuse(rewriter, tileable, tile_sizes);
}

// Tiles the root inside a work-item's `loop` again, by 1 along the parallel loops before
// `dim` (too short to split across work-items), fusing the producers already in the loop:
// a fused producer's temporary then holds one iteration of them instead of all (attention's
// scores for one head's query row, not every head's), small enough for private memory.
// Best effort: the block stays as it is when the root cannot be tiled again.
void TileLeadingLoopsByOne(RewriterBase& rewriter, scf::ForOp loop, size_t dim) {
  auto tileable = dyn_cast_or_null<TilingInterface>(FindRoot(loop));
  if (!tileable) return;
  SmallVector<utils::IteratorType> iterators = tileable.getLoopIteratorTypes();
  SmallVector<OpFoldResult> tile_sizes(iterators.size(), rewriter.getIndexAttr(0));
  bool any = false;
  for (size_t d = 0; d < dim; ++d) {
    if (iterators[d] != utils::IteratorType::parallel) continue;
    tile_sizes[d] = rewriter.getIndexAttr(1);
    any = true;
  }
  if (any) (void)TileAndFuse(rewriter, tileable, tile_sizes);
}

// The dimension along which `insert` (a root tensor.insert_slice) can be split into
// blocks that each copy their part of the destination and insert their part of the
// source: one whose slice spans the whole destination (offset 0, its full static size,
// at least 2, stride 1), the largest of the outer ones (blocks of whole rows), else the
// innermost.
std::optional<unsigned> WholeDimensionOfInsert(tensor::InsertSliceOp insert) {
  RankedTensorType dest = insert.getDestType();
  if (insert.getSourceType().getRank() != dest.getRank()) return std::nullopt;  // rank-reducing
  std::optional<unsigned> best;
  for (unsigned d = 0; d < dest.getRank(); ++d) {
    std::optional<int64_t> offset = getConstantIntValue(insert.getMixedOffsets()[d]);
    std::optional<int64_t> stride = getConstantIntValue(insert.getMixedStrides()[d]);
    std::optional<int64_t> size = getConstantIntValue(insert.getMixedSizes()[d]);
    if (offset != 0 || stride != 1 || dest.isDynamicDim(d) || size != dest.getDimSize(d) || *size < 2) continue;
    bool outer = d + 1 < dest.getRank();
    if (!best || (outer && (*best + 1 == dest.getRank() || dest.getDimSize(d) > dest.getDimSize(*best)))) best = d;
  }
  return best;
}

// Distributes `insert`, a root tensor.insert_slice whose result is written to a new
// buffer (a KV cache updated at one position: 8 MiB copied to write 16 KiB), along
// `dim`: each workgroup copies its block of the destination into its block of the result
// and inserts its block of the source there, so the copy runs on every worker (the
// Llama decode step's two 8 MiB cache copies on 2 workers: 0.45 and 0.43 ms as one
// workgroup, 0.35 and 0.37 ms split; the copy is bound by memory).
void DistributeInsertSlice(RewriterBase& rewriter, tensor::InsertSliceOp insert, unsigned dim, Value workgroup_id,
                           Value workgroup_count) {
  Location loc = insert.getLoc();
  rewriter.setInsertionPoint(insert);
  Value dest = insert.getDest(), source = insert.getSource();
  SmallVector<OpFoldResult> dest_sizes = tensor::getMixedSizes(rewriter, loc, dest);
  Value extent = getValueOrCreateConstantIndexOp(rewriter, loc, dest_sizes[dim]);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value chunk = arith::MaxUIOp::create(rewriter, loc, arith::CeilDivUIOp::create(rewriter, loc, extent, workgroup_count),
                                       one);
  Value lower = arith::MulIOp::create(rewriter, loc, workgroup_id, chunk);
  Value upper = arith::MinUIOp::create(rewriter, loc, extent, arith::AddIOp::create(rewriter, loc, lower, chunk));
  Value empty = tensor::EmptyOp::create(rewriter, loc, dest_sizes, insert.getDestType().getElementType());
  auto loop = scf::ForOp::create(
      rewriter, loc, lower, upper, chunk, ValueRange{empty},
      [&](OpBuilder& b, Location, Value start, ValueRange results) {
        Value size = arith::MinUIOp::create(b, loc, chunk, arith::SubIOp::create(b, loc, extent, start));
        SmallVector<OpFoldResult> offsets(dest_sizes.size(), b.getIndexAttr(0)), sizes = dest_sizes,
            strides(dest_sizes.size(), b.getIndexAttr(1));
        offsets[dim] = start;
        sizes[dim] = size;
        Value dest_block = tensor::ExtractSliceOp::create(b, loc, dest, offsets, sizes, strides);
        Value result_block = tensor::ExtractSliceOp::create(b, loc, results[0], offsets, sizes, strides);
        Value copied = linalg::CopyOp::create(b, loc, dest_block, result_block).getResult(0);
        SmallVector<OpFoldResult> source_offsets(dest_sizes.size(), b.getIndexAttr(0)),
            source_sizes = tensor::getMixedSizes(b, loc, source);
        source_offsets[dim] = start;
        source_sizes[dim] = size;
        Value source_block = tensor::ExtractSliceOp::create(b, loc, source, source_offsets, source_sizes, strides);
        SmallVector<OpFoldResult> insert_offsets = insert.getMixedOffsets(), insert_sizes = insert.getMixedSizes();
        insert_offsets[dim] = b.getIndexAttr(0);
        insert_sizes[dim] = size;
        Value inserted = tensor::InsertSliceOp::create(b, loc, source_block, copied, insert_offsets, insert_sizes,
                                                       insert.getMixedStrides());
        Value written = tensor::InsertSliceOp::create(b, loc, inserted, results[0], offsets, sizes, strides);
        scf::YieldOp::create(b, loc, written);
      });
  rewriter.replaceOp(insert, loop.getResults());
}

// Why `fn` stays one workgroup, or success once it is distributed. `stride_tile` > 0
// makes a grid-stride loop over static blocks (the pass's stride-tile option).
LogicalResult Distribute(func::FuncOp fn, int64_t stride_tile, std::string& why) {
  Operation* root = FindRoot(fn);
  // Steps of a split sort share their work out themselves (SortRunsAndMerges.h).
  if (root && IsSplitSortStep(root)) {
    fn->setAttr(kDistributedAttr, UnitAttr::get(fn.getContext()));
    return success();
  }
  if (auto insert = dyn_cast_or_null<tensor::InsertSliceOp>(root)) {
    if (fn->hasAttr(kInPlaceResultsAttr)) {
      why = "it writes a slice in place (the copy is the slice's)";
      return failure();
    }
    if (std::optional<unsigned> dim = WholeDimensionOfInsert(insert); dim && stride_tile == 0) {
      IRRewriter rewriter(fn.getContext());
      DistributeInsertSlice(rewriter, insert, *dim, fn.getArgument(fn.getNumArguments() - 2),
                            fn.getArgument(fn.getNumArguments() - 1));
      fn->setAttr(kDistributedAttr, UnitAttr::get(fn.getContext()));
      return success();
    }
  }
  auto tileable = dyn_cast_or_null<TilingInterface>(root);
  if (!tileable) {
    why = root ? "its root '" + root->getName().getStringRef().str() + "' cannot be tiled" : "it has no root op";
    return failure();
  }
  SmallVector<utils::IteratorType> iterators = tileable.getLoopIteratorTypes();
  auto parallel = llvm::find(iterators, utils::IteratorType::parallel);
  if (parallel == iterators.end()) {
    why = "its root has no parallel loop";
    return failure();
  }
  const size_t first = parallel - iterators.begin();
  size_t dim = first;
  Location loc = root->getLoc();
  IRRewriter rewriter(fn.getContext());
  rewriter.setInsertionPoint(root);
  SmallVector<Range> domain = tileable.getIterationDomain(rewriter);
  // MLIR's tiling does not take empty loops (static extent 0); there is nothing to share.
  if (llvm::any_of(domain, [](const Range& range) { return isConstantIntValue(range.size, 0); })) {
    why = "its iteration space is empty";
    return failure();
  }
  const int64_t min_extent = LeadsWithBatch(root, first) ? kMinBatchSplitExtent : kMinSplitExtent;
  for (size_t d = dim; d < iterators.size(); ++d) {
    std::optional<int64_t> size = getConstantIntValue(domain[d].size);
    if (iterators[d] == utils::IteratorType::parallel && (!size || *size >= min_extent)) {
      dim = d;
      break;
    }
  }
  // (The grid-stride blocks of the GPU path keep their order: there, neighbouring work-items
  // take neighbouring rows.)
  if (stride_tile == 0) {
    if (std::optional<size_t> columns = ColumnsToSplitInstead(root, dim, domain)) dim = *columns;
  }
  Value extent = getValueOrCreateConstantIndexOp(rewriter, loc, domain[dim].size);
  Value workgroup_id = fn.getArgument(fn.getNumArguments() - 2);
  Value workgroup_count = fn.getArgument(fn.getNumArguments() - 1);
  const int64_t requested_stride_tile = stride_tile;
  if (stride_tile > 0) stride_tile = WorkItemBlock(root, stride_tile, domain);
  // Vector blocks that do not divide the extent: the root in two, the whole vectors and the
  // rest (fewer than one vector's elements), each a grid-stride loop of its own below.
  TilingInterface tail;
  if (std::optional<int64_t> total = getConstantIntValue(domain[dim].size);
      stride_tile != requested_stride_tile && total && *total % stride_tile != 0) {
    auto op = cast<linalg::LinalgOp>(tileable.getOperation());
    OpOperand* init = op.getDpsInitOperand(0);
    init->set(bufferization::ToTensorOp::create(rewriter, loc, init->get().getType(), WholeOutputBinding(op),
                                                /*restrict=*/true, /*writable=*/true));
    std::tie(tileable, tail) =
        linalg::splitOp(rewriter, tileable, dim, rewriter.getIndexAttr(*total - *total % stride_tile));
    tail->removeAttr(kRootAttr);
    rewriter.setInsertionPoint(tileable);
  }
  Value chunk;
  if (stride_tile > 0) {
    chunk = arith::ConstantIndexOp::create(rewriter, loc, stride_tile);
  } else {
    chunk = arith::CeilDivUIOp::create(rewriter, loc, extent, workgroup_count);
    // A zero chunk (empty extent) would make a zero-step loop.
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    chunk = arith::MaxUIOp::create(rewriter, loc, chunk, one);
  }

  SmallVector<OpFoldResult> tile_sizes(iterators.size(), rewriter.getIndexAttr(0));
  tile_sizes[dim] = stride_tile > 0 ? OpFoldResult(rewriter.getIndexAttr(stride_tile)) : OpFoldResult(chunk);
  FailureOr<scf::SCFTileAndFuseResult> tiled = TileAndFuse(rewriter, tileable, tile_sizes);
  if (failed(tiled) || tiled->loops.size() != 1) {
    why = "tiling its root failed";
    return failure();
  }

  auto loop = cast<scf::ForOp>(tiled->loops.front().getOperation());
  rewriter.setInsertionPoint(loop);
  // Blocks id, id + count, ... of T iterations: [id * T, extent) in steps of count * T.
  auto make_grid_stride = [&](scf::ForOp blocks, Value t) {
    blocks.setLowerBound(arith::MulIOp::create(rewriter, loc, workgroup_id, t));
    blocks.setStep(arith::MulIOp::create(rewriter, loc, workgroup_count, t));
  };
  if (stride_tile > 0) {
    make_grid_stride(loop, chunk);
    fn->setAttr(kDistributedAttr, rewriter.getUnitAttr());
    // A work-item's vector block (and the producers fused into it, of the same static
    // shape) becomes vector code (kiln-cpu-vectorize-contractions).
    if (stride_tile != requested_stride_tile) {
      loop.getBody()->walk([&](linalg::LinalgOp op) {
        if (!op.hasDynamicShape() && op.getNumLoops() == op.getNumParallelLoops()) {
          op->setAttr(kRegisterTileAttr, rewriter.getUnitAttr());
        }
      });
    }
    if (tail) {
      // The tail: element id, id + count, ... of its (fewer than stride_tile) elements.
      SmallVector<OpFoldResult> tail_sizes(iterators.size(), rewriter.getIndexAttr(0));
      tail_sizes[dim] = rewriter.getIndexAttr(requested_stride_tile);
      FailureOr<scf::SCFTileAndFuseResult> tail_tiled = TileAndFuse(rewriter, tail, tail_sizes);
      if (failed(tail_tiled) || tail_tiled->loops.size() != 1) {
        why = "tiling the tail of its root failed";
        return failure();
      }
      auto tail_loop = cast<scf::ForOp>(tail_tiled->loops.front().getOperation());
      rewriter.setInsertionPoint(tail_loop);
      make_grid_stride(tail_loop, arith::ConstantIndexOp::create(rewriter, loc, requested_stride_tile));
    }
    if (dim > first) TileLeadingLoopsByOne(rewriter, loop, dim);
    return success();
  }
  // This workgroup's block: [id * chunk, min(extent, (id + 1) * chunk)), one iteration.
  Value lower = arith::MulIOp::create(rewriter, loc, workgroup_id, chunk);
  Value upper = arith::MinUIOp::create(rewriter, loc, extent, arith::AddIOp::create(rewriter, loc, lower, chunk));
  loop.setLowerBound(lower);
  loop.setUpperBound(upper);
  fn->setAttr(kDistributedAttr, rewriter.getUnitAttr());

  bool fused_computation = llvm::any_of(tiled->fusedProducers, [](Operation* op) {
    return isa<linalg::LinalgOp>(op) && !isa<linalg::FillOp, linalg::CopyOp>(op);
  });
  // Row blocks are sized for splits along the first parallel loop.
  if (fused_computation && dim == first) TileRowsForCache(rewriter, loop, dim);
  return success();
}

struct DistributeToWorkgroupsPass : impl::DistributeToWorkgroupsBase<DistributeToWorkgroupsPass> {
  using DistributeToWorkgroupsBase::DistributeToWorkgroupsBase;
  void runOnOperation() override {
    // Fused producers write slices of whole-tensor destinations; as tile-sized empty
    // tensors they bufferise to tile-sized temporaries instead of whole-tensor ones.
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns);
    FrozenRewritePatternSet fold_empty(std::move(patterns));
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
      // A target's workgroup strategy lays out (or already laid out) what it marked.
      if (!fn->hasAttr(kBindingDimsAttr) || fn->hasAttr(kWorkgroupStrategyAttr) || fn->hasAttr(kDistributedAttr)) {
        continue;
      }
      std::string why;
      if (failed(Distribute(fn, strideTile, why))) {
        fn.emitRemark() << "dispatch '" << fn.getName() << "' runs as one workgroup: " << why;
      }
      (void)applyPatternsGreedily(fn, fold_empty);
    }
  }
};

}  // namespace

// A distributed function must write its outputs only inside its workgroup's block. A copy
// into a whole binding (left by bufferization when it could not compute in place) would
// race with the other workgroups, so such a function runs as one workgroup instead.
void KeepDistributionSafe(func::FuncOp fn) {
  if (!fn->hasAttr(kDistributedAttr)) return;
  bool whole_binding_write = false;
  fn.walk([&](memref::CopyOp copy) {
    if (isa<BlockArgument>(copy.getTarget())) whole_binding_write = true;
  });
  if (!whole_binding_write) return;
  fn->removeAttr(kDistributedAttr);
  fn.emitRemark() << "dispatch '" << fn.getName()
                  << "' runs as one workgroup: bufferization left a copy into a whole output binding";
}

}  // namespace kiln::compiler::cpu
