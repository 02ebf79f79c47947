// Verifiers of reduce, sort, gather, scatter, dot and dot_general (StablehloStructuredOps.td).
#include "compiler/input/stablehlo/StablehloDialect.h"

#include "llvm/ADT/SmallBitVector.h"
#include "mlir/IR/TypeUtilities.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

RankedTensorType TensorType(Value value) { return cast<RankedTensorType>(value.getType()); }

// `dims` are distinct dimensions of a rank-`rank` tensor.
LogicalResult VerifyDims(Operation* op, StringRef what, ArrayRef<int64_t> dims, int64_t rank) {
  llvm::SmallBitVector used(rank);
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank || used.test(dim)) {
      return op->emitOpError() << what << " entry " << dim << " is not a distinct dimension below " << rank;
    }
    used.set(dim);
  }
  return success();
}

// The region takes `count` 0-d tensors of each of `elements` (in that order, repeated)
// and returns `results` of them.
LogicalResult VerifyScalarBody(Operation* op, Region& region, ArrayRef<Type> arguments, ArrayRef<Type> results) {
  Block& block = region.front();
  if (block.getNumArguments() != arguments.size()) {
    return op->emitOpError() << "body takes " << block.getNumArguments() << " arguments; expected "
                             << arguments.size();
  }
  for (auto [i, arg, expected] : llvm::enumerate(block.getArgumentTypes(), arguments)) {
    auto type = dyn_cast<RankedTensorType>(arg);
    if (!type || type.getRank() != 0 || type.getElementType() != expected) {
      return op->emitOpError() << "body argument #" << i << " has type " << arg << "; expected "
                               << RankedTensorType::get({}, expected);
    }
  }
  Operation* terminator = block.getTerminator();
  if (!isa<ReturnOp>(terminator) || terminator->getNumOperands() != results.size()) {
    return op->emitOpError() << "body must end in stablehlo.return of " << results.size() << " values";
  }
  for (auto [i, value, expected] : llvm::enumerate(terminator->getOperandTypes(), results)) {
    auto type = dyn_cast<RankedTensorType>(value);
    if (!type || type.getRank() != 0 || type.getElementType() != expected) {
      return op->emitOpError() << "body returns " << value << " as value #" << i << "; expected "
                               << RankedTensorType::get({}, expected);
    }
  }
  return success();
}

SmallVector<Type> ElementTypes(ValueRange values) {
  return llvm::map_to_vector(values, [](Value v) { return TensorType(v).getElementType(); });
}

}  // namespace

LogicalResult ReduceOp::verify() {
  if (getOperands().empty() || getOperands().size() % 2 != 0) {
    return emitOpError() << "takes N inputs and N init values; got " << getOperands().size() << " operands";
  }
  size_t n = getInputs().size();
  if (getNumResults() != n) return emitOpError() << "has " << getNumResults() << " results for " << n << " inputs";
  RankedTensorType first = TensorType(getInputs()[0]);
  if (failed(VerifyDims(*this, "dimensions", getDimensions(), first.getRank()))) return failure();
  for (size_t i = 0; i < n; ++i) {
    RankedTensorType input = TensorType(getInputs()[i]), init = TensorType(getInitValues()[i]);
    if (failed(verifyCompatibleShape(input, first))) {
      return emitOpError() << "operand #" << i << " (input) of type " << input << " differs in shape from input #0";
    }
    if (init.getRank() != 0 || init.getElementType() != input.getElementType()) {
      return emitOpError() << "operand #" << n + i << " (init value) of type " << init << " is not a 0-d tensor of "
                           << input.getElementType();
    }
    auto result = cast<RankedTensorType>(getResult(i).getType());
    if (result.getElementType() != input.getElementType() ||
        result.getRank() + static_cast<int64_t>(getDimensions().size()) != input.getRank()) {
      return emitOpError() << "result #" << i << " " << result << " is not input #" << i << " without the reduced dimensions";
    }
  }
  SmallVector<Type> elements = ElementTypes(getInputs());
  SmallVector<Type> arguments(elements);
  llvm::append_range(arguments, elements);
  return VerifyScalarBody(*this, getBody(), arguments, elements);
}

LogicalResult SortOp::verify() {
  if (getInputs().empty()) return emitOpError() << "needs at least one input";
  RankedTensorType first = TensorType(getInputs()[0]);
  auto dim = static_cast<int64_t>(getDimension());
  if (dim < -first.getRank() || dim >= std::max<int64_t>(first.getRank(), 1)) {
    return emitOpError() << "dimension " << dim << " is not a dimension of " << first;
  }
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    if (failed(verifyCompatibleShape(TensorType(input), first))) {
      return emitOpError() << "operand #" << i << " of type " << input.getType() << " differs in shape from operand #0";
    }
    if (getResult(i).getType() != input.getType()) return emitOpError() << "result #" << i << " differs from operand #" << i;
  }
  SmallVector<Type> arguments;
  for (Type element : ElementTypes(getInputs())) arguments.append({element, element});
  return VerifyScalarBody(*this, getComparator(), arguments, {IntegerType::get(getContext(), 1)});
}

