// Verification of the iree_linalg_ext ops: operand counts, ranks, the dimension, and the
// comparator/combiner signatures that the lowerings rely on.
#include "compiler/input/iree/IreeDialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

#include "compiler/input/iree/LinalgExtOpsDialect.cpp.inc"

namespace kiln::compiler::iree {

// Every op's getEffects (LinalgExtOps.td): on tensors the ops compute values; on memrefs
// they read every operand and write their outputs.
static void BufferEffects(mlir::Operation* op,
                          llvm::SmallVectorImpl<mlir::SideEffects::EffectInstance<mlir::MemoryEffects::Effect>>& effects) {
  auto dps = mlir::cast<mlir::DestinationStyleOpInterface>(op);
  for (mlir::OpOperand& operand : op->getOpOperands()) {
    if (!mlir::isa<mlir::MemRefType>(operand.get().getType())) continue;
    effects.emplace_back(mlir::MemoryEffects::Read::get(), &operand, mlir::SideEffects::DefaultResource::get());
    if (dps.isDpsInit(&operand)) {
      effects.emplace_back(mlir::MemoryEffects::Write::get(), &operand, mlir::SideEffects::DefaultResource::get());
    }
  }
}

}  // namespace kiln::compiler::iree

#define GET_OP_CLASSES
#include "compiler/input/iree/LinalgExtOps.cpp.inc"

namespace kiln::compiler::iree {

using namespace mlir;

void LinalgExtDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "compiler/input/iree/LinalgExtOps.cpp.inc"
      >();
}

namespace {

ShapedType Shaped(Value v) { return cast<ShapedType>(v.getType()); }

LogicalResult VerifyCounts(Operation* op, ValueRange inputs, size_t min_inputs, size_t max_inputs,
                           ValueRange outputs, size_t min_outputs, size_t max_outputs) {
  if (inputs.size() < min_inputs || inputs.size() > max_inputs) {
    return op->emitOpError() << "expects " << min_inputs << (min_inputs == max_inputs ? "" : " to ")
                             << (min_inputs == max_inputs ? "" : std::to_string(max_inputs)) << " ins, got "
                             << inputs.size();
  }
  if (outputs.size() < min_outputs || outputs.size() > max_outputs) {
    return op->emitOpError() << "expects " << min_outputs << (min_outputs == max_outputs ? "" : " to ")
                             << (min_outputs == max_outputs ? "" : std::to_string(max_outputs)) << " outs, got "
                             << outputs.size();
  }
  for (Value v : llvm::concat<const Value>(inputs, outputs)) {
    if (auto shaped = dyn_cast<ShapedType>(v.getType()); shaped && !shaped.hasRank()) {
      return op->emitOpError() << "expects ranked operands, got " << shaped;
    }
  }
  return success();
}

LogicalResult VerifyDimension(Operation* op, int64_t dimension, int64_t rank) {
  if (dimension < 0 || dimension >= rank) {
    return op->emitOpError() << "dimension " << dimension << " is out of range for rank " << rank;
  }
  return success();
}

// The region takes `arg_types` and yields one value of `yield_type`.
LogicalResult VerifyRegion(Operation* op, Region& region, TypeRange arg_types, Type yield_type, StringRef what) {
  Block& block = region.front();
  if (block.getNumArguments() != arg_types.size()) {
    return op->emitOpError() << "expects the " << what << " region to take " << arg_types.size()
                             << " arguments, got " << block.getNumArguments();
  }
  for (auto [i, pair] : llvm::enumerate(llvm::zip(block.getArgumentTypes(), arg_types))) {
    auto [actual, expected] = pair;
    if (actual != expected) {
      return op->emitOpError() << "expects " << what << " region argument " << i << " of type " << expected
                               << ", got " << actual;
    }
  }
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield || yield.getNumOperands() != 1 || yield.getOperand(0).getType() != yield_type) {
    return op->emitOpError() << "expects the " << what << " region to yield one " << yield_type;
  }
  return success();
}

