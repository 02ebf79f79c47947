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

int64_t MfmaDepth(linalg::LinalgOp op, int64_t i8_depth) {
  Type lhs = getElementTypeOrSelf(op.getDpsInputOperand(0)->get().getType());
  Type rhs = getElementTypeOrSelf(op.getDpsInputOperand(1)->get().getType());
  Type out = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  bool floats = out.isF32() && (lhs.isF32() || lhs.isF16() || lhs.isBF16());
  bool bytes = i8_depth > 0 && out.isInteger(32) && lhs.isInteger(8);
  if (lhs != rhs || !(floats || bytes)) return 0;
  // The body: out + ext(a) * ext(b), the extensions only for narrow inputs.
  Block& body = op->getRegion(0).front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation* add = yield.getValues()[0].getDefiningOp();
  if (!add || !isa<arith::AddFOp, arith::AddIOp>(add)) return 0;
  Value out_arg = body.getArgument(2);
  Value product = add->getOperand(0) == out_arg ? add->getOperand(1)
                  : add->getOperand(1) == out_arg ? add->getOperand(0)
                                                  : Value();
  Operation* mul = product ? product.getDefiningOp() : nullptr;
  if (!mul || !isa<arith::MulFOp, arith::MulIOp>(mul)) return 0;
  auto input_of = [&](Value v) -> Value {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>()) return ext.getIn();
    if (auto ext = v.getDefiningOp<arith::ExtSIOp>()) return ext.getIn();
    return v;
  };
  bool operands = input_of(mul->getOperand(0)) == body.getArgument(0) &&
                  input_of(mul->getOperand(1)) == body.getArgument(1);
  size_t expected_ops = lhs.isF32() ? 3 : 5;  // [ext, ext,] mul, add, yield
  if (!operands || body.getOperations().size() != expected_ops) return 0;
  if (bytes) return i8_depth;
  return lhs.isF32() ? 2 : 8;
}

}  // namespace kiln::compiler::gpu
