#include "compiler/codegen/cpu/ContractionTiling.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

namespace kiln::compiler::cpu {

using namespace mlir;

namespace {

// Register tiles are rows x 2 vectors of accumulators: 8 x 2 of AVX-512's 32 registers,
// 6 x 2 or 4 x 2 of the 16 that AVX2 and SSE have, leaving room for the right-hand row
// and the broadcast left-hand values.
constexpr int64_t kRegisterColumnVectors = 2;
int64_t RegisterRows(int64_t vector_bits) { return vector_bits >= 512 ? 8 : vector_bits >= 256 ? 6 : 4; }
// Cache blocks: a 256 x 256 block of the right-hand operand (256 KiB in f32) stays in L2
// while the rows of the left-hand operand stream past it in blocks of 64.
constexpr int64_t kCacheRows = 64;
constexpr int64_t kCacheColumns = 256;
constexpr int64_t kCacheDepth = 256;

bool HasContiguousRows(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  return type && type.getRank() > 0 && type.isLastDimUnitStride();
}

}  // namespace

std::optional<ContractionTilePlan> PlanContractionTiles(linalg::LinalgOp op, int64_t vector_bits) {
  if (!op.hasPureBufferSemantics() || op->hasAttr(kRegisterTileAttr)) return std::nullopt;
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op)) {
    return std::nullopt;
  }
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 || dims->k.size() != 1) return std::nullopt;
  Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!element.isF32() && !element.isF64()) return std::nullopt;
  for (Value input : op.getDpsInputs()) {
    if (getElementTypeOrSelf(input.getType()) != element) return std::nullopt;
  }
  unsigned m = dims->m.front(), n = dims->n.front(), k = dims->k.front();
  AffineExpr n_expr = getAffineDimExpr(n, op.getContext());
  auto n_is_innermost = [&](OpOperand* operand) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    return map.getNumResults() > 0 && map.getResults().back() == n_expr && HasContiguousRows(operand->get());
  };
  OpOperand* rhs = nullptr;
  for (OpOperand* input : op.getDpsInputOperands()) {
    if (op.getMatchingIndexingMap(input).isFunctionOfDim(n)) rhs = input;
  }
  if (!rhs || !n_is_innermost(rhs) || !n_is_innermost(op.getDpsInitOperand(0))) return std::nullopt;

  ContractionTilePlan plan;
  unsigned loops = op.getNumLoops();
  plan.cache_tile.assign(loops, 1);  // batch dimensions: one at a time
  plan.register_tile.assign(loops, 1);
  plan.cache_tile[m] = kCacheRows;
  plan.cache_tile[n] = kCacheColumns;
  plan.cache_tile[k] = kCacheDepth;
  vector_bits = std::max<int64_t>(vector_bits, 128);
  plan.register_tile[m] = RegisterRows(vector_bits);
  plan.register_tile[n] = kRegisterColumnVectors * vector_bits / element.getIntOrFloatBitWidth();
  for (unsigned d : dims->batch) plan.cache_order.push_back(d);
  plan.cache_order.append({n, k, m});
  plan.m_dim = m;
  plan.n_dim = n;
  return plan;
}

}  // namespace kiln::compiler::cpu
