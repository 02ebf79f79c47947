// Checked mode for the coordinates of tensor.extract in linalg.generic bodies (Passes.td).
#include "compiler/dialect/KilnDialect.h"
#include "compiler/transforms/Passes.h"
#include "compiler/utils/Locations.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_CHECKEXTRACTINDICES
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

// Whether `coordinate` is a constant inside dimension `d` of `type`: nothing to check.
bool KnownInside(Value coordinate, RankedTensorType type, int64_t d) {
  std::optional<int64_t> value = getConstantIntValue(coordinate);
  return value && !type.isDynamicDim(d) && *value >= 0 && *value < type.getDimSize(d);
}

void CheckExtract(tensor::ExtractOp extract, linalg::GenericOp generic) {
  Value tensor = extract.getTensor();
  RankedTensorType type = cast<RankedTensorType>(tensor.getType());
  OpBuilder inside(extract);
  // Sizes are read before the generic unless the tensor is made inside its body.
  bool made_inside = generic->isAncestor(tensor.getParentBlock()->getParentOp());
  OpBuilder outside = made_inside ? OpBuilder(extract) : OpBuilder(generic);
  Location loc = extract.getLoc();
  for (auto [d, coordinate] : llvm::enumerate(extract.getIndices())) {
    if (KnownInside(coordinate, type, d)) continue;
    Value size = tensor::DimOp::create(outside, loc, tensor, d);
    Value last = arith::SubIOp::create(outside, loc, size, arith::ConstantIndexOp::create(outside, loc, 1));
    IndexCheckOp::create(inside, loc, coordinate, size, Value(),
                         IndexCheckSite(extract, "dimension " + std::to_string(d) + " of the tensor"));
    Value zero = arith::ConstantIndexOp::create(inside, loc, 0);
    Value clamped = arith::MinSIOp::create(inside, loc, arith::MaxSIOp::create(inside, loc, coordinate, zero), last);
    extract.getIndicesMutable()[d].assign(clamped);
  }
}

struct CheckExtractIndicesPass : impl::CheckExtractIndicesBase<CheckExtractIndicesPass> {
  void runOnOperation() override {
    SmallVector<std::pair<tensor::ExtractOp, linalg::GenericOp>> extracts;
    getOperation()->walk([&](tensor::ExtractOp extract) {
      if (auto generic = extract->getParentOfType<linalg::GenericOp>()) extracts.push_back({extract, generic});
    });
    for (auto [extract, generic] : extracts) CheckExtract(extract, generic);
  }
};

}  // namespace
}  // namespace kiln::compiler
