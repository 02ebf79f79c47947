#include "compiler/utils/NamedMatmuls.h"

namespace kiln::compiler {

using namespace mlir;

namespace {

template <typename NamedOp>
linalg::LinalgOp Rebuild(OpBuilder& b, NamedOp op, ValueRange inputs, ValueRange outputs) {
  auto product = NamedOp::create(b, op.getLoc(), inputs, outputs);
  product.setIndexingMapsAttr(op.getIndexingMaps());
  if (linalg::TypeFnAttr cast_attr = op.getCastAttr()) product.setCastAttr(cast_attr);
  for (NamedAttribute attr : op->getDiscardableAttrs()) product->setAttr(attr.getName(), attr.getValue());
  return product;
}

}  // namespace

linalg::LinalgOp RebuildNamedMatmul(OpBuilder& b, linalg::LinalgOp op, ValueRange inputs, ValueRange outputs) {
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation())) return Rebuild(b, matmul, inputs, outputs);
  if (auto batch = dyn_cast<linalg::BatchMatmulOp>(op.getOperation())) return Rebuild(b, batch, inputs, outputs);
  return nullptr;
}

}  // namespace kiln::compiler
