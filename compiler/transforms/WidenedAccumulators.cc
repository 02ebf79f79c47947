#include "compiler/transforms/WidenedAccumulators.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler {

using namespace mlir;

namespace {

// An elementwise linalg.generic from `source` into `dest` whose body is `convert`.
Value Elementwise(RewriterBase& rewriter, Location loc, Value source, Value dest,
                  function_ref<Value(OpBuilder&, Location, Value)> convert) {
  auto type = cast<RankedTensorType>(dest.getType());
  AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(), utils::IteratorType::parallel);
  return linalg::GenericOp::create(rewriter, loc, type, source, dest, ArrayRef<AffineMap>{identity, identity}, parallel,
                                   [&](OpBuilder& b, Location body_loc, ValueRange args) {
                                     linalg::YieldOp::create(b, body_loc, convert(b, body_loc, args[0]));
                                   })
      .getResult(0);
}

}  // namespace

Value WidenInit(RewriterBase& rewriter, Location loc, Value init) {
  Type f32 = rewriter.getF32Type();
  Value empty = tensor::EmptyOp::create(rewriter, loc, tensor::getMixedSizes(rewriter, loc, init), f32);
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    Value value = arith::ExtFOp::create(rewriter, loc, f32, fill.getInputs()[0]);
    return linalg::FillOp::create(rewriter, loc, value, empty).getResult(0);
  }
  return Elementwise(rewriter, loc, init, empty, [f32](OpBuilder& b, Location body_loc, Value narrow) -> Value {
    return arith::ExtFOp::create(b, body_loc, f32, narrow);
  });
}

Value NarrowResult(RewriterBase& rewriter, Location loc, Value wide, Value init) {
  Type element = getElementTypeOrSelf(init.getType());
  return Elementwise(rewriter, loc, wide, init, [element](OpBuilder& b, Location body_loc, Value value) -> Value {
    return arith::TruncFOp::create(b, body_loc, element, value);
  });
}

}  // namespace kiln::compiler
