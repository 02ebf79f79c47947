#include "compiler/codegen/cpu/ContractionTiling.h"

#include "compiler/codegen/cpu/GroupDotProducts.h"
#include "compiler/codegen/cpu/MatrixTileProducts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

namespace kiln::compiler::cpu {

using namespace mlir;

namespace {

// Outer-product register tiles: rows x column vectors of accumulators, leaving room for
// the right-hand row's vectors and one broadcast left-hand value.
struct OuterProductTile {
  int64_t rows;
  int64_t column_vectors;
};
// 6 x 4 of AVX-512's 32 registers (24 accumulators, 4 + 1 beside them): each step loads 4
// vectors and broadcasts 6 values for 24 FMAs, where 8 x 2 took 2 loads and 8 broadcasts
// for 16. Measured on an Intel Xeon (Emerald Rapids; same-process ratios against oneDNN's
// sgemm, medians of 5-6 processes, both with 32 KiB packed blocks): f32 1024^3 on 1 thread
// 0.95 against 8 x 2's 0.86, on 2 threads 0.91 against 0.75; W[N, K] 0.91 against 0.87;
// batch_matmul 16 x 256^3 0.93 against 0.88. 12 x 2 ran as 8 x 2 (0.86); 4 x 4 at 0.90.
// f16 into f16 (AVX512_FP16) takes 16 x 1 (see the plan below). AVX2 and SSE have 16
// registers: 6 x 2 and 4 x 2.
OuterProductTile OuterProductTileFor(int64_t vector_bits, bool native_f16) {
  if (native_f16) return {16, 1};
  if (vector_bits >= 512) return {6, 4};
  return {vector_bits >= 256 ? 6 : 4, 2};
}
// Cache blocks: a 256 x 256 block of the right-hand operand (256 KiB in f32) stays in L2
// while the rows of the left-hand operand stream past it in blocks of about 64 (a multiple
// of the register tile's rows: 60 with 6-row tiles).
constexpr int64_t kCacheRows = 64;
constexpr int64_t kCacheColumns = 256;
constexpr int64_t kCacheDepth = 256;
// A packed block (one register tile wide) holds at most this much, so that it stays in L1
// (48 KiB on the Intel Xeon measured, 32-48 KiB on Zen): 256 deep for 2 vectors of 16 f32,
// 128 for 4. With 6 x 4 tiles, 1024^3 ran at 0.95 of oneDNN 128 deep (32 KiB), 0.93 256
// deep, 0.85 192 deep, 0.90 96 deep.
constexpr int64_t kPackedBlockBytes = 32 * 1024;
// Blocks of k for a packed product whose output is beyond the last-level cache: the
// output then passes through memory less often, and the packed block (512 x 4 vectors,
// 128 KiB in f32 with AVX-512) streams from L2 in order. 4096^3 on Zen 5 (a 64 MiB output,
// 8 x 2 tiles, 512 against 256 deep): 1.5-2% faster on 1 and 2 threads; 1024^3 (4 MiB, in
// L3) and the Llama prefill's linear layers did not change beyond noise, so they keep the
// shallower L1-resident block.
constexpr int64_t kDeepCacheDepth = 512;

// The blocks of AMX tiles (MatrixTileProducts.h): 512 bf16 or 1024 i8 k (32 KiB for each
// 32 columns) x 512 columns, 512 KiB packed, in L2. Measured on Sapphire Rapids class
// cores (bf16 1024^3, tiles of 32 x 32): 256 columns were 10% slower, 1024 no faster;
// 256 bf16 k 15-20% slower.
constexpr int64_t kMatrixTileBlockBytes = 32 * 1024;
constexpr int64_t kMatrixTileBlockColumns = 512;

bool HasContiguousRows(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  return type && type.getRank() > 0 && type.isLastDimUnitStride();
}

// The dot-product kernel keeps rows x columns vectors of partial sums, with the columns'
// vectors beside them (the rows' vectors can be memory operands of the FMAs): 16 of
// AVX-512's 32 registers for up to 8 rows, 12 of AVX2's and SSE's 16 for up to 4 rows.
// More rows are groups of rows that divide them, each group reusing the columns' vectors
// from L1 or L2 after the first: every column vector loaded then serves 3 rows or more,
// instead of 1 (8 rows of 1 column), which made the rows' reloads from L2 the bottleneck.
int64_t DotProductRows(int64_t rows, int64_t vector_bits) {
  int64_t most = std::min<int64_t>(rows, vector_bits >= 512 ? 8 : 4);
  while (rows % most != 0) --most;
  return most;
}
int64_t DotProductColumns(int64_t rows, int64_t vector_bits) {
  int64_t accumulators = vector_bits >= 512 ? 16 : 12;
  return std::clamp<int64_t>(accumulators / rows, 1, 8);
}

// The columns of a dot-product tile that reads W's rows in memory order, or 0 when the
// tiles do not. With AVX-512, 1 to kMaxInOrderRows rows of x (and, PlanContractionTiles,
// a static depth, no batch and a W beyond the core's L2) take tiles over the whole depth,
// each a chunk of W's rows (as many columns as kInOrderAccumulators partial sums allow)
// that prefetches the next tile's rows as one sequence while it reads its own: the
// software prefetches then run in memory order, which the hardware prefetchers, seeing
// one stream per column, do not. x comes from L2 when it exceeds L1, one vector of each
// row per step; up to 4 rows the columns outnumber them, so W's loads dominate. Measured
// on Zen 4 (32 KiB L1, 1 MiB L2; K = N = 4096 f32; same-process A/B, both roles, run AH
// in docs/PERFORMANCE.md), time against the tiles before: M = 1 (x in L1, whole depth, no
// prefetching) 0.79-0.91 on 1 thread, 0.92-1.22 on 2; M = 2 0.76-1.0 / 0.80-0.97; M = 3
// (blocks of 2720) 0.60-0.66 / 0.72-0.80; M = 4 (2 KiB pieces, x spread, chunks)
// 0.88-0.95 in five runs and 1.10 in a sixth / 0.77-1.0, in 4 columns slower than in 6;
// M = 4 with f16 W 0.92 / 0.95. M = 8 in 3 columns took 1.49x / 1.35x (x read from L2
// 2.7 times as much as W), in 2 columns 1.8x, so 5 rows and more keep the blocks of
// DotProductDepthBlock.
constexpr int64_t kMaxInOrderRows = 4, kInOrderAccumulators = 24, kMaxInOrderColumns = 8;
int64_t InOrderDotProductColumns(int64_t rows, int64_t vector_bits) {
  if (vector_bits < 512 || rows < 1 || rows > kMaxInOrderRows) return 0;
  return std::min(kInOrderAccumulators / rows, kMaxInOrderColumns);
}

// Blocks of the depth for the dot-product kernel with AVX-512 (0: the whole depth). The
// rows of x stay in L1 while every column of W passes them: the whole depth when all rows
// of x fit in 32 KiB (two thirds of a 48 KiB L1). Otherwise (or for a dynamic depth) 4 or
// more rows take pieces of 4 KiB of each row (1024 f32, 512 f64: 16 KiB of x for 4 rows,
// 32 KiB for 8), halved while all rows' pieces exceed two thirds of the L1 (`l1_bytes`)
// or one piece a twelfth of it; fewer rows take blocks that fill the 32 KiB. Measured on
// an Intel Xeon (AMX, 48 KiB L1, 2 MiB L2; K = N = 4096 f32, against a streaming read of W with 64-byte
// loads, same process): M = 4 in blocks of 1024 0.85-0.93, of 2048 (32 KiB, the rule
// before for 4 rows) 0.64-0.72; M = 8 in blocks of 1024 0.75-0.80, of 512 0.65, of 2048
// 0.52; M = 2 over the whole depth (32 KiB) 0.96, in blocks of 2048 0.87, of 1024 0.89
// (longer depths, where 1 to 3 rows take blocks, were not measured on that CPU). On
// Zen 5, before tiles took 2 columns and prefetched, 32 KiB blocks read best for M = 4
// and 8 (0.79-0.84 / 0.73-0.78, 16 KiB 0.74 / 0.56). On Zen 4 (32 KiB, 8-way L1; M = 8,
// 1 thread) 32 KiB of x in L1 left no room for W: blocks of 1024 took 5.1-5.3 ms, of
// 512 with x's rows spread over the sets (SpreadRowsStride) 3.5-3.9, and 5.9 with them
// in place (16 KiB apart, in the same sets). A W widened as it is read (f16, bf16:
// `widened_rhs`) keeps 4 KiB pieces: the widening bounds its tiles, and 2 KiB pieces were
// slower there (Zen 4, M = 8 f16: 3.25-3.94 against 2.81-3.20 ms). Pieces are also halved
// while longer than a twelfth of the L1 (4 KiB on 48 KiB, 2 KiB on 32 KiB): on Zen 4, M = 4
// in 2 KiB pieces (x spread, W in chunks, as M = 8) ran 0.91x the time of 4 KiB pieces on
// 1 thread (geometric mean of 4 same-process runs, both roles; 2 threads alike, 1.005x),
// and 1 KiB pieces were slower for M = 4 and 8. Narrower vectors keep
// the whole depth: blocks were slower on an AVX2 machine (without prefetching; not
// measured since).
int64_t DotProductDepthBlock(int64_t rows, int64_t depth, int64_t element_bytes, int64_t vector_length,
                             int64_t vector_bits, int64_t l1_bytes, bool widened_rhs) {
  constexpr int64_t kRowsBudget = 32 * 1024, kPieceBytes = 4 * 1024, kMinRowsInPieces = 4, kMinPiecesPerL1 = 12;
  static_assert(kRowsBudget / kMaxDotProductRows >= kPieceBytes, "8 rows of pieces fit the budget");
  if (vector_bits < 512) return 0;
  if (!ShapedType::isDynamic(depth) && rows * depth * element_bytes <= kRowsBudget) return 0;
  int64_t row_bytes = kRowsBudget / rows;
  if (rows >= kMinRowsInPieces) {
    row_bytes = kPieceBytes;
    while (!widened_rhs && row_bytes > 2 * vector_length * element_bytes &&
           (rows * row_bytes * 3 > l1_bytes * 2 || row_bytes * kMinPiecesPerL1 > l1_bytes)) {
      row_bytes /= 2;
    }
  }
  return std::max<int64_t>(row_bytes / element_bytes / vector_length, 1) * vector_length;
}

// Whether `map`'s results are the dimensions `dims`, in that order.
bool ResultsAre(AffineMap map, ArrayRef<unsigned> dims) {
  if (map.getNumResults() != dims.size()) return false;
  for (auto [result, dim] : llvm::zip_equal(map.getResults(), dims)) {
    if (result != getAffineDimExpr(dim, map.getContext())) return false;
  }
  return true;
}

// kPackedGroupDotProduct for `op` (a matmul whose body MatchGroupDotContraction accepted):
// cache blocks of kCacheDepth x kGroupDotColumns of the right-hand operand, iterated n, k,
// each packed and passed by every row of the left-hand operand in register tiles of
// kGroupDotRows x kGroupDotColumns. Needs the layouts of matmul (B[k, n] or W[n, k]) with
// contiguous rows, 512-bit vectors, and enough rows, columns and depth to pay for packing.
std::optional<ContractionTilePlan> PlanGroupDotTiles(linalg::LinalgOp op, const linalg::ContractionDimensions& dims,
                                                     GroupDotKind kind, GroupDotFeatures features, int64_t vector_bits,
                                                     bool allow_packing) {
  if (vector_bits < 512 || !allow_packing || !dims.batch.empty()) return std::nullopt;
  unsigned m = dims.m.front(), n = dims.n.front(), k = dims.k.front();
  OpOperand *lhs = op.getDpsInputOperand(0), *rhs = op.getDpsInputOperand(1), *out = op.getDpsInitOperand(0);
  if (op.getMatchingIndexingMap(lhs).isFunctionOfDim(n)) std::swap(lhs, rhs);
  bool transposed = ResultsAre(op.getMatchingIndexingMap(rhs), {n, k});
  if (!ResultsAre(op.getMatchingIndexingMap(lhs), {m, k}) || !ResultsAre(op.getMatchingIndexingMap(out), {m, n}) ||
      (!transposed && !ResultsAre(op.getMatchingIndexingMap(rhs), {k, n}))) {
    return std::nullopt;
  }
  if (!HasContiguousRows(lhs->get()) || !HasContiguousRows(rhs->get()) || !HasContiguousRows(out->get())) {
    return std::nullopt;
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto at_least = [](int64_t size, int64_t least) { return ShapedType::isDynamic(size) || size >= least; };
  if (!at_least(ranges[m], kMinPackedRows) || !at_least(ranges[n], kGroupDotColumns) ||
      !at_least(ranges[k], GroupSize(kind))) {
    return std::nullopt;
  }
  ContractionTilePlan plan;
  plan.kernel = ContractionKernel::kPackedGroupDotProduct;
  plan.group_kind = kind;
  plan.transposed_rhs = transposed;
  plan.m_dim = m;
  plan.n_dim = n;
  plan.k_dim = k;
  plan.vector_length = kGroupDotLanes;
  plan.cache_tile.assign(op.getNumLoops(), 0);
  plan.cache_tile[n] = kGroupDotColumns;
  // i8 blocks are 1024 deep (the packed block is 32 KiB, as a 256-deep f32 block): a
  // register tile then takes 256 steps instead of 64 between loading and storing its
  // accumulators, 3-5% faster on Zen 5 (1024^3, both layouts). bf16 blocks 512 deep were
  // 4% slower than 256.
  plan.cache_tile[k] = kind == GroupDotKind::kI8Quads ? 4 * kCacheDepth : kCacheDepth;
  plan.cache_order = {n, k, m};
  plan.register_tile.assign(op.getNumLoops(), 0);
  plan.register_tile[m] = kGroupDotRows;
  plan.register_tile[n] = kGroupDotColumns;
  bool amx = kind == GroupDotKind::kBF16Pairs ? features.amx_bf16 : features.amx_i8;
  const int64_t step = kAmxStepGroups * GroupSize(kind);
  if (amx && !ShapedType::isDynamic(ranges[k]) && ranges[k] % step == 0 && at_least(ranges[m], kMatrixTileRows)) {
    // AMX tiles (MatrixTileProducts.h) take whole steps of k, so every block's depth is a
    // multiple of a step that divides the depth: the deepest whose packed block fits
    // kMatrixTileBlockBytes.
    const int64_t element_bytes = kind == GroupDotKind::kBF16Pairs ? 2 : 1;
    int64_t depth = std::min(kMatrixTileBlockBytes / (kGroupDotColumns * element_bytes), ranges[k]);
    depth -= depth % step;
    while (ranges[k] % depth != 0) depth -= step;
    plan.matrix_tiles = true;
    plan.cache_tile[k] = depth;
    plan.cache_tile[n] = kMatrixTileBlockColumns;
    plan.cache_order = {k, n, m};
    plan.register_tile[m] = kMatrixTileRows;
  }
  return plan;
}

}  // namespace

int64_t SpreadRowsStride(int64_t rows, int64_t length, int64_t element_bytes) {
  int64_t way_elements = kL1WayBytes / element_bytes;
  int64_t apart = kL1WayBytes / static_cast<int64_t>(llvm::PowerOf2Ceil(std::max<int64_t>(rows, 1)));
  return llvm::alignTo(length, way_elements) + std::max<int64_t>(apart / element_bytes, 1);
}

bool IsWidenableOperand(Type input, Type output) { return output.isF32() && (input.isF16() || input.isBF16()); }

bool HasMultiplyAddBody(linalg::LinalgOp op) {
  Block* body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1) return false;
  Operation* add = yield.getOperand(0).getDefiningOp();
  if (!isa_and_present<arith::AddFOp, arith::AddIOp>(add)) return false;
  Value out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  if (!llvm::is_contained(add->getOperands(), out)) return false;
  Value product = add->getOperand(0) == out ? add->getOperand(1) : add->getOperand(0);
  Operation* multiply = product.getDefiningOp();
  if (!isa_and_present<arith::MulFOp, arith::MulIOp>(multiply)) return false;
  // Each factor is an input, or an extension of one; every op of the body is accounted for.
  int64_t ops = 3;  // add, multiply, yield
  for (Value factor : multiply->getOperands()) {
    if (Operation* extension = factor.getDefiningOp()) {
      if (!isa<arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp>(extension)) return false;
      factor = extension->getOperand(0);
      ++ops;
    }
    auto argument = dyn_cast<BlockArgument>(factor);
    if (!argument || argument.getOwner() != body || argument == out) return false;
  }
  return static_cast<int64_t>(body->getOperations().size()) == ops;
}

bool IsStaticBufferOfAtLeast(Value buffer, int64_t bytes) {
  auto view = dyn_cast<MemrefValue>(buffer);
  if (!view) return false;
  auto root = dyn_cast<MemRefType>(memref::skipViewLikeOps(view).getType());
  return root && root.hasStaticShape() && root.getNumElements() * root.getElementTypeBitWidth() / 8 >= bytes;
}

std::optional<ContractionTilePlan> PlanContractionTiles(linalg::LinalgOp op, int64_t vector_bits, bool allow_packing,
                                                       GroupDotFeatures group_dots, int64_t l1_data_bytes) {
  if (!op.hasPureBufferSemantics() || op->hasAttr(kRegisterTileAttr) || op->hasAttr(kDotProductTileAttr)) {
    return std::nullopt;
  }
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op) ||
      !HasMultiplyAddBody(op)) {
    return std::nullopt;
  }
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 || dims->k.size() != 1) return std::nullopt;
  // An empty iteration space (a static extent of 0) has nothing to tile; it stays a loop nest.
  if (llvm::is_contained(op.getStaticLoopRanges(), 0)) return std::nullopt;
  if (std::optional<GroupDotKind> kind = MatchGroupDotContraction(op, group_dots)) {
    // Otherwise (too few rows, say) bf16 may still be widened into f32 packs below.
    if (auto plan = PlanGroupDotTiles(op, *dims, *kind, group_dots, vector_bits, allow_packing)) return plan;
  }
  Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  bool native_f16 = element.isF16() && group_dots.f16_vectors && vector_bits >= 512;
  if (!element.isF32() && !element.isF64() && !native_f16) return std::nullopt;
  bool widened = false;
  for (Value input : op.getDpsInputs()) {
    Type input_element = getElementTypeOrSelf(input.getType());
    if (input_element == element) continue;
    if (!IsWidenableOperand(input_element, element)) return std::nullopt;
    widened = true;
  }
  // Only linalg.matmul and linalg.batch_matmul are known to widen their operands before
  // multiplying (their cast); a generic of the same shape may compute something else in
  // the narrow type.
  if (widened && !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation())) return std::nullopt;
  unsigned m = dims->m.front(), n = dims->n.front(), k = dims->k.front();
  auto innermost_is = [&](OpOperand* operand, unsigned dim) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    return map.getNumResults() > 0 && map.getResults().back() == getAffineDimExpr(dim, op.getContext()) &&
           HasContiguousRows(operand->get());
  };
  OpOperand *lhs = nullptr, *rhs = nullptr;
  for (OpOperand* input : op.getDpsInputOperands()) {
    (op.getMatchingIndexingMap(input).isFunctionOfDim(n) ? rhs : lhs) = input;
  }
  OpOperand* out = op.getDpsInitOperand(0);
  if (!lhs || !rhs || !innermost_is(out, n)) return std::nullopt;

  ContractionTilePlan plan;
  vector_bits = std::max<int64_t>(vector_bits, 128);
  plan.vector_length = vector_bits / element.getIntOrFloatBitWidth();
  plan.m_dim = m;
  plan.n_dim = n;
  plan.k_dim = k;
  unsigned loops = op.getNumLoops();
  plan.register_tile.assign(loops, 1);  // batch dimensions: one at a time
  bool rhs_k_n = innermost_is(rhs, n), rhs_n_k = innermost_is(rhs, k);
  if (!rhs_k_n && !rhs_n_k) return std::nullopt;
  int64_t rows = op.getStaticLoopRanges()[m];
  bool dot_products = rhs_n_k && !ShapedType::isDynamic(rows) && rows <= kMaxDotProductRows && innermost_is(lhs, k);
  if (widened && !dot_products) {
    // Narrow operands are widened by the packing copies: the right-hand one always, the
    // left-hand one too in a matmul with 512-bit vectors and widened whole first
    // otherwise (a batch matmul, or AVX2: CopyLeftHandOperand). For the product on an
    // already packed block, the left-hand operand is then the only narrow one (its whole
    // groups of rows are packed later; the last rows widen the values they read).
    // Dot-product tiles widen x once too.
    bool lhs_only = !allow_packing && getElementTypeOrSelf(rhs->get().getType()) == element;
    if (!allow_packing && !lhs_only) return std::nullopt;
  }
  // The dot-product kernel's sums are f32 or f64 only; f16 into f16 takes packing.
  if (!native_f16 && dot_products) {
    plan.kernel = ContractionKernel::kDotProduct;
    plan.register_tile[m] = DotProductRows(rows, vector_bits);
    plan.register_tile[n] = DotProductColumns(plan.register_tile[m], vector_bits);
    for (unsigned d : dims->batch) plan.cache_order.push_back(d);
    int64_t depth = op.getStaticLoopRanges()[k];
    int64_t element_bytes = element.getIntOrFloatBitWidth() / 8;
    if (int64_t columns = InOrderDotProductColumns(rows, vector_bits);
        columns > 0 && !ShapedType::isDynamic(depth) && dims->batch.empty() &&
        IsBeyondPrivateCache(rhs->get())) {
      // W's rows in memory order (InOrderDotProductColumns): tiles over the whole depth, a
      // chunk of W's rows each, prefetching the next tile's rows as one sequence.
      plan.register_tile[n] = columns;
      plan.register_tile[k] = depth;
      plan.chunk_rows = columns;
      plan.cache_order.append({k, n, m});
      return plan;
    }
    int64_t block =
        DotProductDepthBlock(rows, depth, element_bytes, plan.vector_length, vector_bits, l1_data_bytes,
                             getElementTypeOrSelf(rhs->get().getType()) != element);
    if (block > 0) {
      // Blocks of k whose rows of x (all groups of rows) stay in L1 while every column of
      // W passes them; W is then read in pieces of `block` elements, short runs that the
      // tiles prefetch a few rows of W ahead (the hardware prefetchers alone lose most of
      // the bandwidth on them).
      plan.register_tile[k] = block;
      // Two columns of W per tile, and each tile prefetches the rows of the tile after the
      // next (4 rows ahead; the next tile's, 2 rows ahead, before the pieces could be 2 KiB
      // and a tile's time shrank with them: Zen 4, M = 8 in pieces of 2 KiB, 1 thread
      // 3.98-4.10 against 4.25-4.70 ms, 2 threads 2.28-2.41 against 2.45-3.12; 8 rows
      // ahead no better; M = 4, then in 4 KiB pieces, alike, as on Zen 5 below). Measured
      // on Zen 5 (K = N = 4096, against a streaming read of W): M = 4 in tiles of 4 columns
      // prefetching 8 rows ahead read at 0.77-0.83 of the read, in tiles of 2 at 0.92-1.0
      // (2, 4 or 8 rows ahead alike); M = 8 (tiles of 2) prefetching 8 rows ahead at 0.84,
      // 2 rows ahead at 0.81-0.93 (noisy), 1 row ahead at 0.55. On the Intel Xeon (blocks
      // of 1024): 3 or 4 columns, 4 rows ahead, prefetching into L2 (prefetcht1 or t2)
      // all within the noise of 2 columns; prefetchnta read at 0.22-0.28.
      plan.register_tile[n] = std::min<int64_t>(plan.register_tile[n], kDotProductBlockColumns);
      plan.prefetch_rows = 2 * plan.register_tile[n];
      plan.spread_lhs_rows = rows > 1 && block * element_bytes < kL1WayBytes;
      // Pieces that short, W's rows a block apart, read slower than whole rows in order
      // (a C model of the read alone, Zen 4, 2 threads: 2 KiB pieces 34-36 GB/s, 4 KiB
      // 38-39, the streaming read 43-46). With a static depth the rows are then taken in
      // chunks, each tile prefetching its share of the next chunk, whole rows in memory
      // order: Zen 4, M = 8, K = N = 4096 f32, alternating processes, 2 threads 1.75-2.00
      // ms against 2.02-2.34 prefetching 4 rows ahead, 1 thread 3.09-3.35 against
      // 3.59-4.26; chunks of 128 or 512 KiB alike on 2 threads, 128 KiB slower on 1
      // (3.53-3.69 ms: each chunk reads the pieces of x from L2 again). M = 4 in 4 KiB
      // pieces gained nothing from chunks (2 threads 1.56-1.92 against 1.49-1.81 ms, 1
      // thread 2.50-2.95 against 2.46-2.81), so only spread x takes them (M = 4 in 2 KiB
      // pieces on a 32 KiB L1 does, DotProductDepthBlock). Batched
      // products keep the rows ahead (their chunks would be chunks of one matrix of W).
      if (plan.spread_lhs_rows && !ShapedType::isDynamic(depth) && dims->batch.empty()) {
        int64_t columns = plan.register_tile[n];
        plan.chunk_rows = std::max<int64_t>(kDotProductChunkBytes / (depth * element_bytes) / columns, 1) * columns;
      }
      plan.cache_order.append({k, n, m});
      return plan;
    }
    // The whole depth: W is then read row after row, in memory order, and each tile of
    // columns for all groups of rows in turn, so W is read once from memory.
    plan.register_tile[k] = 0;
    plan.cache_order.append({n, m, k});
    return plan;
  }
  SmallVector<unsigned> batch_m_k(dims->batch.begin(), dims->batch.end()), batch_rhs = batch_m_k,
      batch_m_n = batch_m_k;
  batch_m_k.append({m, k});
  batch_rhs.append({rhs_n_k ? n : k, rhs_n_k ? k : n});
  batch_m_n.append({m, n});
  bool packable = dims->batch.size() <= 1 && ResultsAre(op.getMatchingIndexingMap(lhs), batch_m_k) &&
                  ResultsAre(op.getMatchingIndexingMap(rhs), batch_rhs) &&
                  ResultsAre(op.getMatchingIndexingMap(out), batch_m_n);
  if (widened && allow_packing && !packable) return std::nullopt;
  if (rhs_n_k) {
    if (!packable || !allow_packing) return std::nullopt;
    plan.kernel = ContractionKernel::kPackedOuterProduct;
    plan.transposed_rhs = true;
  } else {
    bool enough_rows = ShapedType::isDynamic(rows) || rows >= kMinPackedRows || widened;
    plan.kernel = packable && allow_packing && enough_rows ? ContractionKernel::kPackedOuterProduct
                                                           : ContractionKernel::kOuterProduct;
  }
  plan.cache_tile.assign(loops, 1);
  // Blocks of whole register tiles, so that only the last block of rows has a remainder.
  // f16 tiles are 16 rows x 1 vector: each broadcast of a row's value then feeds one FMA,
  // which takes it as an embedded broadcast ({1to32}, done by the load port). With
  // 8 x 2, each vpbroadcastw (a load and a shuffle on port 5, one of the two FMA ports)
  // fed two FMAs, and the 8 shuffles per 16 FMAs held 1024^3 to the f32 kernel's speed.
  OuterProductTile tile = OuterProductTileFor(vector_bits, native_f16);
  plan.cache_tile[m] = kCacheRows / tile.rows * tile.rows;
  plan.cache_tile[n] = kCacheColumns;
  plan.cache_tile[k] = kCacheDepth;
  plan.register_tile[m] = tile.rows;
  plan.register_tile[n] = tile.column_vectors * plan.vector_length;
  // A packed block is one register tile wide: its rows are then contiguous, so the whole
  // block (kPackedBlockBytes) stays in L1 while every row of the left-hand operand passes
  // it; beyond the last-level cache it is deeper (512 x 4 vectors, 128 KiB in f32) and
  // streams from L2 in order. 4096^3 on the Intel Xeon with 6 x 4 tiles: 0.88 of oneDNN
  // 512 deep, 0.85 256 deep, 0.77 128 deep (the output passes through memory once per
  // block of k); 8 x 2 tiles 512 deep: 0.81-0.90.
  if (plan.kernel == ContractionKernel::kPackedOuterProduct) {
    plan.cache_tile[n] = plan.register_tile[n];
    int64_t row_bytes = plan.register_tile[n] * element.getIntOrFloatBitWidth() / 8;
    int64_t depth = op.getStaticLoopRanges()[k];
    plan.cache_tile[k] = IsBeyondLastLevelCache(out->get())
                             ? kDeepCacheDepth
                             : std::clamp<int64_t>(kPackedBlockBytes / row_bytes, 1, kCacheDepth);
    // A depth of at most kCacheDepth is one block (64 KiB of f32 at most, from L2): each
    // output is then written once, its fill folded in, instead of read back per block.
    // Batch matmul 16 x 256^3 f32 on Zen 4, medians of 5 alternating processes: 5.41
    // against 5.47 ms (1 thread), 2.75 against 2.90 (2).
    if (!ShapedType::isDynamic(depth) && depth <= kCacheDepth) {
      plan.cache_tile[k] = std::max(plan.cache_tile[k], depth);
    }
  }
  for (unsigned d : dims->batch) plan.cache_order.push_back(d);
  // Blocks of k outermost: the left-hand operand's columns of one block of k (kc x m, 4 MiB
  // for 4096 rows) stay in L3 while every block of columns passes them. With n outermost,
  // a left-hand operand beyond L3 was read from memory once per register tile of columns:
  // 4096^3 ran at 0.80 of 1024^3's rate (204 against 257 GFLOP/s, Zen 5, 1 thread), and at
  // 1.0 with k outermost; 1024^3 did not change. The output then passes once per block of k.
  plan.cache_order.append({k, n, m});
  return plan;
}

}  // namespace kiln::compiler::cpu
