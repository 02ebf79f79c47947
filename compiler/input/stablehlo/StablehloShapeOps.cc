// Verifiers of the constant, shape and data-movement ops (StablehloShapeOps.td).
#include "compiler/input/stablehlo/StablehloDialect.h"

#include "llvm/ADT/SmallBitVector.h"
#include "mlir/IR/TypeUtilities.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

RankedTensorType TensorType(Value value) { return cast<RankedTensorType>(value.getType()); }

// Element types of `value` and the op's result agree.
LogicalResult VerifySameElement(Operation* op, Value value, StringRef name) {
  Type element = TensorType(value).getElementType();
  Type result = cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  if (element == result) return success();
  return op->emitOpError() << name << " has element type " << element << " but the result has " << result;
}

// `sizes` has one entry per dimension of a rank-`rank` tensor.
LogicalResult VerifyLength(Operation* op, StringRef attr, ArrayRef<int64_t> sizes, int64_t rank) {
  if (static_cast<int64_t>(sizes.size()) == rank) return success();
  return op->emitOpError() << attr << " has " << sizes.size() << " entries but the operand has rank " << rank;
}

// Whether static size `expected` disagrees with dimension `dim` of `type` (dynamic agrees).
bool Disagrees(RankedTensorType type, int64_t dim, int64_t expected) {
  return !type.isDynamicDim(dim) && !ShapedType::isDynamic(expected) && type.getDimSize(dim) != expected;
}

// Every start index is a 0-d integer tensor, one per operand dimension.
LogicalResult VerifyStartIndices(Operation* op, ValueRange indices, int64_t rank, unsigned first_operand) {
  if (static_cast<int64_t>(indices.size()) != rank) {
    return op->emitOpError() << "has " << indices.size() << " start indices for an operand of rank " << rank;
  }
  for (auto [i, index] : llvm::enumerate(indices)) {
    RankedTensorType type = TensorType(index);
    if (type.getRank() != 0 || !isa<IntegerType>(type.getElementType())) {
      return op->emitOpError() << "operand #" << first_operand + i << " (start index " << i << ") of type " << type
                               << " is not a 0-d integer tensor";
    }
  }
  return success();
}

}  // namespace

LogicalResult IotaOp::verify() {
  RankedTensorType result = getType();
  auto dim = static_cast<int64_t>(getIotaDimension());
  if (dim < 0 || dim >= result.getRank()) {
    return emitOpError() << "iota_dimension " << dim << " is not a dimension of " << result;
  }
  return success();
}

LogicalResult BroadcastInDimOp::verify() {
  RankedTensorType operand = TensorType(getOperand()), result = getType();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (failed(VerifyLength(*this, "broadcast_dimensions", dims, operand.getRank()))) return failure();
  if (failed(VerifySameElement(*this, getOperand(), "operand"))) return failure();
  llvm::SmallBitVector used(result.getRank());
  for (auto [i, dim] : llvm::enumerate(dims)) {
    if (dim < 0 || dim >= result.getRank() || used.test(dim)) {
      return emitOpError() << "broadcast_dimensions[" << i << "] = " << dim << " is not a distinct dimension of "
                           << result;
    }
    used.set(dim);
    if (!operand.isDynamicDim(i) && operand.getDimSize(i) != 1 && Disagrees(result, dim, operand.getDimSize(i))) {
      return emitOpError() << "operand dimension " << i << " of size " << operand.getDimSize(i)
                           << " is neither 1 nor the size of result dimension " << dim << " (" << result << ")";
    }
  }
  return success();
}

