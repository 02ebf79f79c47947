// Shape and data-movement ops become tensor ops (slices, reshapes, pad, concat) and
// linalg.generic / linalg.transpose for broadcasts and reversal.
#include "compiler/input/stablehlo/StablehloDialect.h"
#include "compiler/input/stablehlo/lowering/Lowering.h"
#include "compiler/input/stablehlo/lowering/LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

RankedTensorType TensorType(Value value) { return cast<RankedTensorType>(value.getType()); }

// A generic copying `operand` into `type`, reading operand dimension i at `read[i]`, an
// expression of the result's loop dimensions.
Value CopyGeneric(OpBuilder& b, Location loc, Value operand, RankedTensorType type, ArrayRef<AffineExpr> read) {
  int64_t rank = type.getRank();
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, read, b.getContext()), b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  return linalg::GenericOp::create(b, loc, TypeRange{type}, ValueRange{operand}, ValueRange{init}, maps, iterators,
                                   [](OpBuilder& nested, Location l, ValueRange args) {
                                     linalg::YieldOp::create(nested, l, args[0]);
                                   })
      .getResult(0);
}

// Operand dimension i goes to result dimension dims[i]; size-1 dimensions repeat.
LogicalResult Broadcast(RewriterBase& rewriter, Operation* op, Value operand, ArrayRef<int64_t> dims) {
  if (failed(RequireStatic(op))) return failure();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  RankedTensorType operand_type = TensorType(operand);
  SmallVector<AffineExpr> read;
  for (auto [i, dim] : llvm::enumerate(dims)) {
    bool repeated = operand_type.getDimSize(i) == 1 && type.getDimSize(dim) != 1;
    read.push_back(repeated ? rewriter.getAffineConstantExpr(0) : rewriter.getAffineDimExpr(dim));
  }
  rewriter.replaceOp(op, CopyGeneric(rewriter, op->getLoc(), operand, type, read));
  return success();
}

LogicalResult LowerBroadcastInDim(RewriterBase& rewriter, Operation* op) {
  auto broadcast = cast<BroadcastInDimOp>(op);
  return Broadcast(rewriter, op, broadcast.getOperand(), broadcast.getBroadcastDimensions());
}

LogicalResult LowerBroadcast(RewriterBase& rewriter, Operation* op) {
  auto broadcast = cast<BroadcastOp>(op);
  int64_t leading = broadcast.getBroadcastSizes().size();
  SmallVector<int64_t> dims = llvm::to_vector(llvm::seq<int64_t>(leading, broadcast.getType().getRank()));
  return Broadcast(rewriter, op, broadcast.getOperand(), dims);
}

LogicalResult LowerReshape(RewriterBase& rewriter, Operation* op) {
  if (failed(RequireStatic(op))) return failure();
  auto reshape = cast<ReshapeOp>(op);
  rewriter.replaceOp(op, Reshape(rewriter, op->getLoc(), reshape.getOperand(), reshape.getType()));
  return success();
}

LogicalResult LowerTranspose(RewriterBase& rewriter, Operation* op) {
  if (failed(RequireStatic(op))) return failure();
  auto transpose = cast<TransposeOp>(op);
  rewriter.replaceOp(op, Transpose(rewriter, op->getLoc(), transpose.getOperand(), transpose.getPermutation()));
  return success();
}

// Reads the operand at size - 1 - i along reversed dimensions, by index (an input map
// `size - 1 - d` would not be a projected permutation, which tiling passes rely on).
LogicalResult LowerReverse(RewriterBase& rewriter, Operation* op) {
  if (failed(RequireStatic(op))) return failure();
  auto reverse = cast<ReverseOp>(op);
  RankedTensorType type = reverse.getType();
  Value operand = reverse.getOperand();
  Value result = ElementwiseGeneric(rewriter, op->getLoc(), type, {}, [&](OpBuilder& b, Location l, ValueRange) -> Value {
    SmallVector<Value> coordinates;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      Value index = linalg::IndexOp::create(b, l, d);
      if (llvm::is_contained(reverse.getDimensions(), d)) {
        Value last = arith::ConstantIndexOp::create(b, l, type.getDimSize(d) - 1);
        index = arith::SubIOp::create(b, l, last, index);
      }
      coordinates.push_back(index);
    }
    return tensor::ExtractOp::create(b, l, operand, coordinates);
  });
  rewriter.replaceOp(op, result);
  return success();
}