// Same shape except along `dimension`.
bool SameShapeExcept(ShapedType a, ShapedType b, int64_t dimension) {
  if (a.getRank() != b.getRank()) return false;
  for (int64_t d = 0; d < a.getRank(); ++d) {
    if (d == dimension || a.isDynamicDim(d) || b.isDynamicDim(d)) continue;
    if (a.getDimSize(d) != b.getDimSize(d)) return false;
  }
  return true;
}

LogicalResult VerifyTopkLike(Operation* op, int64_t dimension, ValueRange inputs, ValueRange outputs,
                             Region& region, size_t min_outputs) {
  if (failed(VerifyCounts(op, inputs, 1, 2, outputs, min_outputs, 2))) return failure();
  ShapedType values = Shaped(inputs[0]);
  if (failed(VerifyDimension(op, dimension, values.getRank()))) return failure();
  for (Value v : llvm::concat<const Value>(inputs, outputs)) {
    if (!SameShapeExcept(values, Shaped(v), dimension)) {
      return op->emitOpError() << "operand of type " << v.getType() << " does not match the values " << values
                               << " outside dimension " << dimension;
    }
  }
  if (Shaped(outputs[0]).getElementType() != values.getElementType()) {
    return op->emitOpError() << "expects the values output to have element type " << values.getElementType();
  }
  for (Value v : {inputs.size() > 1 ? inputs[1] : Value(), outputs.size() > 1 ? outputs[1] : Value()}) {
    if (v && !isa<IntegerType>(Shaped(v).getElementType())) {
      return op->emitOpError() << "expects integer indices, got " << v.getType();
    }
  }
  Type element = values.getElementType();
  return VerifyRegion(op, region, {element, element}, IntegerType::get(op->getContext(), 1), "comparator");
}

}  // namespace

LogicalResult SortOp::verify() {
  if (failed(VerifyCounts(*this, getInputs(), 0, 8, getOutputs(), 1, 8))) return failure();
  if (!getInputs().empty()) {
    bool matching = getInputs().size() == getOutputs().size();
    for (auto [in, out] : llvm::zip(getInputs(), getOutputs())) {
      matching &= Shaped(in).getElementType() == Shaped(out).getElementType() &&
                  Shaped(in).getShape() == Shaped(out).getShape();
    }
    if (!matching) return emitOpError() << "expects `ins`, when given, to have the shapes and elements of `outs`";
  }
  ShapedType first = Shaped(getOutputs()[0]);
  if (failed(VerifyDimension(*this, getDimension(), first.getRank()))) return failure();
  SmallVector<Type> args;
  for (Value v : getOutputs()) {
    if (Shaped(v).getRank() != first.getRank() || !SameShapeExcept(first, Shaped(v), -1)) {
      return emitOpError() << "expects every operand to have the shape of the first, got " << v.getType();
    }
    args.append(2, Shaped(v).getElementType());
  }
  return VerifyRegion(*this, getRegion(), args, IntegerType::get(getContext(), 1), "comparator");
}

LogicalResult TopkOp::verify() {
  return VerifyTopkLike(*this, getDimension(), getInputs(), getOutputs(), getRegion(), 2);
}

LogicalResult TopkV2Op::verify() {
  return VerifyTopkLike(*this, getDimension(), getInputs(), getOutputs(), getRegion(), 1);
}

LogicalResult ScanOp::verify() {
  if (failed(VerifyCounts(*this, getInputs(), 1, 1, getOutputs(), 2, 2))) return failure();
  ShapedType input = Shaped(getInputs()[0]), output = Shaped(getOutputs()[0]), total = Shaped(getOutputs()[1]);
  if (failed(VerifyDimension(*this, getDimension(), input.getRank()))) return failure();
  if (!SameShapeExcept(input, output, -1) || output.getElementType() != input.getElementType()) {
    return emitOpError() << "expects the output " << output << " to match the input " << input;
  }
  bool total_matches = total.getRank() == input.getRank() - 1 && total.getElementType() == input.getElementType();
  for (int64_t d = 0, t = 0; total_matches && d < input.getRank(); ++d) {
    if (d == static_cast<int64_t>(getDimension())) continue;
    int64_t a = input.getDimSize(d), b = total.getDimSize(t++);
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b) total_matches = false;
  }
  if (!total_matches) {
    return emitOpError() << "expects the total " << total << " to be the input " << input << " without dimension "
                         << getDimension();
  }
  Type element = input.getElementType();
  return VerifyRegion(*this, getRegion(), {element, element}, element, "combiner");
}

