// Workgroup-cooperative contraction kernels (Passes.td: kiln-gpu-tile-contractions; the
// strategy in WorkgroupContraction.h).
#include "compiler/codegen/gpu/MfmaLayout.h"
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WmmaLayout.h"
#include "compiler/codegen/gpu/WorkgroupContraction.h"
#include "compiler/codegen/gpu/WorkgroupStrategy.h"
#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_TILECONTRACTIONS
#include "compiler/codegen/gpu/Passes.h.inc"

namespace {

using namespace mlir;

// The matrix instruction whose results are a wave's register tiles, and the shape of
// those tiles: a block of `tile` rows by `tile * tiles_n` columns per wave, held as
// `tiles_n` accumulators of `result_values` per lane, side by side (they share the A
// fragment).
struct WaveMatrix {
  enum class Kind { kNone, kMfma, kWmma };
  Kind kind = Kind::kNone;
  int64_t k = 0;  // depth per instruction
  int64_t wave = 0;
  int64_t tile = 0;  // m = n of one instruction
  int64_t tiles_n = 1;
  int64_t result_values = 0;

  // The 32x32 MFMA of depth k (MfmaLayout.h): one per wave of 64 in a 64x64 tile.
  static WaveMatrix Mfma(int64_t k) { return {Kind::kMfma, k, kMfmaWave, kMfmaTile, 1, kMfmaResultValues}; }
  // The 16x16x16 WMMA (WmmaLayout.h): the 8 waves of 32 each take 16 x 32 of a 64x64 tile.
  static WaveMatrix Wmma() { return {Kind::kWmma, kWmmaTile, kWmmaWave, kWmmaTile, 2, kWmmaResultValues}; }

  explicit operator bool() const { return kind != Kind::kNone; }
  // Values of A (and of B) per lane and instruction.
  int64_t OperandValues() const { return kind == Kind::kMfma ? k / 2 : k; }
  int64_t AccumulatorValues() const { return tiles_n * result_values; }
};

// Depths per step of a SIMT register tile's product from LDS (a divisor of every tile_k).
constexpr int64_t kSimtDepthStep = 4;

// Builds one workgroup-cooperative kernel body in place of a contraction root.
class ContractionKernelBuilder {
 public:
  // With a `matrix` instruction the register tiles are its results, one block per wave;
  // otherwise reg_m x reg_n per work-item.
  // With an `epilogue` (IsContractionEpilogue, its operand `epilogue_input` the
  // contraction's output), the register tiles go through it into its output instead, and
  // the kernel takes the epilogue's place.
  ContractionKernelBuilder(func::FuncOp fn, linalg::LinalgOp root, const WorkgroupContractionDims& dims,
                           const WorkgroupContractionTiles& tiles, const WaveMatrix& matrix,
                           linalg::GenericOp epilogue = {}, unsigned epilogue_input = 0)
      : fn_(fn),
        root_(root),
        dims_(dims),
        tiles_(tiles),
        matrix_(matrix),
        epilogue_(epilogue),
        epilogue_input_(epilogue_input),
        b_(root),
        loc_(root.getLoc()) {}