LogicalResult GatherOp::verify() {
  RankedTensorType operand = TensorType(getOperand()), indices = TensorType(getStartIndices());
  GatherDimensionNumbersAttr dims = getDimensionNumbers();
  if (!isa<IntegerType>(indices.getElementType())) return emitOpError() << "operand #1 (start_indices) is not an integer tensor";
  if (static_cast<int64_t>(getSliceSizes().size()) != operand.getRank()) {
    return emitOpError() << "slice_sizes has " << getSliceSizes().size() << " entries for an operand of rank "
                         << operand.getRank();
  }
  if (dims.getIndexVectorDim() < 0 || dims.getIndexVectorDim() > indices.getRank()) {
    return emitOpError() << "index_vector_dim " << dims.getIndexVectorDim() << " exceeds the rank of start_indices";
  }
  int64_t depth = dims.getIndexVectorDim() == indices.getRank() ? 1 : indices.getDimSize(dims.getIndexVectorDim());
  if (!ShapedType::isDynamic(depth) && static_cast<int64_t>(dims.getStartIndexMap().size()) != depth) {
    return emitOpError() << "start_index_map has " << dims.getStartIndexMap().size() << " entries for indices of depth "
                         << depth;
  }
  if (failed(VerifyDims(*this, "start_index_map", dims.getStartIndexMap(), operand.getRank())) ||
      failed(VerifyDims(*this, "collapsed_slice_dims", dims.getCollapsedSliceDims(), operand.getRank()))) {
    return failure();
  }
  for (int64_t d : dims.getCollapsedSliceDims()) {
    if (getSliceSizes()[d] > 1) return emitOpError() << "collapsed dimension " << d << " has slice size " << getSliceSizes()[d];
  }
  int64_t batch_rank = indices.getRank() - (dims.getIndexVectorDim() < indices.getRank() ? 1 : 0);
  int64_t offset_rank = operand.getRank() - dims.getCollapsedSliceDims().size() - dims.getOperandBatchingDims().size();
  if (getType().getRank() != batch_rank + offset_rank || static_cast<int64_t>(dims.getOffsetDims().size()) != offset_rank) {
    return emitOpError() << "result " << getType() << " does not have the " << batch_rank << " batch and " << offset_rank
                         << " offset dimensions the dimension numbers give";
  }
  return VerifyDims(*this, "offset_dims", dims.getOffsetDims(), getType().getRank());
}

LogicalResult ScatterOp::verify() {
  if (getOperands().size() < 3 || getOperands().size() % 2 != 1) {
    return emitOpError() << "takes N inputs, the indices and N updates; got " << getOperands().size() << " operands";
  }
  size_t n = getNumInputs();
  RankedTensorType indices = TensorType(getScatterIndices());
  ScatterDimensionNumbersAttr dims = getScatterDimensionNumbers();
  if (!isa<IntegerType>(indices.getElementType())) return emitOpError() << "operand #" << n << " (scatter_indices) is not an integer tensor";
  RankedTensorType input = TensorType(getInputs()[0]);
  if (failed(VerifyDims(*this, "scatter_dims_to_operand_dims", dims.getScatterDimsToOperandDims(), input.getRank())) ||
      failed(VerifyDims(*this, "inserted_window_dims", dims.getInsertedWindowDims(), input.getRank()))) {
    return failure();
  }
  if (dims.getIndexVectorDim() < 0 || dims.getIndexVectorDim() > indices.getRank()) {
    return emitOpError() << "index_vector_dim " << dims.getIndexVectorDim() << " exceeds the rank of scatter_indices";
  }
  for (size_t i = 0; i < n; ++i) {
    if (getResult(i).getType() != getInputs()[i].getType()) return emitOpError() << "result #" << i << " differs from input #" << i;
    RankedTensorType update = TensorType(getUpdates()[i]);
    int64_t batch_rank = indices.getRank() - (dims.getIndexVectorDim() < indices.getRank() ? 1 : 0);
    if (update.getRank() != batch_rank + static_cast<int64_t>(dims.getUpdateWindowDims().size())) {
      return emitOpError() << "operand #" << n + 1 + i << " (updates) of type " << update << " does not have the "
                           << batch_rank << " scatter and " << dims.getUpdateWindowDims().size() << " window dimensions";
    }
  }
  SmallVector<Type> elements = ElementTypes(getInputs());
  SmallVector<Type> arguments(elements);
  llvm::append_range(arguments, elements);
  return VerifyScalarBody(*this, getUpdateComputation(), arguments, elements);
}

LogicalResult DotOp::verify() {
  RankedTensorType lhs = TensorType(getLhs()), rhs = TensorType(getRhs());
  if (lhs.getRank() < 1 || lhs.getRank() > 2 || rhs.getRank() < 1 || rhs.getRank() > 2) {
    return emitOpError() << "operands must have rank 1 or 2, not " << lhs << " and " << rhs;
  }
  int64_t lhs_k = lhs.getDimSize(lhs.getRank() - 1), rhs_k = rhs.getDimSize(0);
  if (!ShapedType::isDynamic(lhs_k) && !ShapedType::isDynamic(rhs_k) && lhs_k != rhs_k) {
    return emitOpError() << "operand #1 (rhs) " << rhs << " does not contract with operand #0 (lhs) " << lhs;
  }
  return success();
}

