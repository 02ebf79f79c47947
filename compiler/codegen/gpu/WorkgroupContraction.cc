// Which dispatches the GPU's workgroup contraction strategy takes (WorkgroupContraction.h).
#include "compiler/codegen/gpu/WorkgroupContraction.h"

#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler::gpu {

using namespace mlir;

std::optional<WorkgroupContractionDims> MatchWorkgroupContraction(linalg::LinalgOp op) {
  if (!op || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op)) {
    return std::nullopt;
  }
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) { return map.isProjectedPermutation(); })) {
    return std::nullopt;
  }
  for (OpOperand& operand : op->getOpOperands()) {
    Type element = getElementTypeOrSelf(operand.get().getType());
    if (!element.isIntOrFloat()) return std::nullopt;
  }
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 || dims->k.size() != 1) return std::nullopt;
  WorkgroupContractionDims result;
  result.batch.assign(dims->batch.begin(), dims->batch.end());
  result.m = dims->m.front();
  result.n = dims->n.front();
  result.k = dims->k.front();
  return result;
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

int64_t MfmaDepth(linalg::LinalgOp op) {
  Type lhs = getElementTypeOrSelf(op.getDpsInputOperand(0)->get().getType());
  Type rhs = getElementTypeOrSelf(op.getDpsInputOperand(1)->get().getType());
  Type out = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  if (lhs != rhs || !out.isF32() || !(lhs.isF32() || lhs.isF16() || lhs.isBF16())) return 0;
  // The body: out + ext(a) * ext(b), the extensions only for narrow inputs.
  Block& body = op->getRegion(0).front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!add) return 0;
  Value out_arg = body.getArgument(2);
  Value product = add.getLhs() == out_arg ? add.getRhs() : add.getRhs() == out_arg ? add.getLhs() : Value();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : arith::MulFOp();
  if (!mul) return 0;
  auto input_of = [&](Value v) -> Value {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>()) v = ext.getIn();
    return v;
  };
  bool operands = input_of(mul.getLhs()) == body.getArgument(0) && input_of(mul.getRhs()) == body.getArgument(1);
  size_t expected_ops = lhs.isF32() ? 3 : 5;  // [extf, extf,] mulf, addf, yield
  if (!operands || body.getOperations().size() != expected_ops) return 0;
  return lhs.isF32() ? 2 : 8;
}

}  // namespace kiln::compiler::gpu