  // Replaces the root by the kernel. The output's initial value is `fill`'s if not null,
  // else `init_source`'s (a buffer the output was copied from, or the output itself).
  void Build(linalg::FillOp fill, Value init_source) {
    MLIRContext* ctx = fn_.getContext();
    Value lhs = root_.getDpsInputOperand(0)->get(), rhs = root_.getDpsInputOperand(1)->get();
    Value out = root_.getDpsInitOperand(0)->get();
    Type lhs_type = getElementTypeOrSelf(lhs.getType()), rhs_type = getElementTypeOrSelf(rhs.getType());
    out_type_ = getElementTypeOrSelf(out.getType());

    // Workgroup and private buffers live for the whole kernel: allocate them first.
    b_.setInsertionPointToStart(&fn_.getBody().front());
    auto workgroup = mlir::gpu::AddressSpaceAttr::get(ctx, mlir::gpu::AddressSpace::Workgroup);
    // SIMT tiles read rows of k-slices ([k][outer]); MFMA and WMMA fragments read
    // consecutive k of one row or column ([outer][k]: a lane's values are one LDS read of
    // 64 to 256 bits).
    auto slice_type = [&](int64_t outer, Type element) {
      SmallVector<int64_t> shape = {tiles_.tile_k, outer};
      if (matrix_) shape = {outer, tiles_.tile_k};
      return MemRefType::get(shape, element, MemRefLayoutAttrInterface{}, workgroup);
    };
    Value lds_lhs = memref::AllocOp::create(b_, loc_, slice_type(tiles_.tile_m, lhs_type));
    Value lds_rhs = memref::AllocOp::create(b_, loc_, slice_type(tiles_.tile_n, rhs_type));
    SmallVector<int64_t> register_shape = {tiles_.reg_m, tiles_.reg_n};
    if (matrix_) register_shape = {matrix_.AccumulatorValues()};
    acc_ = memref::AllocaOp::create(b_, loc_, MemRefType::get(register_shape, out_type_));
    thread_ = mlir::gpu::ThreadIdOp::create(b_, loc_, mlir::gpu::Dimension::x);

    // After the epilogue's operands (views of its output binding may follow the contraction).
    b_.setInsertionPoint(epilogue_ ? epilogue_.getOperation() : root_.getOperation());
    SmallVector<Range> ranges = root_.createLoopRanges(b_, loc_);
    for (Range& range : ranges) extents_.push_back(getValueOrCreateConstantIndexOp(b_, loc_, range.size));
    m_extent_ = GroupExtent(dims_.m);
    n_extent_ = GroupExtent(dims_.n);
    k_extent_ = GroupExtent(dims_.k);
    Value tiles_m = CeilDiv(m_extent_, tiles_.tile_m);
    Value tiles_n = CeilDiv(n_extent_, tiles_.tile_n);
    Value tile_count = Mul(tiles_m, tiles_n);
    for (unsigned d : dims_.batch) tile_count = Mul(tile_count, extents_[d]);
    // SIMT: the work-item's row and column of register tiles; MFMA, WMMA: the wave's.
    Value thread_row, thread_col;
    if (matrix_) {
      Value wave = arith::DivUIOp::create(b_, loc_, thread_, Const(matrix_.wave));
      lane_ = arith::RemUIOp::create(b_, loc_, thread_, Const(matrix_.wave));
      Value columns = Const(tiles_.tile_n / (matrix_.tile * matrix_.tiles_n));
      thread_row = arith::DivUIOp::create(b_, loc_, wave, columns);
      thread_col = arith::RemUIOp::create(b_, loc_, wave, columns);
    } else {
      Value columns = Const(tiles_.tile_n / tiles_.reg_n);
      thread_row = arith::DivUIOp::create(b_, loc_, thread_, columns);
      thread_col = arith::RemUIOp::create(b_, loc_, thread_, columns);
    }

    auto tile_loop = BuildWorkgroupLoop(b_, loc_, fn_, tile_count);
    indices_.assign(ranges.size(), Value());
    Value rest = tile_loop.getInductionVar();
    Value tile_n = arith::RemUIOp::create(b_, loc_, rest, tiles_n);
    rest = arith::DivUIOp::create(b_, loc_, rest, tiles_n);
    Value tile_m = arith::RemUIOp::create(b_, loc_, rest, tiles_m);
    rest = arith::DivUIOp::create(b_, loc_, rest, tiles_m);
    for (unsigned d : llvm::reverse(dims_.batch)) {
      indices_[d] = arith::RemUIOp::create(b_, loc_, rest, extents_[d]);
      rest = arith::DivUIOp::create(b_, loc_, rest, extents_[d]);
    }
    Value m0 = Mul(tile_m, Const(tiles_.tile_m)), n0 = Mul(tile_n, Const(tiles_.tile_n));
    int64_t rows_per_thread = matrix_ ? matrix_.tile : tiles_.reg_m;
    int64_t cols_per_thread = matrix_ ? matrix_.tile * matrix_.tiles_n : tiles_.reg_n;
    Value row0 = Add(m0, Mul(thread_row, Const(rows_per_thread)));
    Value col0 = Add(n0, Mul(thread_col, Const(cols_per_thread)));

    if (fill) {
      linalg::FillOp::create(b_, loc_, fill.getInputs(), ValueRange{acc_});
    } else {
      CopyRegisterTile(init_source, row0, col0, /*to_output=*/false);
    }
    auto k_loop = scf::ForOp::create(b_, loc_, Const(0), k_extent_, Const(tiles_.tile_k));
    // Fully unrolled (a static k), LLVM's AMDGPU backend defers the WMMAs of every step
    // past the later steps' barriers and keeps all their fragments live: a 64x200x64 f16
    // product took 256 VGPRs and 348 bytes of scratch per work-item, 83 VGPRs and none as
    // a loop. SIMT tiles alike: f32 130x100x70 on gfx1100 took 256 VGPRs and 160 bytes of
    // scratch, all its LDS reads hoisted. (MFMA kernels keep their products between the
    // barriers, and gain from the unrolling.)
    if (matrix_.kind != WaveMatrix::Kind::kMfma) {
      auto no_unroll = LLVM::LoopUnrollAttr::get(ctx, /*disable=*/b_.getBoolAttr(true), {}, {}, {}, {}, {}, {});
      k_loop->setAttr(kLoopAnnotationAttr, LLVM::LoopAnnotationAttr::get(ctx, {}, {}, {}, no_unroll, {}, {}, {}, {}, {},
                                                                         {}, {}, {}, {}, {}, {}));
    }
    b_.setInsertionPointToStart(k_loop.getBody());
    Value k0 = k_loop.getInductionVar();
    Stage(root_.getDpsInputOperand(0), lds_lhs, dims_.m, m_extent_, m0, tiles_.tile_m, k0);
    Stage(root_.getDpsInputOperand(1), lds_rhs, dims_.n, n_extent_, n0, tiles_.tile_n, k0);
    mlir::gpu::BarrierOp::create(b_, loc_);
    if (matrix_) {
      AccumulateWithMatrix(lds_lhs, lds_rhs, thread_row, thread_col);
    } else {
      AccumulateFromLds(lds_lhs, lds_rhs, thread_row, thread_col);
    }
    mlir::gpu::BarrierOp::create(b_, loc_);
    b_.setInsertionPointAfter(k_loop);
    CopyRegisterTile(out, row0, col0, /*to_output=*/true);
  }