LogicalResult DotGeneralOp::verify() {
  RankedTensorType lhs = TensorType(getLhs()), rhs = TensorType(getRhs());
  DotDimensionNumbersAttr dims = getDotDimensionNumbers();
  SmallVector<int64_t> lhs_used(dims.getLhsBatchingDimensions()), rhs_used(dims.getRhsBatchingDimensions());
  llvm::append_range(lhs_used, dims.getLhsContractingDimensions());
  llvm::append_range(rhs_used, dims.getRhsContractingDimensions());
  if (failed(VerifyDims(*this, "lhs batching and contracting dimensions", lhs_used, lhs.getRank())) ||
      failed(VerifyDims(*this, "rhs batching and contracting dimensions", rhs_used, rhs.getRank()))) {
    return failure();
  }
  if (lhs_used.size() != rhs_used.size() ||
      dims.getLhsBatchingDimensions().size() != dims.getRhsBatchingDimensions().size()) {
    return emitOpError() << "lhs and rhs have different numbers of batching or contracting dimensions";
  }
  for (auto [l, r] : llvm::zip(lhs_used, rhs_used)) {
    if (!lhs.isDynamicDim(l) && !rhs.isDynamicDim(r) && lhs.getDimSize(l) != rhs.getDimSize(r)) {
      return emitOpError() << "lhs dimension " << l << " (" << lhs.getDimSize(l) << ") and rhs dimension " << r << " ("
                           << rhs.getDimSize(r) << ") are paired but differ in size";
    }
  }
  int64_t rank = lhs.getRank() + rhs.getRank() - static_cast<int64_t>(lhs_used.size()) -
                 static_cast<int64_t>(dims.getLhsContractingDimensions().size());
  if (getType().getRank() != rank) {
    return emitOpError() << "result " << getType() << " should have rank " << rank << " (batch, lhs free, rhs free)";
  }
  return success();
}

LogicalResult ReduceWindowOp::verify() {
  if (getOperands().empty() || getOperands().size() % 2 != 0) {
    return emitOpError() << "takes N inputs and N init values; got " << getOperands().size() << " operands";
  }
  size_t n = getInputs().size();
  RankedTensorType first = TensorType(getInputs()[0]);
  auto rank = static_cast<size_t>(first.getRank());
  auto check_length = [&](StringRef name, std::optional<ArrayRef<int64_t>> values) -> LogicalResult {
    if (values && values->size() != rank) {
      return emitOpError() << name << " has " << values->size() << " entries for inputs of rank " << rank;
    }
    if (values && llvm::any_of(*values, [](int64_t v) { return v < 1; })) {
      return emitOpError() << name << " entries must be positive";
    }
    return success();
  };
  if (failed(check_length("window_dimensions", getWindowDimensions())) ||
      failed(check_length("window_strides", getWindowStrides())) ||
      failed(check_length("base_dilations", getBaseDilations())) ||
      failed(check_length("window_dilations", getWindowDilations()))) {
    return failure();
  }
  if (getPadding() && (getPadding()->getType().getShape() != ArrayRef<int64_t>{static_cast<int64_t>(rank), 2})) {
    return emitOpError() << "padding must be [" << rank << ", 2], not " << getPadding()->getType();
  }
  for (size_t i = 0; i < n; ++i) {
    RankedTensorType init = TensorType(getInitValues()[i]), input = TensorType(getInputs()[i]);
    if (init.getRank() != 0 || init.getElementType() != input.getElementType()) {
      return emitOpError() << "operand #" << n + i << " (init value) of type " << init << " is not a 0-d tensor of "
                           << input.getElementType();
    }
  }
  SmallVector<Type> elements = ElementTypes(getInputs());
  SmallVector<Type> arguments(elements);
  llvm::append_range(arguments, elements);
  return VerifyScalarBody(*this, getBody(), arguments, elements);
}

LogicalResult BatchNormInferenceOp::verify() {
  RankedTensorType operand = TensorType(getOperand());
  auto feature = static_cast<int64_t>(getFeatureIndex());
  if (feature < 0 || feature >= operand.getRank()) {
    return emitOpError() << "feature_index " << feature << " is not a dimension of " << operand;
  }
  if (getType() != operand) return emitOpError() << "result type " << getType() << " differs from the operand's";
  const char* names[] = {"scale", "offset", "mean", "variance"};
  for (auto [i, value] : llvm::enumerate(ValueRange{getScale(), getOffset(), getMean(), getVariance()})) {
    RankedTensorType type = TensorType(value);
    auto expected = RankedTensorType::get({operand.getDimSize(feature)}, operand.getElementType());
    if (failed(verifyCompatibleShape(type, expected)) || type.getElementType() != operand.getElementType()) {
      return emitOpError() << "operand #" << i + 1 << " (" << names[i] << ") of type " << type << " is not " << expected;
    }
  }
  return success();
}

}  // namespace kiln::compiler::stablehlo