LogicalResult BroadcastOp::verify() {
  RankedTensorType operand = TensorType(getOperand()), result = getType();
  ArrayRef<int64_t> sizes = getBroadcastSizes();
  if (failed(VerifySameElement(*this, getOperand(), "operand"))) return failure();
  SmallVector<int64_t> expected(sizes);
  llvm::append_range(expected, operand.getShape());
  if (failed(verifyCompatibleShape(result.getShape(), expected))) {
    return emitOpError() << "result " << result << " is not broadcast_sizes followed by the operand's shape";
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType operand = TensorType(getOperand()), result = getType();
  if (failed(VerifySameElement(*this, getOperand(), "operand"))) return failure();
  if (operand.hasStaticShape() && result.hasStaticShape() && operand.getNumElements() != result.getNumElements()) {
    return emitOpError() << "operand " << operand << " and result " << result << " differ in element count";
  }
  return success();
}

LogicalResult TransposeOp::verify() {
  RankedTensorType operand = TensorType(getOperand()), result = getType();
  ArrayRef<int64_t> permutation = getPermutation();
  if (failed(VerifyLength(*this, "permutation", permutation, operand.getRank()))) return failure();
  if (failed(VerifySameElement(*this, getOperand(), "operand"))) return failure();
  llvm::SmallBitVector used(operand.getRank());
  for (auto [i, dim] : llvm::enumerate(permutation)) {
    if (dim < 0 || dim >= operand.getRank() || used.test(dim)) {
      return emitOpError() << "permutation is not a permutation of the operand's dimensions (entry " << i << ")";
    }
    used.set(dim);
  }
  for (auto [i, dim] : llvm::enumerate(permutation)) {
    if (Disagrees(result, i, operand.getDimSize(dim))) {
      return emitOpError() << "result dimension " << i << " of " << result << " is not operand dimension " << dim;
    }
  }
  return success();
}

LogicalResult ReverseOp::verify() {
  RankedTensorType operand = TensorType(getOperand());
  if (getType() != operand) return emitOpError() << "result type " << getType() << " differs from the operand's";
  llvm::SmallBitVector used(operand.getRank());
  for (int64_t dim : getDimensions()) {
    if (dim < 0 || dim >= operand.getRank() || used.test(dim)) {
      return emitOpError() << "dimensions entry " << dim << " is not a distinct dimension of " << operand;
    }
    used.set(dim);
  }
  return success();
}

LogicalResult SliceOp::verify() {
  RankedTensorType operand = TensorType(getOperand()), result = getType();
  int64_t rank = operand.getRank();
  if (failed(VerifyLength(*this, "start_indices", getStartIndices(), rank)) ||
      failed(VerifyLength(*this, "limit_indices", getLimitIndices(), rank)) ||
      failed(VerifyLength(*this, "strides", getStrides(), rank)) ||
      failed(VerifySameElement(*this, getOperand(), "operand"))) {
    return failure();
  }
  for (int64_t d = 0; d < rank; ++d) {
    int64_t start = getStartIndices()[d], limit = getLimitIndices()[d], stride = getStrides()[d];
    if (stride <= 0) return emitOpError() << "strides[" << d << "] = " << stride << " is not positive";
    if (start < 0 || limit < start || (!operand.isDynamicDim(d) && limit > operand.getDimSize(d))) {
      return emitOpError() << "dimension " << d << ": [" << start << ", " << limit << ") is not within the operand's "
                           << operand.getDimSize(d);
    }
    if (Disagrees(result, d, (limit - start + stride - 1) / stride)) {
      return emitOpError() << "result dimension " << d << " of " << result << " is not ceil((" << limit << " - "
                           << start << ") / " << stride << ")";
    }
  }
  return success();
}

LogicalResult DynamicSliceOp::verify() {
  RankedTensorType operand = TensorType(getOperand()), result = getType();
  if (failed(VerifyStartIndices(*this, getStartIndices(), operand.getRank(), 1)) ||
      failed(VerifyLength(*this, "slice_sizes", getSliceSizes(), operand.getRank())) ||
      failed(VerifySameElement(*this, getOperand(), "operand"))) {
    return failure();
  }
  for (auto [d, size] : llvm::enumerate(getSliceSizes())) {
    if (size < 0 || (!operand.isDynamicDim(d) && size > operand.getDimSize(d))) {
      return emitOpError() << "slice_sizes[" << d << "] = " << size << " exceeds the operand's " << operand;
    }
    if (Disagrees(result, d, size)) return emitOpError() << "result " << result << " is not of slice_sizes' shape";
  }
  return success();
}

LogicalResult DynamicUpdateSliceOp::verify() {
  RankedTensorType operand = TensorType(getOperand()), update = TensorType(getUpdate());
  if (getType() != operand) return emitOpError() << "result type " << getType() << " differs from the operand's";
  if (update.getElementType() != operand.getElementType() || update.getRank() != operand.getRank()) {
    return emitOpError() << "operand #1 (update) of type " << update << " does not match the operand's rank and "
                         << "element type (" << operand << ")";
  }
  for (int64_t d = 0; d < operand.getRank(); ++d) {
    if (!update.isDynamicDim(d) && !operand.isDynamicDim(d) && update.getDimSize(d) > operand.getDimSize(d)) {
      return emitOpError() << "operand #1 (update) " << update << " is larger than the operand " << operand
                           << " in dimension " << d;
    }
  }
  return VerifyStartIndices(*this, getStartIndices(), operand.getRank(), 2);
}

LogicalResult ConcatenateOp::verify() {
  if (getInputs().empty()) return emitOpError() << "needs at least one input";
  RankedTensorType result = getType();
  auto dim = static_cast<int64_t>(getDimension());
  if (dim < 0 || dim >= result.getRank()) return emitOpError() << "dimension " << dim << " is not one of " << result;
  int64_t total = 0;
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    RankedTensorType type = TensorType(input);
    if (type.getRank() != result.getRank() || failed(VerifySameElement(*this, input, "input"))) {
      return emitOpError() << "operand #" << i << " of type " << type << " differs in rank or element type from "
                           << result;
    }
    for (int64_t d = 0; d < result.getRank(); ++d) {
      if (d != dim && Disagrees(result, d, type.getDimSize(d))) {
        return emitOpError() << "operand #" << i << " of type " << type << " differs from the result in dimension "
                             << d;
      }
    }
    total = (ShapedType::isDynamic(total) || type.isDynamicDim(dim)) ? ShapedType::kDynamic
                                                                       : total + type.getDimSize(dim);
  }
  if (Disagrees(result, dim, total)) {
    return emitOpError() << "result dimension " << dim << " is not the inputs' total " << total;
  }
  return success();
}