 private:
  Value Const(int64_t v) { return arith::ConstantIndexOp::create(b_, loc_, v); }
  Value Add(Value x, Value y) { return arith::AddIOp::create(b_, loc_, x, y); }
  Value Mul(Value x, Value y) { return arith::MulIOp::create(b_, loc_, x, y); }
  Value Less(Value x, Value y) { return arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, x, y); }
  Value CeilDiv(Value x, int64_t d) { return arith::CeilDivUIOp::create(b_, loc_, x, Const(d)); }

  // The number of positions of a group of loop dimensions (WorkgroupContractionDims).
  Value GroupExtent(ArrayRef<unsigned> group) {
    Value extent = extents_[group.front()];
    for (unsigned d : group.drop_front()) extent = Mul(extent, extents_[d]);
    return extent;
  }

  // Sets the indices of `group`'s dimensions to flat position `flat` (the last dimension
  // varying fastest). Positions past the group's extent give indices past the outermost
  // dimension's extent: callers guard their accesses with the flat position.
  void SetGroupIndices(ArrayRef<unsigned> group, Value flat) {
    for (unsigned d : llvm::reverse(group.drop_front())) {
      indices_[d] = arith::RemUIOp::create(b_, loc_, flat, extents_[d]);
      flat = arith::DivUIOp::create(b_, loc_, flat, extents_[d]);
    }
    indices_[group.front()] = flat;
  }

