// kiln-cpu-vectorize-dequantizing-products: decode-shaped products whose weights are
// dequantized in the product's body (kiln-fuse-dequantization) become dot-product vector
// code that dequantizes each vector of weights as it is loaded.
//
// The op (after distribution and bufferization): a linalg.generic on buffers with loops
// (m, n, k) or (m, n, kb, t), m static and at most kMaxDotProductRows, out[m, n] +=
// x[m, k] * D, where D is computed by the body from a byte of the weights w[n, k] (i8, or
// the packed bytes w[n, kb] of sub-byte weights with t the element within a byte), values
// read per column of the output at (n) or (n, k floordiv c) (scales, zero points), and
// linalg.index t. Each register tile of rows x a few columns runs a loop over k in steps
// of a vector: one load of the weights' bytes per column, D evaluated on vectors (the
// body's own ops, cloned with vector types, so any dequantization formula works), and
// one FMA per row, column and element of a byte into vectors of partial sums, reduced
// once at the end. x's elements of one t are taken from its contiguous rows by shuffles.
//
// Blocks of weights (GGUF's Q8_0 / Q4_0 read from the file's bytes, after
// kiln-fuse-dequantization expanded the product through their collapse) arrive with
// loops (m, n, kb, k) or (m, n, kb, k, t): weights w[n, kb, k] (the bytes of a block,
// contiguous in k), x[m, kb, k] or x[m, kb, t, k] (element t of byte k is x's k of the
// t-th part of the block: contiguous, no shuffles), per-column values at (n) or (n, kb)
// (the block's scale, hoisted as a group scale), and linalg.index t. Reduction loops of
// one iteration (a packed binding's byte loop over a whole byte) are dropped first.
//
// With 16 lanes, a value of D that depends on one nibble alone is looked up in a table
// (NibbleTables.h) instead of computed.
#include "compiler/codegen/cpu/ContractionTiling.h"
#include "compiler/codegen/cpu/NibbleTables.h"
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/utils/IntegerNarrowing.h"
#include "compiler/utils/UnitLoops.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/IRMapping.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_VECTORIZEDEQUANTIZINGPRODUCTS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// A per-column operand: each result of its map is loop n, loop kb or (k floordiv divisor).
struct ColumnOperand {
  BlockArgument arg;
  Value buffer;
  SmallVector<int64_t> divisors;  // per result: 0 for n, kBlock for kb, else the divisor of k
};
constexpr int64_t kBlock = -1;

struct Product {
  linalg::GenericOp op;
  unsigned m = 0, n = 0, k = 0;
  std::optional<unsigned> t;      // the element within a byte of packed weights
  std::optional<unsigned> block;  // kb of blocked weights w[n, kb, k]
  int64_t blocks = 1;             // its range
  int64_t rows = 0, depth = 0, per_byte = 1;
  Value x, weights, out;
  BlockArgument x_arg, weights_arg;
  SmallVector<ColumnOperand> columns;
  Value dequantized;  // D, in the body
};

std::optional<unsigned> DimOf(AffineExpr e) {
  if (auto dim = dyn_cast<AffineDimExpr>(e)) return dim.getPosition();
  return std::nullopt;
}

bool IsDims(AffineMap map, ArrayRef<unsigned> dims) {
  if (map.getNumResults() != dims.size()) return false;
  for (auto [e, d] : llvm::zip(map.getResults(), dims)) {
    if (DimOf(e) != d) return false;
  }
  return true;
}

// The ops of `op`'s body that `value` is computed from, its own included (empty for a
// block argument or a value from outside the body); `leaf`, when given, is included but
// not what it is computed from.
SetVector<Operation*> SliceInBody(linalg::GenericOp op, Value value, Operation* leaf = nullptr) {
  SetVector<Operation*> slice;
  Block* body = op.getBody();
  Operation* def = value.getDefiningOp();
  if (!def || def->getBlock() != body) return slice;
  if (def != leaf) {
    BackwardSliceOptions options;
    options.filter = [&](Operation* inner) { return inner->getBlock() == body && inner != leaf; };
    (void)getBackwardSlice(def, &slice, options);
  }
  slice.insert(def);
  bool reached = llvm::any_of(slice, [&](Operation* inner) {
    return llvm::any_of(inner->getOperands(), [&](Value v) { return leaf && v.getDefiningOp() == leaf; });
  });
  if (reached) slice.insert(leaf);
  return slice;
}

