// stablehlo.scatter becomes iree_linalg_ext.scatter: the indices as [batch, depth], the
// updates as [batch, one dimension per operand dimension] (size 1 at inserted_window_dims),
// so that every update slice covers the whole operand rank. Updates whose window does not
// fit in the operand are skipped, by both ops' definitions.
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/input/stablehlo/StablehloDialect.h"
#include "compiler/input/stablehlo/lowering/Lowering.h"
#include "compiler/input/stablehlo/lowering/LoweringUtils.h"
#include "compiler/input/stablehlo/lowering/ScalarOps.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

RankedTensorType TensorType(Value value) { return cast<RankedTensorType>(value.getType()); }

LogicalResult LowerScatter(RewriterBase& rewriter, Operation* op) {
  auto scatter = cast<ScatterOp>(op);
  Location loc = op->getLoc();
  if (failed(RequireStatic(op))) return failure();
  if (scatter.getNumInputs() != 1) return op->emitError() << "'stablehlo.scatter' of several inputs is not lowered yet";
  ScatterDimensionNumbersAttr dims = scatter.getScatterDimensionNumbers();
  if (!dims.getInputBatchingDims().empty()) {
    return op->emitError() << "'stablehlo.scatter' with batching dimensions is not lowered yet";
  }
  Value input = scatter.getInputs()[0], indices = scatter.getScatterIndices(), updates = scatter.getUpdates()[0];
  RankedTensorType input_type = TensorType(input), indices_type = TensorType(indices);
  RankedTensorType updates_type = TensorType(updates);
  Type element = input_type.getElementType();

  // Indices: the index vector last, the batch dimensions as one.
  int64_t rank = indices_type.getRank(), vector_dim = dims.getIndexVectorDim();
  int64_t depth = vector_dim < rank ? indices_type.getDimSize(vector_dim) : 1;
  if (vector_dim < rank) {
    SmallVector<int64_t> permutation;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != vector_dim) permutation.push_back(d);
    }
    permutation.push_back(vector_dim);
    indices = Transpose(rewriter, loc, indices, permutation);
  }
  int64_t batch = indices_type.getNumElements() / std::max<int64_t>(depth, 1);
  indices = Reshape(rewriter, loc, indices, RankedTensorType::get({batch, depth}, indices_type.getElementType()));

  // Updates: scatter dimensions first (as one), then a window over every operand dimension.
  SmallVector<int64_t> permutation;
  for (int64_t d = 0; d < updates_type.getRank(); ++d) {
    if (!llvm::is_contained(dims.getUpdateWindowDims(), d)) permutation.push_back(d);
  }
  llvm::append_range(permutation, dims.getUpdateWindowDims());
  updates = Transpose(rewriter, loc, updates, permutation);
  SmallVector<int64_t> shape = {batch};
  size_t window = 0;
  for (int64_t d = 0; d < input_type.getRank(); ++d) {
    bool inserted = llvm::is_contained(dims.getInsertedWindowDims(), d);
    shape.push_back(inserted ? 1 : updates_type.getDimSize(dims.getUpdateWindowDims()[window++]));
  }
  updates = Reshape(rewriter, loc, updates, RankedTensorType::get(shape, element));

  auto lowered = iree::ScatterOp::create(rewriter, loc, TypeRange{input_type},
                                         rewriter.getDenseI64ArrayAttr(dims.getScatterDimsToOperandDims()),
                                         rewriter.getBoolAttr(scatter.getUniqueIndices()), ValueRange{updates, indices},
                                         ValueRange{input});
  Block* block = rewriter.createBlock(&lowered.getRegion(), {}, {element, element}, {loc, loc});
  rewriter.setInsertionPointToEnd(block);
  // The stablehlo body takes (old, update); the linalg_ext region (update, old).
  FailureOr<SmallVector<Value>> combined = InlineScalarBody(
      rewriter, loc, scatter.getUpdateComputation().front(), {block->getArgument(1), block->getArgument(0)});
  if (failed(combined)) {
    rewriter.eraseOp(lowered);
    return failure();
  }
  iree::YieldOp::create(rewriter, loc, *combined);
  rewriter.replaceOp(op, lowered.getResults());
  return success();
}

}  // namespace

void AddScatterLowerings(LoweringTable& table) { table["stablehlo.scatter"] = LowerScatter; }

}  // namespace kiln::compiler::stablehlo