  // The indices of `operand` when the loop dimensions take `indices_`: a convolution's
  // input indices are sums of loop indices (with strides and dilations).
  SmallVector<Value> OperandIndices(OpOperand* operand) {
    SmallVector<Value> result;
    for (AffineExpr expr : root_.getMatchingIndexingMap(operand).getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        result.push_back(indices_[dim.getPosition()]);
      } else {
        result.push_back(affine::expandAffineExpr(b_, loc_, expr, indices_, /*symbolValues=*/{}));
      }
    }
    return result;
  }

  // The loop dimension whose consecutive positions are `operand`'s consecutive elements
  // in its innermost dimension, if it is the fastest of `group` and no other dimension of
  // the operand depends on it: flat positions of the group then run along that dimension.
  std::optional<unsigned> InnermostDimension(OpOperand* operand, ArrayRef<unsigned> group) {
    AffineMap map = root_.getMatchingIndexingMap(operand);
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last || last.getPosition() != group.back()) return std::nullopt;
    for (AffineExpr expr : map.getResults().drop_back()) {
      if (expr.isFunctionOfDim(last.getPosition())) return std::nullopt;
    }
    return last.getPosition();
  }

  // Elements per vector load of `operand` when its staging can use them: the widest of at
  // most 128 bits (a dwordx4 per work-item and step) that divides the slice's innermost
  // extent and gives every work-item whole vectors, the innermost dimension contiguous
  // (8-bit slices of 64 x 32 take 64-bit loads). 1 otherwise. `fast_group` is the group
  // along the slice's innermost extent: its flat positions must run along the operand's
  // innermost dimension, and a vector must not cross a row of its fastest dimension
  // (whose extent, when the group has several dimensions, is then a static multiple).
  int64_t StagingVectorWidth(OpOperand* operand, ArrayRef<unsigned> fast_group, int64_t fast, int64_t elements) {
    if (!InnermostDimension(operand, fast_group)) return 1;
    int64_t row = fast_group.size() == 1 ? 0 : root_.getStaticLoopRanges()[fast_group.back()];
    if (ShapedType::isDynamic(row)) return 1;
    auto type = cast<MemRefType>(operand->get().getType());
    Type element = type.getElementType();
    if (!element.isIntOrFloat()) return 1;
    unsigned bits = element.getIntOrFloatBitWidth();
    if (bits < 8 || 128 % bits != 0) return 1;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() || strides.back() != 1) return 1;
    for (int64_t width = 128 / bits; width > 1; width /= 2) {
      if (fast % width == 0 && row % width == 0 && (elements / width) % tiles_.WorkgroupSize() == 0) return width;
    }
    return 1;
  }

  // `operand` at the current indices_: a vector of `width` along its innermost dimension
  // when `all_inside`, else element by element with zeros where `element_inside(r)` fails.
  Value LoadStagingVector(OpOperand* operand, int64_t width, Value all_inside, unsigned fast_dim,
                          llvm::function_ref<Value(int64_t)> element_inside) {
    Type element = getElementTypeOrSelf(operand->get().getType());
    auto vector_type = VectorType::get({width}, element);
    Value zero = arith::ConstantOp::create(b_, loc_, cast<TypedAttr>(b_.getZeroAttr(element)));
    auto whole = scf::IfOp::create(b_, loc_, TypeRange{vector_type}, all_inside, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(whole.thenBlock());
    scf::YieldOp::create(b_, loc_,
                         vector::LoadOp::create(b_, loc_, vector_type, operand->get(), OperandIndices(operand)).getResult());
    b_.setInsertionPointToStart(whole.elseBlock());
    Value first = indices_[fast_dim];
    SmallVector<Value> values;
    for (int64_t r = 0; r < width; ++r) {
      indices_[fast_dim] = Add(first, Const(r));
      auto one = scf::IfOp::create(b_, loc_, TypeRange{element}, element_inside(r), /*withElseRegion=*/true);
      b_.setInsertionPointToStart(one.thenBlock());
      scf::YieldOp::create(b_, loc_, memref::LoadOp::create(b_, loc_, operand->get(), OperandIndices(operand)).getResult());
      b_.setInsertionPointToStart(one.elseBlock());
      scf::YieldOp::create(b_, loc_, zero);
      b_.setInsertionPointAfter(one);
      values.push_back(one.getResult(0));
    }
    indices_[fast_dim] = first;
    scf::YieldOp::create(b_, loc_, vector::FromElementsOp::create(b_, loc_, vector_type, values).getResult());
    return whole.getResult(0);
  }

  // Copies the operand's slice [outer0, outer0 + tile) x [k0, k0 + tile_k) of flat
  // positions of `outer` (m or n) and k into `lds`, zero outside the operand. Consecutive
  // work-items take consecutive elements (or 128-bit vectors) along the operand's
  // innermost dimension where it follows one of the groups, so that their loads coalesce.
  void Stage(OpOperand* operand, Value lds, ArrayRef<unsigned> outer, Value outer_extent, Value outer0, int64_t tile,
             Value k0) {
    int64_t elements = tile * tiles_.tile_k;
    int64_t workgroup_size = tiles_.WorkgroupSize();
    AffineMap map = root_.getMatchingIndexingMap(operand);
    bool k_fastest = !InnermostDimension(operand, outer) &&
                     (InnermostDimension(operand, dims_.k) || !map.getResults().back().isFunctionOfDim(outer.back()));
    ArrayRef<unsigned> fast_group = k_fastest ? ArrayRef<unsigned>(dims_.k) : outer;
    unsigned fast_dim = fast_group.back();
    Type element = getElementTypeOrSelf(operand->get().getType());
    int64_t fast = k_fastest ? tiles_.tile_k : tile;
    int64_t width = StagingVectorWidth(operand, fast_group, fast, elements);
    auto loop = scf::ForOp::create(b_, loc_, Const(0), Const(elements / width / workgroup_size), Const(1));
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(loop.getBody());
    Value e = Add(Mul(loop.getInductionVar(), Const(workgroup_size)), thread_);
    Value fast_index = Mul(arith::RemUIOp::create(b_, loc_, e, Const(fast / width)), Const(width));
    Value slow_index = arith::DivUIOp::create(b_, loc_, e, Const(fast / width));
    Value kk = k_fastest ? fast_index : slow_index, oo = k_fastest ? slow_index : fast_index;
    Value outer_flat = Add(outer0, oo), k_flat = Add(k0, kk);
    SetGroupIndices(outer, outer_flat);
    SetGroupIndices(dims_.k, k_flat);
    Value fast_flat = k_fastest ? k_flat : outer_flat, slow_flat = k_fastest ? outer_flat : k_flat;
    Value fast_extent = k_fastest ? k_extent_ : outer_extent, slow_extent = k_fastest ? outer_extent : k_extent_;
    Value slow_inside = Less(slow_flat, slow_extent);
    if (width == 1) {
      Value inside = arith::AndIOp::create(b_, loc_, slow_inside, Less(fast_flat, fast_extent));
      auto guarded = scf::IfOp::create(b_, loc_, TypeRange{element}, inside, /*withElseRegion=*/true);
      b_.setInsertionPointToStart(guarded.thenBlock());
      Value loaded = memref::LoadOp::create(b_, loc_, operand->get(), OperandIndices(operand));
      scf::YieldOp::create(b_, loc_, loaded);
      b_.setInsertionPointToStart(guarded.elseBlock());
      scf::YieldOp::create(b_, loc_, arith::ConstantOp::create(b_, loc_, cast<TypedAttr>(b_.getZeroAttr(element))).getResult());
      b_.setInsertionPointAfter(guarded);
      memref::StoreOp::create(b_, loc_, guarded.getResult(0), lds, LdsIndices(kk, oo));
      return;
    }
    // A vector stays in one row of the fast group's fastest dimension (StagingVectorWidth).
    Value all_inside = arith::AndIOp::create(
        b_, loc_, slow_inside,
        arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ule, Add(fast_flat, Const(width)), fast_extent));
    Value vector = LoadStagingVector(operand, width, all_inside, fast_dim, [&](int64_t r) -> Value {
      return arith::AndIOp::create(b_, loc_, slow_inside, Less(Add(fast_flat, Const(r)), fast_extent));
    });
    if (k_fastest == static_cast<bool>(matrix_)) {
      // Along the LDS slice's rows: one 128-bit store.
      vector::StoreOp::create(b_, loc_, vector, lds, LdsIndices(kk, oo));
      return;
    }
    // Across its rows: one store per element.
    for (int64_t r = 0; r < width; ++r) {
      Value value = vector::ExtractOp::create(b_, loc_, vector, ArrayRef<int64_t>{r});
      Value k = k_fastest ? Add(kk, Const(r)) : kk, outer_index = k_fastest ? oo : Add(oo, Const(r));
      memref::StoreOp::create(b_, loc_, value, lds, LdsIndices(k, outer_index));
    }
  }

  // The indices of (depth k, row or column outer) in an LDS slice.
  SmallVector<Value> LdsIndices(Value k, Value outer) {
    if (matrix_) return {outer, k};
    return {k, outer};
  }

  // acc += lhs[:, rows] x rhs[:, cols] with the root's own body (its casts included), in
  // steps of kSimtDepthStep depths: a product over the whole slice at once keeps all its
  // operands live (f32 on gfx1100: 256 VGPRs and 160 bytes of scratch per work-item).
  void AccumulateFromLds(Value lds_lhs, Value lds_rhs, Value thread_row, Value thread_col) {
    MLIRContext* ctx = fn_.getContext();
    OpBuilder::InsertionGuard guard(b_);
    auto depths = scf::ForOp::create(b_, loc_, Const(0), Const(tiles_.tile_k), Const(kSimtDepthStep));
    b_.setInsertionPointToStart(depths.getBody());
    auto view = [&](Value lds, Value offset, int64_t size) -> Value {
      SmallVector<OpFoldResult> offsets = {depths.getInductionVar(), offset};
      SmallVector<OpFoldResult> sizes = {b_.getIndexAttr(kSimtDepthStep), b_.getIndexAttr(size)};
      SmallVector<OpFoldResult> strides = {b_.getIndexAttr(1), b_.getIndexAttr(1)};
      return memref::SubViewOp::create(b_, loc_, lds, offsets, sizes, strides);
    };
    Value lhs = view(lds_lhs, Mul(thread_row, Const(tiles_.reg_m)), tiles_.reg_m);
    Value rhs = view(lds_rhs, Mul(thread_col, Const(tiles_.reg_n)), tiles_.reg_n);
    AffineExpr i = getAffineDimExpr(0, ctx), j = getAffineDimExpr(1, ctx), k = getAffineDimExpr(2, ctx);
    SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {k, i}, ctx), AffineMap::get(3, 0, {k, j}, ctx),
                                   AffineMap::get(3, 0, {i, j}, ctx)};
    SmallVector<utils::IteratorType> iterators = {utils::IteratorType::parallel, utils::IteratorType::parallel,
                                                  utils::IteratorType::reduction};
    auto product = linalg::GenericOp::create(b_, loc_, TypeRange{}, ValueRange{lhs, rhs}, ValueRange{acc_}, maps,
                                             iterators);
    IRMapping mapping;
    root_->getRegion(0).cloneInto(&product.getRegion(), mapping);
    // Vectors of 8-bit floats have no lowering yet (their conversions expand per scalar).
    bool small_floats = llvm::any_of(ValueRange{lhs, rhs}, [](Value v) {
      auto type = dyn_cast<FloatType>(getElementTypeOrSelf(v.getType()));
      return type && type.getWidth() == 8;
    });
    if (small_floats) return;
    IRRewriter rewriter(b_);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, product, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
                          /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
                          /*assumeDynamicDimsMatchVecSizes=*/false, /*createNamedContraction=*/true);
    // Not vectorised, it stays a static linalg op and becomes loops: slower, still right.
    if (succeeded(vectorized)) rewriter.eraseOp(product);
  }

  // One wave's fragment of a matrix operand from `lds` ([outer][k]): k-step `step`, the
  // instruction's rows or columns from `outer0` (MfmaLayout.h, WmmaLayout.h: lane l holds
  // row or column l % tile; an MFMA lane's k from (l / 32) * k / 2, a WMMA lane's all k,
  // both halves of the wave alike).
  Value LoadFragment(Value lds, int64_t step, Value outer0) {
    int64_t per_lane = matrix_.OperandValues();
    Value outer = Add(outer0, arith::RemUIOp::create(b_, loc_, lane_, Const(matrix_.tile)));
    Value k0 = Const(step * matrix_.k);
    if (matrix_.kind == WaveMatrix::Kind::kMfma) {
      k0 = Add(k0, Mul(arith::DivUIOp::create(b_, loc_, lane_, Const(kMfmaTile)), Const(per_lane)));
    }
    if (per_lane == 1) return memref::LoadOp::create(b_, loc_, lds, LdsIndices(k0, outer));
    Type element = cast<MemRefType>(lds.getType()).getElementType();
    return vector::LoadOp::create(b_, loc_, VectorType::get({per_lane}, element), lds, LdsIndices(k0, outer));
  }

  // acc += this wave's block of lhs x rhs over the LDS slices: tile_k / k instructions
  // per accumulator.
  void AccumulateWithMatrix(Value lds_lhs, Value lds_rhs, Value wave_row, Value wave_col) {
    auto acc_type = VectorType::get({matrix_.result_values}, out_type_);
    SmallVector<Value> accs;
    for (int64_t t = 0; t < matrix_.tiles_n; ++t) {
      accs.push_back(vector::LoadOp::create(b_, loc_, acc_type, acc_, ValueRange{Const(t * matrix_.result_values)}));
    }
    Value rows = Mul(wave_row, Const(matrix_.tile));
    Value cols = Mul(wave_col, Const(matrix_.tile * matrix_.tiles_n));
    auto size = [&](int64_t v) { return b_.getI32IntegerAttr(static_cast<int32_t>(v)); };
    for (int64_t step = 0; step < tiles_.tile_k / matrix_.k; ++step) {
      Value a = LoadFragment(lds_lhs, step, rows);
      for (int64_t t = 0; t < matrix_.tiles_n; ++t) {
        Value b = LoadFragment(lds_rhs, step, Add(cols, Const(t * matrix_.tile)));
        if (matrix_.kind == WaveMatrix::Kind::kMfma) {
          accs[t] = amdgpu::MFMAOp::create(b_, loc_, acc_type, size(matrix_.tile), size(matrix_.tile), size(matrix_.k),
                                           size(1), a, b, accs[t]);
        } else {
          accs[t] = amdgpu::WMMAOp::create(b_, loc_, acc_type, size(matrix_.tile), size(matrix_.tile),
                                           size(matrix_.k), a, b, accs[t]);
        }
      }
    }
    for (int64_t t = 0; t < matrix_.tiles_n; ++t) {
      vector::StoreOp::create(b_, loc_, accs[t], acc_, ValueRange{Const(t * matrix_.result_values)});
    }
  }

  // The output position of value `v` (< AccumulatorValues()) of this lane's register
  // tile, relative to its wave's block (MfmaLayout.h, WmmaLayout.h).
  std::pair<Value, Value> MatrixResultPosition(Value v) {
    if (matrix_.kind == WaveMatrix::Kind::kMfma) return BuildMfmaResultPosition(b_, loc_, lane_, v);
    // Accumulator v / 8 covers the columns from 16 (v / 8).
    Value t = arith::DivUIOp::create(b_, loc_, v, Const(kWmmaResultValues));
    Value w = arith::RemUIOp::create(b_, loc_, v, Const(kWmmaResultValues));
    auto [row, col] = BuildWmmaResultPosition(b_, loc_, lane_, w);
    return {row, Add(Mul(t, Const(kWmmaTile)), col)};
  }

  // Between the register tile and `out` (a buffer of the output's shape), element by
  // element inside the output; reading, the elements outside it are zero. (row0, col0) is
  // the output position of the work-item's (SIMT) or wave's (MFMA, WMMA) register tile.
  void CopyRegisterTile(Value out, Value row0, Value col0, bool to_output) {
    OpBuilder::InsertionGuard guard(b_);
    OpOperand* out_operand = root_.getDpsInitOperand(0);
    SmallVector<Value> acc_indices;
    Value m_flat, n_flat;
    if (matrix_) {
      auto values = scf::ForOp::create(b_, loc_, Const(0), Const(matrix_.AccumulatorValues()), Const(1));
      b_.setInsertionPointToStart(values.getBody());
      Value v = values.getInductionVar();
      auto [row, col] = MatrixResultPosition(v);
      m_flat = Add(row0, row);
      n_flat = Add(col0, col);
      acc_indices = {v};
    } else {
      auto rows = scf::ForOp::create(b_, loc_, Const(0), Const(tiles_.reg_m), Const(1));
      b_.setInsertionPointToStart(rows.getBody());
      auto cols = scf::ForOp::create(b_, loc_, Const(0), Const(tiles_.reg_n), Const(1));
      b_.setInsertionPointToStart(cols.getBody());
      Value i = rows.getInductionVar(), j = cols.getInductionVar();
      m_flat = Add(row0, i);
      n_flat = Add(col0, j);
      acc_indices = {i, j};
    }
    SetGroupIndices(dims_.m, m_flat);
    SetGroupIndices(dims_.n, n_flat);
    Value inside = arith::AndIOp::create(b_, loc_, Less(m_flat, m_extent_), Less(n_flat, n_extent_));
    if (to_output) {
      auto guarded = scf::IfOp::create(b_, loc_, inside, /*withElseRegion=*/false);
      b_.setInsertionPointToStart(guarded.thenBlock());
      Value value = memref::LoadOp::create(b_, loc_, acc_, acc_indices);
      SmallVector<Value> position = OperandIndices(out_operand);
      if (epilogue_) {
        value = ApplyEpilogue(value, position);
        out = epilogue_.getDpsInitOperand(0)->get();
      }
      memref::StoreOp::create(b_, loc_, value, out, position);
      return;
    }
    auto guarded = scf::IfOp::create(b_, loc_, TypeRange{out_type_}, inside, /*withElseRegion=*/true);
    b_.setInsertionPointToStart(guarded.thenBlock());
    scf::YieldOp::create(b_, loc_, memref::LoadOp::create(b_, loc_, out, OperandIndices(out_operand)).getResult());
    b_.setInsertionPointToStart(guarded.elseBlock());
    scf::YieldOp::create(b_, loc_, arith::ConstantOp::create(b_, loc_, cast<TypedAttr>(b_.getZeroAttr(out_type_))).getResult());
    b_.setInsertionPointAfter(guarded);
    memref::StoreOp::create(b_, loc_, guarded.getResult(0), acc_, acc_indices);
  }

  // The epilogue's value at `position` (its loop indices: the output's position) when the
  // contraction's result there is `value`: its body on `value` and its other inputs there.
  Value ApplyEpilogue(Value value, ArrayRef<Value> position) {
    Block* body = epilogue_.getBlock();
    IRMapping mapping;
    for (OpOperand* input : epilogue_.getDpsInputOperands()) {
      Value arg = body->getArgument(input->getOperandNumber());
      if (input->getOperandNumber() == epilogue_input_) {
        mapping.map(arg, value);
        continue;
      }
      SmallVector<Value> indices;
      for (AffineExpr expr : epilogue_.getMatchingIndexingMap(input).getResults()) {
        indices.push_back(affine::expandAffineExpr(b_, loc_, expr, position, /*symbolValues=*/{}));
      }
      mapping.map(arg, memref::LoadOp::create(b_, loc_, input->get(), indices).getResult());
    }
    for (Operation& inner : body->without_terminator()) b_.clone(inner, mapping);
    return mapping.lookup(body->getTerminator()->getOperand(0));
  }

  func::FuncOp fn_;
  linalg::LinalgOp root_;
  WorkgroupContractionDims dims_;
  WorkgroupContractionTiles tiles_;
  WaveMatrix matrix_;
  linalg::GenericOp epilogue_;
  unsigned epilogue_input_;
  OpBuilder b_;
  Location loc_;
  Type out_type_;
  Value acc_, thread_, lane_;
  SmallVector<Value> extents_;  // per loop dimension
  Value m_extent_, n_extent_, k_extent_;  // of the groups of dims_
  SmallVector<Value> indices_;  // per loop dimension, at the element being built
};