// The product `op` computes, or nullopt when it is not one (see the file comment).
std::optional<Product> MatchProduct(linalg::GenericOp op, int64_t lanes) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 || op.getNumDpsInputs() < 2) return std::nullopt;
  Product p;
  p.op = op;
  OpOperand* out = op.getDpsInitOperand(0);
  AffineMap out_map = op.getMatchingIndexingMap(out);
  if (out_map.getNumResults() != 2) return std::nullopt;
  std::optional<unsigned> m = DimOf(out_map.getResult(0)), n = DimOf(out_map.getResult(1));
  if (!m || !n) return std::nullopt;
  p.m = *m;
  p.n = *n;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned loops = op.getNumLoops();
  if (loops < 3 || loops > 5 || iterators[p.m] != utils::IteratorType::parallel ||
      iterators[p.n] != utils::IteratorType::parallel) {
    return std::nullopt;
  }
  SmallVector<unsigned> reductions;
  for (unsigned d = 0; d < loops; ++d) {
    if (d == p.m || d == p.n) continue;
    if (iterators[d] != utils::IteratorType::reduction) return std::nullopt;
    reductions.push_back(d);
  }
  p.rows = ranges[p.m];
  if (ShapedType::isDynamic(p.rows) || p.rows > kMaxDotProductRows) return std::nullopt;
  p.out = out->get();
  if (getElementTypeOrSelf(p.out.getType()) != Float32Type::get(op.getContext())) return std::nullopt;
  // The weights: i8 read at (n, k) or, in blocks, (n, kb, k); then x at (m, k), (m, k, t),
  // (m, kb, k) or (m, kb, t, k).
  unsigned weights_results = 0;
  for (OpOperand* input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    unsigned results = map.getNumResults();
    if (!getElementTypeOrSelf(input->get().getType()).isInteger(8) || (results != 2 && results != 3) ||
        DimOf(map.getResult(0)) != p.n) {
      continue;
    }
    SmallVector<unsigned> dims;
    for (AffineExpr e : map.getResults().drop_front()) {
      if (std::optional<unsigned> d = DimOf(e); d && llvm::is_contained(reductions, *d)) dims.push_back(*d);
    }
    if (dims.size() + 1 != results || (results == 3 && dims[0] == dims[1])) continue;
    if (p.weights && results <= weights_results) continue;  // blocks' bytes over a per-block i8 value
    weights_results = results;
    p.k = dims.back();
    p.block = results == 3 ? std::optional<unsigned>(dims[0]) : std::nullopt;
    p.weights = input->get();
    p.weights_arg = op.getMatchingBlockArgument(input);
  }
  if (!p.weights) return std::nullopt;
  for (unsigned d : reductions) {
    if (d == p.k || d == p.block) continue;
    if (p.t) return std::nullopt;  // a second loop that is neither k, kb nor t
    p.t = d;
  }
  if (p.block) {
    p.blocks = ranges[*p.block];
    if (ShapedType::isDynamic(p.blocks)) return std::nullopt;
  }
  p.depth = ranges[p.k];
  p.per_byte = p.t ? ranges[*p.t] : 1;
  if (ShapedType::isDynamic(p.depth) || ShapedType::isDynamic(p.per_byte) || p.depth % lanes != 0) return std::nullopt;
  for (OpOperand* input : op.getDpsInputOperands()) {
    if (input->get() == p.weights && op.getMatchingBlockArgument(input) == p.weights_arg) continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<unsigned> x_dims = {p.m, p.k};
    if (p.t) x_dims.push_back(*p.t);
    if (p.block) {
      x_dims = {p.m, *p.block};
      if (p.t) x_dims.push_back(*p.t);
      x_dims.push_back(p.k);
    }
    if (!p.x && IsDims(map, x_dims)) {
      if (getElementTypeOrSelf(input->get().getType()) != Float32Type::get(op.getContext())) return std::nullopt;
      p.x = input->get();
      p.x_arg = op.getMatchingBlockArgument(input);
      continue;
    }
    ColumnOperand column{op.getMatchingBlockArgument(input), input->get(), {}};
    for (AffineExpr e : map.getResults()) {
      if (DimOf(e) == p.n) {
        column.divisors.push_back(0);
        continue;
      }
      if (p.block && DimOf(e) == p.block) {
        column.divisors.push_back(kBlock);
        continue;
      }
      auto floor = dyn_cast<AffineBinaryOpExpr>(e);
      auto divisor = floor ? dyn_cast<AffineConstantExpr>(floor.getRHS()) : AffineConstantExpr();
      if (!floor || floor.getKind() != AffineExprKind::FloorDiv || DimOf(floor.getLHS()) != p.k || !divisor ||
          divisor.getValue() % lanes != 0) {
        return std::nullopt;
      }
      column.divisors.push_back(divisor.getValue());
    }
    p.columns.push_back(column);
  }
  if (!p.x) return std::nullopt;
  // The body: out + x * D (either order), D from neither out nor x.
  Block* body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  BlockArgument out_arg = op.getMatchingBlockArgument(out);
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add) return std::nullopt;
  Value product = add.getLhs() == out_arg ? add.getRhs() : add.getRhs() == out_arg ? add.getLhs() : Value();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : arith::MulFOp();
  if (!mul) return std::nullopt;
  p.dequantized = mul.getLhs() == p.x_arg ? mul.getRhs() : mul.getRhs() == p.x_arg ? mul.getLhs() : Value();
  if (!p.dequantized) return std::nullopt;
  for (Operation* inner : SliceInBody(op, p.dequantized)) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      if (!p.t || index.getDim() != *p.t) return std::nullopt;
      continue;
    }
    if (!isa<arith::ArithDialect>(inner->getDialect()) || inner->getNumRegions() != 0) return std::nullopt;
    for (Value operand : inner->getOperands()) {
      if (operand == out_arg || operand == p.x_arg) return std::nullopt;
    }
  }
  return p;
}

