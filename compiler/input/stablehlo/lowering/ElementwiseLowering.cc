// Elementwise ops, constants and iota become linalg.generic ops (or arith.constant), their
// bodies the scalar forms of ScalarOps.h.
#include "compiler/input/stablehlo/StablehloDialect.h"
#include "compiler/input/stablehlo/lowering/Lowering.h"
#include "compiler/input/stablehlo/lowering/LoweringUtils.h"
#include "compiler/input/stablehlo/lowering/ScalarOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

LogicalResult LowerElementwise(RewriterBase& rewriter, Operation* op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  bool failed_body = false;
  Value result = ElementwiseGeneric(rewriter, op->getLoc(), type, op->getOperands(),
                                    [&](OpBuilder& b, Location loc, ValueRange args) -> Value {
                                      FailureOr<Value> value = EmitScalar(b, loc, op, args);
                                      if (succeeded(value)) return *value;
                                      failed_body = true;
                                      return args[0];
                                    });
  if (failed_body) {
    rewriter.eraseOp(result.getDefiningOp());
    return failure();
  }
  rewriter.replaceOp(op, result);
  return success();
}

LogicalResult LowerConstant(RewriterBase& rewriter, Operation* op) {
  rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, cast<TypedAttr>(cast<ConstantOp>(op).getValue()));
  return success();
}

// Each element is its index along iota_dimension, converted to the element type.
LogicalResult LowerIota(RewriterBase& rewriter, Operation* op) {
  auto iota = cast<IotaOp>(op);
  RankedTensorType type = iota.getType();
  Type element = type.getElementType();
  if (!element.isSignlessIntOrFloat()) return op->emitError() << "'stablehlo.iota' of " << element << " is not lowered yet";
  Location loc = op->getLoc();
  auto dim = static_cast<int64_t>(iota.getIotaDimension());
  Value result = ElementwiseGeneric(rewriter, loc, type, {}, [&](OpBuilder& b, Location l, ValueRange) -> Value {
    Value index = linalg::IndexOp::create(b, l, dim);
    Value as_int = arith::IndexCastOp::create(b, l, b.getI64Type(), index);
    if (isa<FloatType>(element)) return arith::SIToFPOp::create(b, l, element, as_int);
    if (element.getIntOrFloatBitWidth() == 64) return as_int;
    return arith::TruncIOp::create(b, l, element, as_int);
  });
  rewriter.replaceOp(op, result);
  return success();
}

// scale * (x - mean) / sqrt(variance + epsilon) + offset; the four 1-d operands are read
// along feature_index.
LogicalResult LowerBatchNormInference(RewriterBase& rewriter, Operation* op) {
  auto norm = cast<BatchNormInferenceOp>(op);
  RankedTensorType type = norm.getType();
  auto element = dyn_cast<FloatType>(type.getElementType());
  if (!element || !type.hasStaticShape()) {
    return op->emitError() << "'stablehlo.batch_norm_inference' of " << type << " is not lowered yet";
  }
  Location loc = op->getLoc();
  int64_t rank = type.getRank();
  auto feature = static_cast<int64_t>(norm.getFeatureIndex());
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), element);
  AffineMap along = AffineMap::get(rank, 0, {rewriter.getAffineDimExpr(feature)}, rewriter.getContext());
  SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank), along, along, along, along,
                                 rewriter.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  double epsilon = norm.getEpsilon().convertToDouble();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{type},
      ValueRange{norm.getOperand(), norm.getScale(), norm.getOffset(), norm.getMean(), norm.getVariance()},
      ValueRange{init}, maps, iterators, [&](OpBuilder& b, Location l, ValueRange args) {
        Value eps = arith::ConstantOp::create(b, l, b.getFloatAttr(element, epsilon));
        Value centered = arith::SubFOp::create(b, l, args[0], args[3]);
        Value stddev = math::SqrtOp::create(b, l, arith::AddFOp::create(b, l, args[4], eps));
        Value normalized = arith::DivFOp::create(b, l, centered, stddev);
        Value scaled = arith::MulFOp::create(b, l, args[1], normalized);
        linalg::YieldOp::create(b, l, ValueRange{arith::AddFOp::create(b, l, scaled, args[2])});
      });
  rewriter.replaceOp(op, generic.getResult(0));
  return success();
}

}  // namespace

void AddElementwiseLowerings(LoweringTable& table) {
  for (StringRef name :
       {"abs", "negate", "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "sine", "cosine",
        "tan", "tanh", "sqrt", "rsqrt", "cbrt", "floor", "ceil", "round_nearest_afz", "round_nearest_even", "sign",
        "not", "popcnt", "count_leading_zeros", "is_finite", "add", "subtract", "multiply", "divide", "remainder",
        "maximum", "minimum", "power", "atan2", "and", "or", "xor", "shift_left", "shift_right_arithmetic",
        "shift_right_logical", "convert", "bitcast_convert", "compare", "select", "clamp"}) {
    table[("stablehlo." + name).str()] = LowerElementwise;
  }
  table["stablehlo.constant"] = LowerConstant;
  table["stablehlo.iota"] = LowerIota;
  table["stablehlo.batch_norm_inference"] = LowerBatchNormInference;
}

}  // namespace kiln::compiler::stablehlo