// The vectorised register-tile product (a multi-reduction of broadcast products) becomes
// a vector.contract, which the LLVM lowering turns into outer products (FMAs, or MFMA
// later); a multi-reduction left over becomes plain reductions.
// (Greedy rewriting that does not converge still leaves valid IR.)
void FormRegisterContractions(func::FuncOp fn) {
  MLIRContext* ctx = fn.getContext();
  RewritePatternSet contract(ctx);
  // Reads that broadcast an operand become plain reads and broadcasts, which the contract
  // then absorbs: its operands stay the register tile's rows and columns, not their
  // broadcast products (a 4x4 tile over 4 depths: 16 + 16 values, not 64 + 64).
  vector::populateVectorTransferPermutationMapLoweringPatterns(contract);
  vector::populateVectorReductionToContractPatterns(contract);
  (void)applyPatternsGreedily(fn, std::move(contract));
  RewritePatternSet reductions(ctx);
  vector::populateVectorMultiReductionLoweringPatterns(reductions, vector::VectorMultiReductionLowering::InnerParallel);
  (void)applyPatternsGreedily(fn, std::move(reductions));
}

// The matrix instruction that computes `contraction`'s products on the target, if any.
WaveMatrix ChooseWaveMatrix(linalg::LinalgOp contraction, const TileContractionsOptions& options) {
  if (int64_t k = options.mfma ? MfmaDepth(contraction, options.mfmaI8Depth, options.mfmaF8) : 0) {
    return WaveMatrix::Mfma(k);
  }
  if (options.wmma && WmmaDepth(contraction) == kWmmaTile) return WaveMatrix::Wmma();
  return {};
}