LogicalResult LowerSlice(RewriterBase& rewriter, Operation* op) {
  auto slice = cast<SliceOp>(op);
  SmallVector<int64_t> sizes;
  for (auto [start, limit, stride] : llvm::zip(slice.getStartIndices(), slice.getLimitIndices(), slice.getStrides())) {
    sizes.push_back((limit - start + stride - 1) / stride);
  }
  rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(op, slice.getType(), slice.getOperand(), ValueRange{},
                                                      ValueRange{}, ValueRange{}, slice.getStartIndices(), sizes,
                                                      slice.getStrides());
  return success();
}

// Start indices clamped into [0, operand size - slice size], as index values.
SmallVector<OpFoldResult> ClampedStarts(OpBuilder& b, Location loc, ValueRange starts, RankedTensorType operand,
                                        ArrayRef<int64_t> sizes) {
  SmallVector<OpFoldResult> offsets;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [d, start] : llvm::enumerate(starts)) {
    Value index = ExtractIndex(b, loc, start);
    Value high = arith::ConstantIndexOp::create(b, loc, operand.getDimSize(d) - sizes[d]);
    Value clamped = arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, index, zero), high);
    offsets.push_back(clamped);
  }
  return offsets;
}

LogicalResult LowerDynamicSlice(RewriterBase& rewriter, Operation* op) {
  if (failed(RequireStatic(op))) return failure();
  auto slice = cast<DynamicSliceOp>(op);
  RankedTensorType operand = TensorType(slice.getOperand());
  SmallVector<OpFoldResult> offsets =
      ClampedStarts(rewriter, op->getLoc(), slice.getStartIndices(), operand, slice.getSliceSizes());
  SmallVector<OpFoldResult> sizes = getAsIndexOpFoldResult(rewriter.getContext(), slice.getSliceSizes());
  SmallVector<OpFoldResult> strides(operand.getRank(), rewriter.getIndexAttr(1));
  rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(op, slice.getType(), slice.getOperand(), offsets, sizes, strides);
  return success();
}

LogicalResult LowerDynamicUpdateSlice(RewriterBase& rewriter, Operation* op) {
  if (failed(RequireStatic(op))) return failure();
  auto update = cast<DynamicUpdateSliceOp>(op);
  RankedTensorType operand = TensorType(update.getOperand()), piece = TensorType(update.getUpdate());
  SmallVector<OpFoldResult> offsets =
      ClampedStarts(rewriter, op->getLoc(), update.getStartIndices(), operand, piece.getShape());
  SmallVector<OpFoldResult> sizes = getAsIndexOpFoldResult(rewriter.getContext(), piece.getShape());
  SmallVector<OpFoldResult> strides(operand.getRank(), rewriter.getIndexAttr(1));
  rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(op, update.getUpdate(), update.getOperand(), offsets, sizes, strides);
  return success();
}

LogicalResult LowerConcatenate(RewriterBase& rewriter, Operation* op) {
  auto concat = cast<ConcatenateOp>(op);
  if (concat.getInputs().size() == 1) {
    rewriter.replaceOp(op, concat.getInputs()[0]);
    return success();
  }
  rewriter.replaceOpWithNewOp<tensor::ConcatOp>(op, concat.getType(), static_cast<int64_t>(concat.getDimension()),
                                                concat.getInputs());
  return success();
}