class ProductEmitter {
 public:
  ProductEmitter(RewriterBase& rewriter, Product p, int64_t lanes)
      : b_(rewriter), p_(std::move(p)), lanes_(lanes), loc_(p_.op.getLoc()) {
    target_ = p_.dequantized;
    // D = E * S, S a per-column operand s (or a value of s alone, such as an f16 scale
    // widened) constant over groups that divide the depth, E not reading s: hoist S.
    auto mul = p_.dequantized.getDefiningOp<arith::MulFOp>();
    if (!mul) return;
    for (const ColumnOperand& column : p_.columns) {
      for (auto [scale, other] : {std::pair(mul.getLhs(), mul.getRhs()), std::pair(mul.getRhs(), mul.getLhs())}) {
        if (!OnlyOf(scale, column.arg) || DependsOn(other, column.arg)) continue;
        int64_t group = p_.depth;
        bool valid = true;
        for (int64_t divisor : column.divisors) {
          if (divisor == 0 || divisor == kBlock) continue;  // constant over a block's k
          if (group != p_.depth || p_.depth % divisor != 0) valid = false;
          group = divisor;
        }
        if (!valid) continue;
        scale_ = column;
        scale_value_ = scale;
        group_ = group;
        target_ = other;
        return;
      }
    }
  }

  // The index ops of the nibble lookups, whose 32-bit lanes the narrowing must keep.
  ArrayRef<Operation*> NibbleIndexOps() const { return nibble_index_ops_; }

