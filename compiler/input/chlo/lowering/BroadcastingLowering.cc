// chlo.broadcast_NAME(lhs, rhs) becomes stablehlo.NAME of the operands each broadcast to the
// result's shape (stablehlo.broadcast_in_dim along ChloBroadcast.h's positions, skipped
// where an operand already has it), and those stablehlo ops are lowered right away.
#include "compiler/input/chlo/ChloBroadcast.h"
#include "compiler/input/chlo/ChloDialect.h"
#include "compiler/input/chlo/lowering/Lowering.h"
#include "compiler/input/stablehlo/lowering/LoweringUtils.h"

namespace kiln::compiler::chlo {

using namespace mlir;

namespace {

// Lowers the stablehlo op `op` (just created) with its own lowering.
LogicalResult LowerNow(RewriterBase& rewriter, Operation* op) {
  const stablehlo::LoweringTable& table = stablehlo::Lowerings();
  auto lowering = table.find(op->getName().getStringRef());
  if (lowering == table.end()) return op->emitError() << "'" << op->getName() << "' is not lowered by kiln yet";
  rewriter.setInsertionPoint(op);
  return lowering->second(rewriter, op);
}

LogicalResult LowerBroadcasting(RewriterBase& rewriter, Operation* op) {
  if (failed(stablehlo::RequireStatic(op))) return failure();
  Location loc = op->getLoc();
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  std::optional<ArrayRef<int64_t>> broadcast_dimensions;
  if (auto dims = op->getAttrOfType<DenseI64ArrayAttr>("broadcast_dimensions")) broadcast_dimensions = dims.asArrayRef();
  SmallVector<Operation*> created;
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    auto type = cast<RankedTensorType>(operand.getType());
    auto wanted = RankedTensorType::get(result.getShape(), type.getElementType());
    if (type == wanted) {
      operands.push_back(operand);
      continue;
    }
    std::string error;
    SmallVector<int64_t> positions = BroadcastPositions(type.getRank(), result.getRank(), broadcast_dimensions, error);
    if (!error.empty()) return op->emitError() << error;
    auto broadcast = stablehlo::BroadcastInDimOp::create(rewriter, loc, wanted, operand, positions);
    created.push_back(broadcast);
    operands.push_back(broadcast);
  }
  // chlo.broadcast_add -> stablehlo.add, ..., chlo.broadcast_select -> stablehlo.select.
  StringRef name = op->getName().stripDialect();
  name.consume_front("broadcast_");
  Operation* combined;
  if (auto compare = dyn_cast<BroadcastCompareOp>(op)) {
    stablehlo::ComparisonTypeAttr compare_type;
    if (compare.getCompareType()) {
      compare_type = stablehlo::ComparisonTypeAttr::get(op->getContext(), *compare.getCompareType());
    }
    combined = stablehlo::CompareOp::create(
        rewriter, loc, result, operands[0], operands[1],
        stablehlo::ComparisonDirectionAttr::get(op->getContext(), compare.getComparisonDirection()), compare_type);
  } else {
    OperationState state(loc, ("stablehlo." + name).str(), operands, TypeRange{result}, {});
    combined = rewriter.create(state);
  }
  created.push_back(combined);
  rewriter.replaceOp(op, combined->getResults());
  for (Operation* step : created) {
    if (failed(LowerNow(rewriter, step))) return failure();
  }
  return success();
}

}  // namespace

void AddBroadcastingLowerings(stablehlo::LoweringTable& table) {
  for (StringRef name : {"add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power", "atan2",
                         "and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical", "compare",
                         "select"}) {
    table[("chlo.broadcast_" + name).str()] = LowerBroadcasting;
  }
}

}  // namespace kiln::compiler::chlo