// A contraction whose output is a temporary that only its fill, the contraction, the
// epilogue root and deallocations touch.
struct EpilogueOperands {
  linalg::LinalgOp contraction;
  linalg::FillOp fill;
  unsigned input = 0;  // the root's operand that is the contraction's output
  SmallVector<Operation*> temporary_ops;  // the temporary's allocation and deallocations
};

bool IsBindingView(Value v) {
  auto memref = dyn_cast<MemrefValue>(v);
  return memref && isa<BlockArgument>(memref::skipViewLikeOps(memref));
}

FailureOr<EpilogueOperands> MatchEpilogueOnBuffers(func::FuncOp fn, linalg::LinalgOp root, std::string& why) {
  auto generic = dyn_cast<linalg::GenericOp>(root.getOperation());
  EpilogueOperands found;
  for (linalg::LinalgOp op : fn.getBody().front().getOps<linalg::LinalgOp>()) {
    if (op == root || op.getNumDpsInits() != 1 || !MatchWorkgroupContraction(op)) continue;
    Value temporary = op.getDpsInitOperand(0)->get();
    if (!generic || !IsContractionEpilogue(generic, temporary, IsBindingView, found.input)) continue;
    found.contraction = op;
    Operation* allocation = temporary.getDefiningOp();
    if (!isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(allocation)) {
      why = "the contraction's output is not a temporary of the dispatch";
      return failure();
    }
    found.temporary_ops.push_back(allocation);
    for (Operation* user : temporary.getUsers()) {
      auto fill = dyn_cast<linalg::FillOp>(user);
      if (user == op.getOperation() || user == root.getOperation()) continue;
      if (fill && !found.fill && fill->getBlock() == op->getBlock() && fill->isBeforeInBlock(op)) {
        found.fill = fill;
      } else if (isa<memref::DeallocOp>(user)) {
        found.temporary_ops.insert(found.temporary_ops.begin(), user);
      } else {
        why = "the contraction's output is also used by '" + user->getName().getStringRef().str() + "'";
        return failure();
      }
    }
    if (!found.fill) {
      why = "the contraction's output does not start as a fill";
      return failure();
    }
    return found;
  }
  why = "bufferization did not leave its root a contraction, or an epilogue of one, on buffers";
  return failure();
}

