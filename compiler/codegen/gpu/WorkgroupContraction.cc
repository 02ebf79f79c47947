// Which dispatches the GPU's workgroup contraction strategy takes (WorkgroupContraction.h).
#include "compiler/codegen/gpu/WorkgroupContraction.h"

#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler::gpu {

using namespace mlir;

namespace {

llvm::SmallVector<unsigned> InLoopOrder(llvm::ArrayRef<unsigned> a, llvm::ArrayRef<unsigned> b = {}) {
  llvm::SmallVector<unsigned> dims(a.begin(), a.end());
  dims.append(b.begin(), b.end());
  llvm::sort(dims);
  return dims;
}

std::optional<WorkgroupContractionDims> MatchContraction(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op)) return std::nullopt;
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) { return map.isProjectedPermutation(); })) {
    return std::nullopt;
  }
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty()) return std::nullopt;
  WorkgroupContractionDims result;
  result.batch = InLoopOrder(dims->batch);
  result.m = InLoopOrder(dims->m);
  result.n = InLoopOrder(dims->n);
  result.k = InLoopOrder(dims->k);
  return result;
}

std::optional<WorkgroupContractionDims> MatchConvolution(linalg::LinalgOp op) {
  if (!linalg::isaConvolutionOpInterface(op)) return std::nullopt;
  // Pooling has the convolution's shape, without products.
  bool products = llvm::any_of(op.getBlock()->getOperations(),
                               [](Operation& inner) { return isa<arith::MulFOp, arith::MulIOp>(inner); });
  FailureOr<linalg::ConvolutionDimensions> dims = linalg::inferConvolutionDims(op);
  if (!products || failed(dims) || dims->outputChannel.empty() || dims->inputChannel.empty()) return std::nullopt;
  // The staging evaluates the maps' expressions of loop dimensions; symbols have no values.
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) { return map.getNumSymbols() == 0; })) {
    return std::nullopt;
  }
  WorkgroupContractionDims result;
  result.batch = InLoopOrder(dims->depth);
  result.m = InLoopOrder(dims->batch, dims->outputImage);
  result.n = InLoopOrder(dims->outputChannel);
  result.k = InLoopOrder(dims->filterLoop, dims->inputChannel);
  if (result.m.empty()) return std::nullopt;
  return result;
}

}  // namespace

std::optional<WorkgroupContractionDims> MatchWorkgroupContraction(linalg::LinalgOp op) {
  if (!op || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1) return std::nullopt;
  for (OpOperand& operand : op->getOpOperands()) {
    Type element = getElementTypeOrSelf(operand.get().getType());
    if (!element.isIntOrFloat()) return std::nullopt;
  }
  if (std::optional<WorkgroupContractionDims> dims = MatchContraction(op)) return dims;
  return MatchConvolution(op);
}

bool IsContractionEpilogue(linalg::GenericOp root, Value result, llvm::function_ref<bool(Value)> is_binding,
                           unsigned& input) {
  if (root.getNumDpsInits() != 1 || root.getNumReductionLoops() != 0 ||
      !root.getMatchingIndexingMap(root.getDpsInitOperand(0)).isIdentity() ||
      !root.getMatchingBlockArgument(root.getDpsInitOperand(0)).use_empty()) {
    return false;
  }
  bool flat = llvm::all_of(root.getBlock()->without_terminator(), [](Operation& inner) {
    return inner.getNumRegions() == 0 && isa<arith::ArithDialect, math::MathDialect>(inner.getDialect());
  });
  if (!flat) return false;
  std::optional<unsigned> found;
  for (OpOperand* operand : root.getDpsInputOperands()) {
    AffineMap map = root.getMatchingIndexingMap(operand);
    if (operand->get() == result && map.isIdentity() && !found) {
      found = operand->getOperandNumber();
    } else if (!is_binding(operand->get()) || !map.isProjectedPermutation()) {
      return false;
    }
  }
  if (!found) return false;
  input = *found;
  return true;
}

WorkgroupContractionTiles ChooseWorkgroupContractionTiles(linalg::LinalgOp op) {
  WorkgroupContractionTiles tiles;
  // Narrow inputs stage a deeper slice in the same LDS bytes.
  unsigned bits = 32;
  for (OpOperand* input : op.getDpsInputOperands()) {
    bits = std::min(bits, getElementTypeOrSelf(input->get().getType()).getIntOrFloatBitWidth());
  }
  if (bits <= 16) tiles.tile_k = 32;
  return tiles;
}

namespace {

// Whether `op`'s body is out + ext(a) * ext(b): a multiply and an add of the output, the
// inputs extended (arith.extf, arith.extsi) exactly when they are narrower than it.
bool IsPlainMultiplyAdd(linalg::LinalgOp op) {
  Block& body = op->getRegion(0).front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation* add = yield.getValues()[0].getDefiningOp();
  if (!add || !isa<arith::AddFOp, arith::AddIOp>(add)) return false;
  Value out_arg = body.getArgument(2);
  Value product = add->getOperand(0) == out_arg ? add->getOperand(1)
                  : add->getOperand(1) == out_arg ? add->getOperand(0)
                                                  : Value();
  Operation* mul = product ? product.getDefiningOp() : nullptr;
  if (!mul || !isa<arith::MulFOp, arith::MulIOp>(mul)) return false;
  auto input_of = [&](Value v) -> Value {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>()) return ext.getIn();
    if (auto ext = v.getDefiningOp<arith::ExtSIOp>()) return ext.getIn();
    return v;
  };
  bool operands = input_of(mul->getOperand(0)) == body.getArgument(0) &&
                  input_of(mul->getOperand(1)) == body.getArgument(1);
  size_t extensions = 0;
  for (unsigned i = 0; i < 2; ++i) extensions += body.getArgument(i).getType() != out_arg.getType();
  return operands && body.getOperations().size() == 3 + extensions;  // [ext, ext,] mul, add, yield
}

Type ElementType(linalg::LinalgOp op, unsigned operand) {
  return getElementTypeOrSelf(op->getOperand(operand).getType());
}

}  // namespace

int64_t MfmaDepth(linalg::LinalgOp op, int64_t i8_depth, bool f8_fnuz) {
  Type lhs = ElementType(op, 0), rhs = ElementType(op, 1), out = ElementType(op, 2);
  auto fnuz = [](Type t) { return isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(t); };
  bool floats = out.isF32() && lhs == rhs && (lhs.isF32() || lhs.isF16() || lhs.isBF16());
  bool bytes = i8_depth > 0 && out.isInteger(32) && lhs == rhs && lhs.isInteger(8);
  bool f8 = f8_fnuz && out.isF32() && fnuz(lhs) && fnuz(rhs);
  if (!(floats || bytes || f8) || !IsPlainMultiplyAdd(op)) return 0;
  if (bytes) return i8_depth;
  if (f8) return 16;
  return lhs.isF32() ? 2 : 8;
}

int64_t WmmaDepth(linalg::LinalgOp op) {
  Type lhs = ElementType(op, 0), rhs = ElementType(op, 1), out = ElementType(op, 2);
  bool halves = out.isF32() && (lhs.isF16() || lhs.isBF16());
  bool bytes = out.isInteger(32) && lhs.isInteger(8);
  if (lhs != rhs || !(halves || bytes) || !IsPlainMultiplyAdd(op)) return 0;
  return 16;
}

}  // namespace kiln::compiler::gpu
