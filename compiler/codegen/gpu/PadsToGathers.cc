// Padded tensors computed element by element (Passes.td, kiln-gpu-pads-to-gathers).
#include "compiler/codegen/gpu/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_PADSTOGATHERS
#include "compiler/codegen/gpu/Passes.h.inc"

namespace {

using namespace mlir;

// out[i] = source[i - low] where every i_d - low_d lies in [0, source_d), else the pad
// region's value at i: one parallel op over the result, which distributes like any
// elementwise op, and reads the source only where it has elements.
LogicalResult RewritePad(tensor::PadOp pad) {
  OpBuilder b(pad);
  Location loc = pad.getLoc();
  RankedTensorType result_type = pad.getResultType();
  ReifiedRankedShapedTypeDims result_dims;
  if (failed(reifyResultShapes(b, pad, result_dims))) return pad.emitError() << "cannot size the padded result";
  Value empty = tensor::EmptyOp::create(b, loc, result_dims[0], result_type.getElementType());
  int64_t rank = result_type.getRank();
  Value source = pad.getSource();
  SmallVector<OpFoldResult> low = pad.getMixedLowPad();
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{result_type}, ValueRange{}, ValueRange{empty}, maps, iterators,
      [&](OpBuilder& nested, Location at, ValueRange) {
        SmallVector<Value> indices, source_indices;
        Value inside;
        for (int64_t d = 0; d < rank; ++d) {
          Value index = linalg::IndexOp::create(nested, at, d);
          indices.push_back(index);
          Value shifted = arith::SubIOp::create(nested, at, index, getValueOrCreateConstantIndexOp(nested, at, low[d]));
          source_indices.push_back(shifted);
          // One unsigned compare: a negative shifted index is a huge unsigned one.
          Value extent = tensor::DimOp::create(nested, at, source, d);
          Value in_range = arith::CmpIOp::create(nested, at, arith::CmpIPredicate::ult, shifted, extent);
          inside = inside ? arith::AndIOp::create(nested, at, inside, in_range).getResult() : in_range;
        }
        Type element = result_type.getElementType();
        auto choice = scf::IfOp::create(nested, at, TypeRange{element}, inside ? inside : Value(), /*else=*/true);
        OpBuilder then_builder = choice.getThenBodyBuilder();
        Value element_value = tensor::ExtractOp::create(then_builder, at, source, source_indices);
        scf::YieldOp::create(then_builder, at, element_value);
        OpBuilder else_builder = choice.getElseBodyBuilder();
        IRMapping mapping;
        Block& region = pad.getRegion().front();
        mapping.map(region.getArguments(), indices);
        for (Operation& op : region.without_terminator()) else_builder.clone(op, mapping);
        auto yield = cast<tensor::YieldOp>(region.getTerminator());
        scf::YieldOp::create(else_builder, at, mapping.lookupOrDefault(yield.getValue()));
        linalg::YieldOp::create(nested, at, choice.getResult(0));
      });
  generic->setDiscardableAttrs(pad->getDiscardableAttrDictionary());
  pad.replaceAllUsesWith(generic.getResult(0));
  pad.erase();
  return success();
}

struct PadsToGathersPass : impl::PadsToGathersBase<PadsToGathersPass> {
  void runOnOperation() override {
    SmallVector<tensor::PadOp> pads;
    getOperation().walk([&](tensor::PadOp pad) {
      // A rank-0 pad has nothing to pad.
      if (pad.getResultType().getRank() > 0) pads.push_back(pad);
    });
    for (tensor::PadOp pad : pads) {
      if (failed(RewritePad(pad))) return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