  // Emits the product's loops before the op (which the caller erases); returns them.
  SmallVector<Operation*> Emit() {
    b_.setInsertionPoint(p_.op);
    // With 16 lanes (AVX-512F: vpermps), a value of one nibble alone is a table lookup.
    if (lanes_ == 16) {
      SetVector<Operation*> slice = SliceInBody(p_.op, target_);
      nibble_table_ = FindNibbleTable(p_.op.getBody(), slice.getArrayRef());
    }
    // x as [rows, depth * per_byte]: the rows of its (m, k, t) view are contiguous.
    x_ = p_.x;
    if (p_.t && !p_.block) {
      x_ = memref::CollapseShapeOp::create(b_, loc_, x_, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
    }
    Value columns = memref::DimOp::create(b_, loc_, p_.out, 1);
    // Columns per tile: rows x columns sums, 2 x columns values and a row of x within the
    // 32 (16 with AVX2) vector registers.
    // A hoisted group scale keeps two sets of sums live (the group's and the total's).
    int64_t registers = lanes_ >= 16 ? 32 : 16, sets = scale_ ? 2 : 1;
    int64_t tile = 4;
    while (tile > 1 && sets * p_.rows * tile + 2 * tile + 2 > registers) tile /= 2;
    // Each step prefetches, beside each column's bytes, the same bytes of the row of the
    // tile after the next into L2: one stream per column is more than the hardware
    // prefetchers follow from short rows (as kiln.prefetch_rows in the f32 products).
    prefetch_ahead_ = 2 * tile;
    if (p_.block && scale_ && scale_->divisors == ArrayRef<int64_t>{0, kBlock} && p_.blocks % lanes_ == 0) {
      CreateScaleStages(tile);
    }
    last_row_ = arith::SubIOp::create(b_, loc_, memref::DimOp::create(b_, loc_, p_.weights, 0), Index(1));
    Value step = Index(tile);
    Value whole = arith::SubIOp::create(b_, loc_, columns, arith::RemUIOp::create(b_, loc_, columns, step));
    auto tiles = scf::ForOp::create(b_, loc_, Index(0), whole, step);
    auto rest = scf::ForOp::create(b_, loc_, whole, columns, Index(1));
    b_.setInsertionPoint(tiles.getBody()->getTerminator());
    Tile(tiles.getInductionVar(), tile);
    b_.setInsertionPoint(rest.getBody()->getTerminator());
    Tile(rest.getInductionVar(), 1);
    return {tiles, rest};
  }

 private:
  Value Index(int64_t v) { return arith::ConstantIndexOp::create(b_, loc_, v); }

  // One register tile: all rows by `count` columns from `n0`. When D is E * s with s a
  // per-column value constant over groups of k (a group scale), the tile sums x * E over
  // each group and adds the group's sum times s once (one multiply per group and column
  // instead of one per vector).
  void Tile(Value n0, int64_t count) {
    OpBuilder::InsertionGuard guard(b_);
    auto vector_type = VectorType::get({lanes_}, b_.getF32Type());
    Value zeros = arith::ConstantOp::create(b_, loc_, vector_type, b_.getZeroAttr(vector_type));
    SmallVector<Value> initial(p_.rows * count, zeros);
    SmallVector<Value> column_index;
    for (int64_t c = 0; c < count; ++c) column_index.push_back(arith::AddIOp::create(b_, loc_, n0, Index(c)));
    SmallVector<Value> totals;
    if (p_.block) {
      // Blocked weights: the loop over k below, once per block, the sums carried across;
      // with staged scales, in chunks of `lanes_` blocks, each chunk's scales staged first.
      auto block_loop = [&](Value from, Value to, ValueRange sums_in) {
        auto blocks = scf::ForOp::create(b_, loc_, from, to, Index(1), sums_in);
        b_.setInsertionPointToStart(blocks.getBody());
        SmallVector<Value> sums =
            DepthLoop(blocks.getInductionVar(), blocks.getRegionIterArgs(), zeros, column_index);
        scf::YieldOp::create(b_, loc_, sums);
        b_.setInsertionPointAfter(blocks);
        return blocks;
      };
      scf::ForOp outer;
      if (scale_stage_) {
        // Each chunk converts the raw scales copied one chunk before and copies the next
        // chunk's (the last chunk's again at the end, harmlessly), into the other slot.
        CopyScales(Index(0), Index(0), column_index);
        outer = scf::ForOp::create(b_, loc_, Index(0), Index(p_.blocks), Index(lanes_), initial);
        b_.setInsertionPointToStart(outer.getBody());
        chunk_start_ = outer.getInductionVar();
        Value slot = arith::RemUIOp::create(b_, loc_, arith::DivUIOp::create(b_, loc_, chunk_start_, Index(lanes_)),
                                            Index(2));
        ConvertScales(slot, column_index.size());
        Value next = arith::MinUIOp::create(b_, loc_, arith::AddIOp::create(b_, loc_, chunk_start_, Index(lanes_)),
                                            Index(p_.blocks - lanes_));
        CopyScales(next, arith::SubIOp::create(b_, loc_, Index(1), slot), column_index);
        Value end = arith::AddIOp::create(b_, loc_, chunk_start_, Index(lanes_));
        scf::ForOp chunk = block_loop(chunk_start_, end, outer.getRegionIterArgs());
        scf::YieldOp::create(b_, loc_, chunk.getResults());
        b_.setInsertionPointAfter(outer);
      } else {
        outer = block_loop(Index(0), Index(p_.blocks), initial);
      }
      totals.assign(outer.getResults().begin(), outer.getResults().end());
    } else {
      totals = DepthLoop(Value(), initial, zeros, column_index);
    }
    for (int64_t i = 0; i < p_.rows; ++i) {
      for (int64_t c = 0; c < count; ++c) {
        SmallVector<Value> at = {Index(i), column_index[c]};
        Value before = memref::LoadOp::create(b_, loc_, p_.out, at);
        Value total = vector::ReductionOp::create(b_, loc_, vector::CombiningKind::ADD, totals[i * count + c],
                                                  before, arith::FastMathFlags::reassoc);
        memref::StoreOp::create(b_, loc_, total, p_.out, at);
      }
    }
  }

  // The loop over k (of block `kb` when the weights are blocked, else null) from `sums`,
  // leaving the builder after it; returns the new sums. With a hoisted group scale, each
  // group's partial sums start from `zeros` and are added times the scale once.
  SmallVector<Value> DepthLoop(Value kb, ValueRange sums, Value zeros, ArrayRef<Value> column_index) {
    int64_t count = column_index.size();
    if (!scale_) {
      auto loop = scf::ForOp::create(b_, loc_, Index(0), Index(p_.depth), Index(lanes_), sums);
      b_.setInsertionPointToStart(loop.getBody());
      scf::YieldOp::create(b_, loc_, Step(loop.getInductionVar(), kb, loop.getRegionIterArgs(), column_index));
      b_.setInsertionPointAfter(loop);
      return SmallVector<Value>(loop.getResults());
    }
    SmallVector<Value> initial(p_.rows * count, zeros);
    auto loop = scf::ForOp::create(b_, loc_, Index(0), Index(p_.depth), Index(group_), sums);
    b_.setInsertionPointToStart(loop.getBody());
    Value g0 = loop.getInductionVar();
    Value g_end = arith::AddIOp::create(b_, loc_, g0, Index(group_));
    auto steps = scf::ForOp::create(b_, loc_, g0, g_end, Index(lanes_), initial);
    b_.setInsertionPointToStart(steps.getBody());
    scf::YieldOp::create(b_, loc_, Step(steps.getInductionVar(), kb, steps.getRegionIterArgs(), column_index));
    b_.setInsertionPointAfter(steps);
    SmallVector<Value> next(loop.getRegionIterArgs());
    for (int64_t c = 0; c < count; ++c) {
      Value s;
      if (scale_stage_) {
        // Staged: the value, computed for the chunk, is one broadcast load.
        Value at = arith::SubIOp::create(b_, loc_, kb, chunk_start_);
        Value staged = memref::LoadOp::create(b_, loc_, scale_stage_, ValueRange{Index(c), at});
        s = vector::BroadcastOp::create(b_, loc_, VectorType::get({lanes_}, staged.getType()), staged);
      } else {
        // Broadcast as loaded and computed on vectors: an f16 scale is one broadcast load
        // and one conversion, not an insert, a conversion and a broadcast.
        Value loaded = LoadColumn(*scale_, column_index[c], g0, kb);
        s = ScaleOnVector(
            vector::BroadcastOp::create(b_, loc_, VectorType::get({lanes_}, loaded.getType()), loaded));
      }
      for (int64_t i = 0; i < p_.rows; ++i) {
        Value& sum = next[i * count + c];
        sum = vector::FMAOp::create(b_, loc_, steps.getResult(i * count + c), s, sum);
      }
    }
    scf::YieldOp::create(b_, loc_, next);
    b_.setInsertionPointAfter(loop);
    return SmallVector<Value>(loop.getResults());
  }

  // The hoisted scale's value (the body's ops from its operand to it, cloned on vectors)
  // for `operand`, a vector of the operand's values.
  Value ScaleOnVector(Value operand) {
    IRMapping vectors;
    vectors.map(scale_->arg, operand);
    SetVector<Operation*> slice = SliceInBody(p_.op, scale_value_);
    for (Operation& inner : p_.op.getBody()->without_terminator()) {
      if (slice.contains(&inner)) CloneVectorized(inner, vectors);
    }
    return vectors.lookupOrDefault(scale_value_);
  }

  // Block scales staged per chunk of `lanes_` blocks (for GGUF's blocks, f16 scales 18 or
  // 34 bytes apart): per block, a broadcast load of an f32 instead of a broadcast of the
  // raw value and its conversion, both on the vector ports the steps saturate (port 5's
  // shuffles bound Q4_0's steps). Per chunk and column, the raw values are copied into a
  // stack buffer by scalar loads and stores (volatile: promoted to registers, they would
  // become one vector insert each), then converted there as one vector and stored as f32.
  // The copy runs a chunk ahead of the conversion: a vector load of values just stored by
  // scalar stores waits for the stores to reach the cache (no store forwarding), and with
  // weights streamed from memory that wait would drain the out-of-order window each chunk.
  // The buffers, raw [2 slots, tile columns, lanes_] and f32 [tile columns, lanes_], are
  // allocated in the function's entry block.
  void CreateScaleStages(int64_t tile) {
    auto function = p_.op->getParentOfType<FunctionOpInterface>();
    if (!function || function.getFunctionBody().empty()) return;
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(&function.getFunctionBody().front());
    raw_stage_ = memref::AllocaOp::create(b_, loc_, MemRefType::get({2, tile, lanes_}, scale_->arg.getType()));
    scale_stage_ = memref::AllocaOp::create(b_, loc_, MemRefType::get({tile, lanes_}, scale_value_.getType()));
  }

  // Copies the raw scales of blocks `chunk` .. + lanes_ of each of `column_index` into
  // raw slot `slot`.
  void CopyScales(Value chunk, Value slot, ArrayRef<Value> column_index) {
    Type raw = scale_->arg.getType();
    int64_t tile = cast<MemRefType>(raw_stage_.getType()).getDimSize(1);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b_, loc_, raw_stage_);
    base = arith::AddIOp::create(b_, loc_, base,
                                 arith::MulIOp::create(b_, loc_, slot, Index(tile * lanes_ * raw.getIntOrFloatBitWidth() / 8)));
    base = LLVM::IntToPtrOp::create(b_, loc_, LLVM::LLVMPointerType::get(b_.getContext()),
                                    arith::IndexCastOp::create(b_, loc_, b_.getI64Type(), base).getResult());
    for (int64_t c = 0; c < static_cast<int64_t>(column_index.size()); ++c) {
      for (int64_t j = 0; j < lanes_; ++j) {
        Value kb = arith::AddIOp::create(b_, loc_, chunk, Index(j));
        Value value = LoadColumn(*scale_, column_index[c], Index(0), kb);
        if (isa<FloatType>(raw)) {  // copied as an integer: a float would pass through a vector register
          value = arith::BitcastOp::create(b_, loc_, b_.getIntegerType(raw.getIntOrFloatBitWidth()), value);
        }
        Value at = LLVM::GEPOp::create(b_, loc_, base.getType(), raw, base,
                                       ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(c * lanes_ + j)});
        LLVM::StoreOp::create(b_, loc_, value, at, /*alignment=*/0, /*isVolatile=*/true);
      }
    }
  }

  // Converts the raw scales of slot `slot` of `count` columns into the f32 buffer.
  void ConvertScales(Value slot, int64_t count) {
    Type raw = scale_->arg.getType();
    for (int64_t c = 0; c < count; ++c) {
      Value values = vector::LoadOp::create(b_, loc_, VectorType::get({lanes_}, raw), raw_stage_,
                                            ValueRange{slot, Index(c), Index(0)});
      vector::StoreOp::create(b_, loc_, ScaleOnVector(values), scale_stage_, ValueRange{Index(c), Index(0)});
    }
  }

  // The value of per-column operand `column` for the output column `n` at k offset `k`
  // (of block `kb` when the weights are blocked).
  Value LoadColumn(const ColumnOperand& column, Value n, Value k, Value kb) {
    SmallVector<Value> at;
    for (int64_t divisor : column.divisors) {
      at.push_back(divisor == 0        ? n
                   : divisor == kBlock ? kb
                                       : arith::DivUIOp::create(b_, loc_, k, Index(divisor)).getResult());
    }
    return memref::LoadOp::create(b_, loc_, column.buffer, at);
  }

  // One step of k at `kb`: `sums` (rows x columns vectors) plus x times the evaluated body
  // value (D, or E when a group scale is hoisted) for every element of a byte. The
  // columns' values come first, then each row of x, loaded and split into its elements of
  // one t (shuffles) once for all columns: rows x columns sums, 2 x columns values and one
  // row's vectors are live, and the shuffles are shared by the columns.
  SmallVector<Value> Step(Value k, Value kb, ValueRange sums_in, ArrayRef<Value> column_index) {
    auto f32 = b_.getF32Type();
    int64_t count = column_index.size();
    SmallVector<Value> sums(sums_in);
    SmallVector<SmallVector<Value>> values(count);  // per column, per t
    for (int64_t c = 0; c < count; ++c) {
      IRMapping mapping;
      SmallVector<Value> at = {column_index[c], k};
      if (kb) at.insert(at.begin() + 1, kb);
      Value bytes = vector::LoadOp::create(b_, loc_, VectorType::get({lanes_}, b_.getI8Type()), p_.weights, at);
      SmallVector<Value> ahead = at;
      ahead[0] = arith::MinUIOp::create(b_, loc_, arith::AddIOp::create(b_, loc_, at[0], Index(prefetch_ahead_)),
                                        last_row_);
      memref::PrefetchOp::create(b_, loc_, p_.weights, ahead, /*isWrite=*/false, /*localityHint=*/2,
                                 /*isDataCache=*/true);
      mapping.map(p_.weights_arg, bytes);
      for (const ColumnOperand& column : p_.columns) {
        if (scale_ && column.arg == scale_->arg) continue;
        mapping.map(column.arg, LoadColumn(column, column_index[c], k, kb));
      }
      for (int64_t t = 0; t < p_.per_byte; ++t) {
        IRMapping repetition = mapping;
        values[c].push_back(Vectorize(repetition, t));
      }
    }
    if (kb) {
      // Blocked: element t of each byte is a contiguous vector of x's part t of the block.
      auto vector_type = VectorType::get({lanes_}, f32);
      for (int64_t i = 0; i < p_.rows; ++i) {
        for (int64_t t = 0; t < p_.per_byte; ++t) {
          SmallVector<Value> at = {Index(i), kb, k};
          if (p_.t) at.insert(at.begin() + 2, Index(t));
          Value x = vector::LoadOp::create(b_, loc_, vector_type, x_, at);
          for (int64_t c = 0; c < count; ++c) {
            Value& sum = sums[i * count + c];
            sum = vector::FMAOp::create(b_, loc_, x, values[c][t], sum);
          }
        }
      }
      return sums;
    }
    Value x_offset = arith::MulIOp::create(b_, loc_, k, Index(p_.per_byte));
    for (int64_t i = 0; i < p_.rows; ++i) {
      auto wide = VectorType::get({lanes_ * p_.per_byte}, f32);
      Value loaded = vector::LoadOp::create(b_, loc_, wide, x_, ValueRange{Index(i), x_offset});
      for (int64_t t = 0; t < p_.per_byte; ++t) {
        Value x = loaded;
        if (p_.per_byte > 1) {
          SmallVector<int64_t> picks;
          for (int64_t l = 0; l < lanes_; ++l) picks.push_back(l * p_.per_byte + t);
          x = vector::ShuffleOp::create(b_, loc_, loaded, loaded, picks);
        }
        for (int64_t c = 0; c < count; ++c) {
          Value& sum = sums[i * count + c];
          sum = vector::FMAOp::create(b_, loc_, x, values[c][t], sum);
        }
      }
    }
    return sums;
  }

  // The body's value to accumulate (D, or E when a group scale is hoisted) for element `t`
  // of each byte, its ops cloned in body order with vector types where
  // an operand is a vector (scalar operands broadcast), linalg.index t as the constant t.
  Value Vectorize(IRMapping& mapping, int64_t t) {
    Block* body = p_.op.getBody();
    for (Operation& inner : body->without_terminator()) {
      if (!IsNeeded(&inner)) continue;
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        mapping.map(index.getResult(), Index(t));
        continue;
      }
      if (nibble_table_ && nibble_table_->value.getDefiningOp() == &inner) {
        mapping.map(nibble_table_->value, LookUpNibbles(b_, loc_, *nibble_table_, mapping, nibble_index_ops_));
        continue;
      }
      CloneVectorized(inner, mapping);
    }
    Value value = mapping.lookupOrDefault(target_);
    if (!isa<VectorType>(value.getType())) {
      value = vector::BroadcastOp::create(b_, loc_, VectorType::get({lanes_}, value.getType()), value);
    }
    return value;
  }

  // `inner` (an op of the body) cloned on its operands' values in `mapping`, with vector
  // types where an operand is a vector (scalar operands broadcast); its results mapped.
  void CloneVectorized(Operation& inner, IRMapping& mapping) {
    SmallVector<Value> operands = llvm::map_to_vector(inner.getOperands(), [&](Value v) {
      return mapping.lookupOrDefault(v);
    });
    bool vector = llvm::any_of(operands, [](Value v) { return isa<VectorType>(v.getType()); });
    SmallVector<Type> types(inner.getResultTypes());
    if (vector) {
      for (Value& operand : operands) {
        if (!isa<VectorType>(operand.getType())) {
          operand = vector::BroadcastOp::create(b_, loc_, VectorType::get({lanes_}, operand.getType()), operand);
        }
      }
      for (Type& type : types) type = VectorType::get({lanes_}, type);
    }
    OperationState state(loc_, inner.getName());
    state.addOperands(operands);
    state.addTypes(types);
    state.addAttributes(inner.getAttrs());
    Operation* clone = b_.create(state);
    for (auto [from, to] : llvm::zip(inner.getResults(), clone->getResults())) mapping.map(from, to);
  }

  // Whether `value` (in the body) is `arg` or computed by arith ops from it and constants.
  bool OnlyOf(Value value, BlockArgument arg) {
    if (value == Value(arg)) return true;
    Operation* def = value.getDefiningOp();
    if (!def || def->getBlock() != p_.op.getBody() || !isa<arith::ArithDialect>(def->getDialect()) ||
        def->getNumRegions() != 0) {
      return false;
    }
    if (def->getNumOperands() == 0) return false;  // a constant alone is no scale
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return OnlyOf(operand, arg) || matchPattern(operand, m_Constant());
    });
  }

  // Whether `inner` is on the accumulated value's path (its backward slice in the body).
  // With a nibble table, its value is a leaf (looked up, not computed) and the lookup's
  // indices read the nibble's source (or the two operands of its shift).
  bool IsNeeded(Operation* inner) {
    if (needed_.empty()) {
      auto add = [&](Value value) {
        SetVector<Operation*> slice = SliceInBody(p_.op, value);
        needed_.insert(slice.begin(), slice.end());
      };
      if (nibble_table_) {
        SetVector<Operation*> slice = SliceInBody(p_.op, target_, nibble_table_->value.getDefiningOp());
        needed_.insert(slice.begin(), slice.end());
        if (auto shift = nibble_table_->source.getDefiningOp<arith::ShRUIOp>()) {
          add(shift.getLhs());
          add(shift.getRhs());
        } else {
          add(nibble_table_->source);
        }
      } else {
        add(target_);
      }
      needed_.insert(nullptr);  // computed
    }
    return needed_.contains(inner);
  }

  RewriterBase& b_;
  Product p_;
  int64_t lanes_;
  Location loc_;
  // Whether `value` (in the body) depends on `arg`.
  bool DependsOn(Value value, BlockArgument arg) {
    if (value == Value(arg)) return true;
    for (Operation* op : SliceInBody(p_.op, value)) {
      if (llvm::is_contained(op->getOperands(), Value(arg))) return true;
    }
    return false;
  }

  Value x_;
  Value target_;                        // the body value each step accumulates
  std::optional<ColumnOperand> scale_;  // a group scale hoisted out of the steps
  Value scale_value_;                   // the body's value of it (scale_'s argument, or widened)
  int64_t prefetch_ahead_ = 0;          // rows from a column to the one its steps prefetch
  Value last_row_;                      // the weights' last row (prefetches stay inside)
  int64_t group_ = 0;                   // its group, in k
  Value raw_stage_, scale_stage_;       // staged block scales (CreateScaleStages), or null
  Value chunk_start_;                   // the first block of the chunk being staged / run
  std::optional<NibbleTable> nibble_table_;       // a value of D's nibble alone, looked up
  SmallVector<Operation*> nibble_index_ops_;      // the lookups' 32-bit index arithmetic
  llvm::SmallPtrSet<Operation*, 16> needed_;
};