// Builds the kernel of marked dispatch `fn` (its root a contraction, or the epilogue of
// one) in place of its computation; returns its workgroup size.
FailureOr<int64_t> TileContraction(func::FuncOp fn, const TileContractionsOptions& options, std::string& why) {
  linalg::LinalgOp root = FindRoot(fn);
  if (!root || !root.hasPureBufferSemantics() || root->getBlock() != &fn.getBody().front()) {
    why = "bufferization did not leave its root an op on buffers in the function's block";
    return failure();
  }
  FailureOr<OutputInitialisation> init = FindOutputInitialisation(root, why);
  if (failed(init)) return failure();
  linalg::LinalgOp contraction = root;
  FailureOr<EpilogueOperands> epilogue = failure();
  if (!MatchWorkgroupContraction(root)) {
    epilogue = MatchEpilogueOnBuffers(fn, root, why);
    if (failed(epilogue)) return failure();
    contraction = epilogue->contraction;
  }
  WorkgroupContractionTiles tiles = ChooseWorkgroupContractionTiles(contraction);
  ContractionKernelBuilder builder(fn, contraction, *MatchWorkgroupContraction(contraction), tiles,
                                   ChooseWaveMatrix(contraction, options),
                                   succeeded(epilogue) ? cast<linalg::GenericOp>(root.getOperation()) : nullptr,
                                   succeeded(epilogue) ? epilogue->input : 0);
  if (succeeded(epilogue)) {
    builder.Build(epilogue->fill, Value());
    root->erase();
    contraction->erase();
    epilogue->fill->erase();
    for (Operation* op : epilogue->temporary_ops) op->erase();
  } else {
    builder.Build(init->fill, init->source);
    root->erase();
  }
  init->Erase();
  FormRegisterContractions(fn);
  return tiles.WorkgroupSize();
}

struct TileContractionsPass : impl::TileContractionsBase<TileContractionsPass> {
  using TileContractionsBase::TileContractionsBase;
  void runOnOperation() override {
    TileContractionsOptions options;
    options.mfma = mfma;
    options.mfmaI8Depth = mfmaI8Depth;
    options.mfmaF8 = mfmaF8;
    options.wmma = wmma;
    for (func::FuncOp fn : TakeMarkedDispatches(getOperation(), kContractionStrategy)) {
      std::string why;
      FailureOr<int64_t> workgroup_size = TileContraction(fn, options, why);
      if (failed(workgroup_size)) {
        fn.emitRemark() << "dispatch '" << fn.getName() << "' runs on one work-item: " << why;
        continue;
      }
      MarkWorkgroupCooperative(fn, *workgroup_size);
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