// Non-negative edge padding alone is tensor.pad. Otherwise the result is filled with the
// padding value and the operand elements that land inside it are inserted with stride
// interior + 1 (negative padding crops the operand first).
LogicalResult LowerPad(RewriterBase& rewriter, Operation* op) {
  if (failed(RequireStatic(op))) return failure();
  auto pad = cast<PadOp>(op);
  Location loc = op->getLoc();
  RankedTensorType operand = TensorType(pad.getOperand()), type = pad.getType();
  Value value = tensor::ExtractOp::create(rewriter, loc, pad.getPaddingValue(), ValueRange{});
  ArrayRef<int64_t> low = pad.getEdgePaddingLow(), high = pad.getEdgePaddingHigh(), interior = pad.getInteriorPadding();
  auto non_negative = [](ArrayRef<int64_t> values) { return llvm::all_of(values, [](int64_t v) { return v >= 0; }); };
  if (non_negative(low) && non_negative(high) && llvm::all_of(interior, [](int64_t v) { return v == 0; })) {
    rewriter.replaceOp(op, PadWith(rewriter, loc, pad.getOperand(), low, high, value));
    return success();
  }
  SmallVector<int64_t> crop_offsets, crop_sizes, insert_offsets, insert_strides;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t step = interior[d] + 1, size = operand.getDimSize(d);
    // Operand element i lands at low + i * step; keep those in [0, result size).
    int64_t first = low[d] >= 0 ? 0 : (-low[d] + step - 1) / step;
    int64_t last = size - 1;
    while (last >= first && low[d] + last * step >= type.getDimSize(d)) --last;
    crop_offsets.push_back(first);
    crop_sizes.push_back(std::max<int64_t>(last - first + 1, 0));
    insert_offsets.push_back(low[d] + first * step);
    insert_strides.push_back(step);
  }
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
  Value filled = linalg::FillOp::create(rewriter, loc, value, init).getResult(0);
  if (llvm::is_contained(crop_sizes, 0)) {
    rewriter.replaceOp(op, filled);
    return success();
  }
  SmallVector<int64_t> ones(type.getRank(), 1);
  auto cropped_type = RankedTensorType::get(crop_sizes, type.getElementType());
  Value cropped = tensor::ExtractSliceOp::create(rewriter, loc, cropped_type, pad.getOperand(), ValueRange{}, ValueRange{},
                                                 ValueRange{}, crop_offsets, crop_sizes, ones);
  rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(op, cropped, filled, ValueRange{}, ValueRange{}, ValueRange{},
                                                     insert_offsets, crop_sizes, insert_strides);
  return success();
}

// result[i..., j..., k...] = operand[i..., index[j...], k...] with i the dimensions before dim.
LogicalResult LowerTorchIndexSelect(RewriterBase& rewriter, Operation* op) {
  if (failed(RequireStatic(op))) return failure();
  auto select = cast<TorchIndexSelectOp>(op);
  Location loc = op->getLoc();
  RankedTensorType type = select.getType(), index = TensorType(select.getIndex());
  auto dim = static_cast<int64_t>(select.getDim());
  int64_t rank = type.getRank(), index_rank = index.getRank();
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
  SmallVector<AffineExpr> index_read;
  for (int64_t j = 0; j < index_rank; ++j) index_read.push_back(rewriter.getAffineDimExpr(dim + j));
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, index_read, rewriter.getContext()),
                                 rewriter.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  Value operand = select.getOperand();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{type}, ValueRange{select.getIndex()}, ValueRange{init}, maps, iterators,
      [&](OpBuilder& b, Location l, ValueRange args) {
        SmallVector<Value> coordinates;
        for (int64_t d = 0; d < dim; ++d) coordinates.push_back(linalg::IndexOp::create(b, l, d));
        coordinates.push_back(arith::IndexCastOp::create(b, l, b.getIndexType(), args[0]));
        for (int64_t d = dim + index_rank; d < rank; ++d) coordinates.push_back(linalg::IndexOp::create(b, l, d));
        linalg::YieldOp::create(b, l, ValueRange{tensor::ExtractOp::create(b, l, operand, coordinates)});
      });
  rewriter.replaceOp(op, generic.getResult(0));
  return success();
}

}  // namespace

void AddShapeLowerings(LoweringTable& table) {
  table["stablehlo.broadcast_in_dim"] = LowerBroadcastInDim;
  table["stablehlo.broadcast"] = LowerBroadcast;
  table["stablehlo.reshape"] = LowerReshape;
  table["stablehlo.transpose"] = LowerTranspose;
  table["stablehlo.reverse"] = LowerReverse;
  table["stablehlo.slice"] = LowerSlice;
  table["stablehlo.dynamic_slice"] = LowerDynamicSlice;
  table["stablehlo.dynamic_update_slice"] = LowerDynamicUpdateSlice;
  table["stablehlo.concatenate"] = LowerConcatenate;
  table["stablehlo.pad"] = LowerPad;
  table["stablehlo.torch_index_select"] = LowerTorchIndexSelect;
}

}  // namespace kiln::compiler::stablehlo