LogicalResult PadOp::verify() {
  RankedTensorType operand = TensorType(getOperand()), result = getType();
  int64_t rank = operand.getRank();
  if (TensorType(getPaddingValue()).getRank() != 0) return emitOpError() << "operand #1 (padding_value) is not 0-d";
  if (failed(VerifyLength(*this, "edge_padding_low", getEdgePaddingLow(), rank)) ||
      failed(VerifyLength(*this, "edge_padding_high", getEdgePaddingHigh(), rank)) ||
      failed(VerifyLength(*this, "interior_padding", getInteriorPadding(), rank)) ||
      failed(VerifySameElement(*this, getOperand(), "operand")) ||
      failed(VerifySameElement(*this, getPaddingValue(), "operand #1 (padding_value)"))) {
    return failure();
  }
  for (int64_t d = 0; d < rank; ++d) {
    int64_t interior = getInteriorPadding()[d];
    if (interior < 0) return emitOpError() << "interior_padding[" << d << "] = " << interior << " is negative";
    if (operand.isDynamicDim(d)) continue;
    int64_t size = operand.getDimSize(d);
    int64_t expected = getEdgePaddingLow()[d] + size + std::max<int64_t>(size - 1, 0) * interior + getEdgePaddingHigh()[d];
    if (expected < 0 || Disagrees(result, d, expected)) {
      return emitOpError() << "result dimension " << d << " of " << result << " is not the padded size " << expected;
    }
  }
  return success();
}

LogicalResult TorchIndexSelectOp::verify() {
  RankedTensorType operand = TensorType(getOperand()), index = TensorType(getIndex()), result = getType();
  if (!isa<IntegerType>(index.getElementType())) return emitOpError() << "operand #1 (index) is not an integer tensor";
  auto dim = static_cast<int64_t>(getDim());
  if (dim < 0 || dim >= operand.getRank()) return emitOpError() << "dim " << dim << " is not a dimension of the operand";
  if (getBatchDims() != 0) return emitOpError() << "batch_dims other than 0 are not supported";
  if (failed(VerifySameElement(*this, getOperand(), "operand"))) return failure();
  if (result.getRank() != operand.getRank() - 1 + index.getRank()) {
    return emitOpError() << "result " << result << " does not have rank operand rank - 1 + index rank";
  }
  return success();
}

LogicalResult RngBitGeneratorOp::verify() {
  auto state = cast<RankedTensorType>(getInitialState().getType());
  if (getOutputState().getType() != state) {
    return emitOpError() << "result #0 (output_state) of type " << getOutputState().getType()
                         << " differs from the initial state's " << state;
  }
  if (state.getRank() != 1 || !state.getElementType().isIntOrFloat()) {
    return emitOpError() << "operand #0 (initial_state) of type " << state << " is not a 1-d tensor of integers";
  }
  return success();
}

}  // namespace kiln::compiler::stablehlo
