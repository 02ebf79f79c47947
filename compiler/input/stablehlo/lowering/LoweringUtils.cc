#include "compiler/input/stablehlo/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

LogicalResult RequireStatic(Operation* op) {
  for (Type type : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
    if (!cast<RankedTensorType>(type).hasStaticShape()) {
      return op->emitError() << "'" << op->getName() << "' with dynamic shapes is not lowered yet";
    }
  }
  return success();
}

Value EmptyTensor(OpBuilder& b, Location loc, RankedTensorType type, Value like) {
  SmallVector<Value> dims;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.isDynamicDim(d)) dims.push_back(tensor::DimOp::create(b, loc, like, d));
  }
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(), dims);
}

Value ElementwiseGeneric(OpBuilder& b, Location loc, RankedTensorType type, ValueRange operands,
                         function_ref<Value(OpBuilder&, Location, ValueRange)> body) {
  int64_t rank = type.getRank();
  Value like = operands.empty() ? Value() : operands.back();
  for (Value operand : operands) {
    if (cast<RankedTensorType>(operand.getType()).getRank() == rank) like = operand;
  }
  Value init = EmptyTensor(b, loc, type, like);
  SmallVector<AffineMap> maps;
  for (Value operand : operands) {
    bool scalar = cast<RankedTensorType>(operand.getType()).getRank() == 0 && rank > 0;
    maps.push_back(scalar ? AffineMap::get(rank, 0, {}, b.getContext()) : b.getMultiDimIdentityMap(rank));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, operands, ValueRange{init}, maps, iterators,
      [&](OpBuilder& nested, Location nested_loc, ValueRange args) {
        Value result = body(nested, nested_loc, args.drop_back());
        linalg::YieldOp::create(nested, nested_loc, result);
      });
  return generic.getResult(0);
}

Value Reshape(OpBuilder& b, Location loc, Value value, RankedTensorType to) {
  auto from = cast<RankedTensorType>(value.getType());
  if (from == to) return value;
  auto all = [](int64_t rank) {
    SmallVector<ReassociationIndices> reassociation;
    if (rank > 0) reassociation.push_back(llvm::to_vector(llvm::seq<int64_t>(0, rank)));
    return reassociation;
  };
  // 0-d to or from all-ones shapes.
  if (from.getRank() == 0) return tensor::ExpandShapeOp::create(b, loc, to, value, SmallVector<ReassociationIndices>{});
  if (to.getRank() == 0) return tensor::CollapseShapeOp::create(b, loc, to, value, SmallVector<ReassociationIndices>{});
  auto flat = RankedTensorType::get({from.getNumElements()}, from.getElementType());
  if (from.getRank() != 1) value = tensor::CollapseShapeOp::create(b, loc, flat, value, all(from.getRank()));
  if (to.getRank() != 1) value = tensor::ExpandShapeOp::create(b, loc, to, value, all(to.getRank()));
  return value;
}

Value Transpose(OpBuilder& b, Location loc, Value value, ArrayRef<int64_t> permutation) {
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size()))) return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape = llvm::map_to_vector(permutation, [&](int64_t d) { return type.getDimSize(d); });
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, permutation).getResult()[0];
}

Value PadWith(OpBuilder& b, Location loc, Value value, ArrayRef<int64_t> low, ArrayRef<int64_t> high, Value scalar) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d) shape.push_back(type.getDimSize(d) + low[d] + high[d]);
  auto padded = tensor::PadOp::create(b, loc, RankedTensorType::get(shape, type.getElementType()), value, low, high,
                                      ValueRange{}, ValueRange{});
  SmallVector<Type> arg_types(type.getRank(), b.getIndexType());
  SmallVector<Location> arg_locs(type.getRank(), loc);
  OpBuilder::InsertionGuard guard(b);
  Block* block = b.createBlock(&padded.getRegion(), {}, arg_types, arg_locs);
  b.setInsertionPointToEnd(block);
  tensor::YieldOp::create(b, loc, scalar);
  return padded.getResult();
}

Value ExtractIndex(OpBuilder& b, Location loc, Value scalar_tensor) {
  Value element = tensor::ExtractOp::create(b, loc, scalar_tensor, ValueRange{});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), element);
}

}  // namespace kiln::compiler::stablehlo