LogicalResult ArgCompareOp::verify() {
  if (failed(VerifyCounts(*this, getInputs(), 1, 1, getOutputs(), 2, 2))) return failure();
  ShapedType input = Shaped(getInputs()[0]), value = Shaped(getOutputs()[0]), index = Shaped(getOutputs()[1]);
  if (failed(VerifyDimension(*this, getDimension(), input.getRank()))) return failure();
  if (value.getRank() != input.getRank() - 1 || index.getRank() != value.getRank() ||
      value.getElementType() != input.getElementType() || !isa<IntegerType>(index.getElementType())) {
    return emitOpError() << "expects outputs of the input " << input
                         << " without the dimension: its element type and an integer index";
  }
  Type element = input.getElementType();
  return VerifyRegion(*this, getRegion(), {element, element}, IntegerType::get(getContext(), 1), "comparator");
}

namespace {

// The slice part of `sliced` (its dimensions after `batch`) against the trailing
// dimensions of `whole`: no larger where both are static.
LogicalResult VerifySliceFits(Operation* op, ShapedType sliced, int64_t batch, ShapedType whole, StringRef sliced_name,
                              StringRef whole_name) {
  int64_t first = whole.getRank() - (sliced.getRank() - batch);
  for (int64_t d = batch; d < sliced.getRank(); ++d) {
    int64_t size = sliced.getDimSize(d), limit = whole.getDimSize(first + d - batch);
    if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(limit) && size > limit) {
      return op->emitOpError() << "slice dimension " << d << " of the " << sliced_name << " (size " << size
                               << ") exceeds dimension " << first + d - batch << " of the " << whole_name << " (size "
                               << limit << ")";
    }
  }
  return success();
}

// Scatter and gather address alike: `indices` ([batch..., depth]) with an optional i1
// `mask` over the batch dimensions place slices of `sliced` ([batch..., slice...]) on
// the trailing dimensions of `whole` (`dimension_map` names the indexed ones).
LogicalResult VerifyIndexedSlices(Operation* op, ArrayRef<int64_t> dimension_map, ValueRange inputs,
                                  ShapedType sliced, ShapedType whole, StringRef sliced_name, StringRef whole_name) {
  ShapedType indices = Shaped(inputs[1]);
  if (!isa<IntegerType>(indices.getElementType())) {
    return op->emitOpError() << "expects integer indices, got " << indices;
  }
  if (dimension_map.empty()) return op->emitOpError() << "expects a non-empty dimension_map";
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t d : dimension_map) {
    if (d < 0 || d >= whole.getRank() || !seen.insert(d).second) {
      return op->emitOpError() << "dimension_map entry " << d << " is out of range or repeated for rank "
                               << whole.getRank();
    }
  }
  int64_t batch = IndexBatchRank(indices, dimension_map.size());
  if (batch == indices.getRank() && dimension_map.size() != 1) {
    return op->emitOpError() << "expects the indices' last dimension to be the index depth " << dimension_map.size();
  }
  int64_t slice_rank = sliced.getRank() - batch;
  if (slice_rank < 0 || slice_rank > whole.getRank()) {
    return op->emitOpError() << sliced_name << " " << sliced << " does not hold " << batch
                             << " batch dimensions and a slice of the " << whole_name << " " << whole;
  }
  if (inputs.size() == 3) {
    ShapedType mask = Shaped(inputs[2]);
    if (mask.getRank() != batch || !mask.getElementType().isInteger(1)) {
      return op->emitOpError() << "expects an i1 mask over the " << batch << " batch dimensions, got " << mask;
    }
  }
  if (sliced.getElementType() != whole.getElementType()) {
    return op->emitOpError() << "expects the " << sliced_name << " to have the element type of the " << whole_name
                             << ", " << whole.getElementType();
  }
  return VerifySliceFits(op, sliced, batch, whole, sliced_name, whole_name);
}

}  // namespace

