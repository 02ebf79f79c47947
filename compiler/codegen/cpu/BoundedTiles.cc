#include "compiler/codegen/cpu/BoundedTiles.h"

#include "compiler/codegen/cpu/ContractionTiling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace kiln::compiler::cpu {

using namespace mlir;

namespace {

// A constant upper bound of each loop dimension of `tile`: the least bound of the operand
// dimensions it indexes, rounded up to a power of two where the size is dynamic. Empty
// when a dimension has none or an indexing map has a result that is no dimension.
SmallVector<int64_t> LoopBounds(linalg::LinalgOp tile) {
  SmallVector<int64_t> bounds(tile.getNumLoops(), ShapedType::kDynamic);
  for (OpOperand& operand : tile->getOpOperands()) {
    for (auto [position, result] : llvm::enumerate(tile.getMatchingIndexingMap(&operand).getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (!dim) return {};
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(operand.get(), position),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (failed(bound)) continue;
      int64_t& known = bounds[dim.getPosition()];
      known = ShapedType::isDynamic(known) ? *bound : std::min(known, *bound);
    }
  }
  if (llvm::any_of(bounds, [](int64_t b) { return ShapedType::isDynamic(b) || b <= 0; })) return {};
  // A remainder of tiles of 64 is bounded by 64, one of a block of 40 by 40: vectors of a
  // power of two split into whole registers (the lanes past the operands' sizes are
  // masked off either way).
  SmallVector<int64_t> sizes = tile.getStaticLoopRanges();
  for (auto [bound, size] : llvm::zip_equal(bounds, sizes)) {
    if (ShapedType::isDynamic(size)) bound = static_cast<int64_t>(llvm::PowerOf2Ceil(bound));
  }
  return bounds;
}

}  // namespace

LogicalResult VectorizeBoundedContractionTile(RewriterBase& rewriter, linalg::LinalgOp tile) {
  if (!tile.hasPureBufferSemantics() || tile.getNumDpsInputs() != 2 || tile.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(tile) || !HasMultiplyAddBody(tile)) {
    return failure();
  }
  Type element = getElementTypeOrSelf(tile.getDpsInitOperand(0)->get().getType());
  if (!isa<FloatType>(element) ||
      llvm::any_of(tile->getOperands(), [&](Value v) { return getElementTypeOrSelf(v.getType()) != element; })) {
    return failure();
  }
  SmallVector<int64_t> bounds = LoopBounds(tile);
  if (bounds.empty()) return failure();
  for (OpOperand& operand : tile->getOpOperands()) {
    int64_t elements = 1;
    for (AffineExpr result : tile.getMatchingIndexingMap(&operand).getResults()) {
      elements *= bounds[cast<AffineDimExpr>(result).getPosition()];
    }
    if (elements > kMaxBoundedTileElements) return failure();
  }

  Location loc = tile.getLoc();
  rewriter.setInsertionPoint(tile);
  Value zero_index = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value padding = arith::ConstantOp::create(rewriter, loc, element, rewriter.getZeroAttr(element));
  // The bounded vector shape of `operand` and, per dimension, whether the operand is known
  // to be that long (in bounds) or may be shorter.
  auto shape_of = [&](OpOperand* operand, SmallVector<bool>& in_bounds) {
    auto type = cast<MemRefType>(operand->get().getType());
    SmallVector<int64_t> shape;
    for (auto [position, result] : llvm::enumerate(tile.getMatchingIndexingMap(operand).getResults())) {
      shape.push_back(bounds[cast<AffineDimExpr>(result).getPosition()]);
      in_bounds.push_back(type.getDimSize(position) == shape.back());
    }
    return VectorType::get(shape, element);
  };
  auto read = [&](OpOperand* operand) -> Value {
    SmallVector<bool> in_bounds;
    VectorType type = shape_of(operand, in_bounds);
    SmallVector<Value> origin(type.getRank(), zero_index);
    return vector::TransferReadOp::create(rewriter, loc, type, operand->get(), origin, padding, in_bounds);
  };
  Value lhs = read(tile.getDpsInputOperand(0));
  Value rhs = read(tile.getDpsInputOperand(1));
  OpOperand* out = tile.getDpsInitOperand(0);
  Value acc = read(out);
  SmallVector<Attribute> iterators;
  for (utils::IteratorType iterator : tile.getIteratorTypesArray()) {
    iterators.push_back(vector::IteratorTypeAttr::get(rewriter.getContext(),
                                                      iterator == utils::IteratorType::parallel
                                                          ? vector::IteratorType::parallel
                                                          : vector::IteratorType::reduction));
  }
  Value product = vector::ContractionOp::create(rewriter, loc, lhs, rhs, acc, tile.getIndexingMaps(),
                                                rewriter.getArrayAttr(iterators));
  SmallVector<bool> in_bounds;
  VectorType out_type = shape_of(out, in_bounds);
  SmallVector<Value> origin(out_type.getRank(), zero_index);
  vector::TransferWriteOp::create(rewriter, loc, product, out->get(), origin, in_bounds);
  rewriter.eraseOp(tile);
  return success();
}

}  // namespace kiln::compiler::cpu