struct VectorizeDequantizingProductsPass : impl::VectorizeDequantizingProductsBase<VectorizeDequantizingProductsPass> {
  using Base::Base;

  void runOnOperation() override {
    int64_t lanes = vectorBits / 32;
    if (lanes < 4) return;
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk([&](linalg::GenericOp op) { candidates.push_back(op); });
    IRRewriter rewriter(&getContext());
    SmallVector<Product> products;
    for (linalg::GenericOp op : candidates) {
      if (std::optional<Product> product = MatchProduct(op, lanes)) {
        products.push_back(*product);
        continue;
      }
      linalg::GenericOp reduced = DropUnitReductionLoops(rewriter, op);
      if (!reduced) continue;
      if (std::optional<Product> product = MatchProduct(reduced, lanes)) {
        products.push_back(*product);
        rewriter.eraseOp(op);
        continue;
      }
      SmallVector<Value> operands(reduced->getOperands());
      rewriter.eraseOp(reduced);
      for (Value operand : operands) {
        if (Operation* view = operand.getDefiningOp<memref::SubViewOp>(); view && view->use_empty()) {
          rewriter.eraseOp(view);
        }
      }
    }
    SmallVector<Operation*> loops, keep;
    for (Product& product : products) {
      ProductEmitter emitter(rewriter, product, lanes);
      llvm::append_range(loops, emitter.Emit());
      llvm::append_range(keep, emitter.NibbleIndexOps());
      rewriter.eraseOp(product.op);
    }
    NarrowIntegerVectorOps(getOperation(), loops, keep);
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