int64_t IndexBatchRank(ShapedType indices, int64_t depth) {
  bool explicit_depth = indices.getRank() > 0 && indices.getDimSize(indices.getRank() - 1) == depth;
  return explicit_depth ? indices.getRank() - 1 : indices.getRank();
}

LogicalResult ScatterOp::verify() {
  if (failed(VerifyCounts(*this, getInputs(), 2, 3, getOutputs(), 1, 1))) return failure();
  ShapedType original = Shaped(getOutputs()[0]);
  if (failed(VerifyIndexedSlices(*this, getDimensionMap(), getInputs(), Shaped(getInputs()[0]), original, "updates",
                                 "original"))) {
    return failure();
  }
  Type element = original.getElementType();
  return VerifyRegion(*this, getRegion(), {element, element}, element, "combiner");
}

LogicalResult GatherOp::verify() {
  if (failed(VerifyCounts(*this, getInputs(), 2, 3, getOutputs(), 1, 1))) return failure();
  return VerifyIndexedSlices(*this, getDimensionMap(), getInputs(), Shaped(getOutputs()[0]), Shaped(getInputs()[0]),
                             "output", "source");
}

namespace {

LogicalResult VerifyAttention(Operation* op, ArrayAttr maps, ValueRange inputs, ValueRange outputs,
                              size_t output_count, Region& region) {
  if (failed(VerifyCounts(op, inputs, 4, 5, outputs, output_count, output_count))) return failure();
  if (maps.size() != inputs.size() + outputs.size()) {
    return op->emitOpError() << "expects " << inputs.size() + outputs.size() << " indexing maps, got "
                             << maps.size();
  }
  for (auto [i, attr] : llvm::enumerate(maps)) {
    AffineMap map = cast<AffineMapAttr>(attr).getValue();
    Value operand = i < inputs.size() ? inputs[i] : outputs[i - inputs.size()];
    auto shaped = dyn_cast<ShapedType>(operand.getType());
    int64_t rank = shaped ? shaped.getRank() : 0;
    if (!map.isProjectedPermutation() || map.getNumResults() != rank) {
      return op->emitOpError() << "indexing map " << i << " (" << AffineMapAttr::get(map)
                               << ") must name one loop per dimension of its operand, of rank " << rank;
    }
  }
  SmallVector<AffineMap> affine_maps = llvm::to_vector(maps.getAsValueRange<AffineMapAttr>());
  unsigned loops = affine_maps.front().getNumDims();
  if (llvm::any_of(affine_maps, [&](AffineMap m) { return m.getNumDims() != loops; }) ||
      getUnusedDimsBitVector(affine_maps).any()) {
    return op->emitOpError() << "expects indexing maps over the same loops, each loop indexing some operand";
  }
  if (!isa<FloatType>(inputs[3].getType())) {
    return op->emitOpError() << "expects a float scale as the fourth input, got " << inputs[3].getType();
  }
  for (Value v : {inputs[0], inputs[1], inputs[2], outputs[0]}) {
    if (!isa<FloatType>(Shaped(v).getElementType())) {
      return op->emitOpError() << "expects float Q, K, V and output, got " << v.getType();
    }
  }
  if (inputs.size() == 5) {
    Type mask = Shaped(inputs[4]).getElementType();
    if (!mask.isInteger(1) && !isa<FloatType>(mask)) {
      return op->emitOpError() << "expects an i1 or float mask, got " << inputs[4].getType();
    }
  }
  if (!region.empty()) {
    Block& block = region.front();
    auto yield = dyn_cast<YieldOp>(block.getTerminator());
    if (block.getNumArguments() != 1 || !isa<FloatType>(block.getArgument(0).getType()) || !yield ||
        yield.getNumOperands() != 1 || !isa<FloatType>(yield.getOperand(0).getType())) {
      return op->emitOpError() << "expects a score region taking and yielding one float";
    }
  }
  return success();
}

}  // namespace

LogicalResult AttentionOp::verify() {
  return VerifyAttention(*this, getIndexingMaps(), getInputs(), getOutputs(), 1, getRegion());
}

LogicalResult OnlineAttentionOp::verify() {
  return VerifyAttention(*this, getIndexingMaps(), getInputs(), getOutputs(), 3, getRegion());
}

}  // namespace kiln::compiler::iree
