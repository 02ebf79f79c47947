// kiln-gpu-split-long-topks (Passes.td): a topk whose line exceeds what one workgroup holds
// in LDS as the topk of each chunk of the line, then the topk of the chunks' candidates.
//
//   chunk values  [..., C, L, ...] = the line padded with the fill f to C * L (L: the
//                                    largest power of two with k + L in LDS)
//   candidates    [..., C, k, ...] = topk(chunk values) from fills f, positions + c * L
//   result        [..., k, ...]    = topk(candidates, collapsed to C * k) from the
//                                    topk's own initial outputs
//
// This is exactly the CPU's sequential insertions (LinalgExtToLoops.cc) when the initial
// values are one fill f that is not NaN and the comparator is a strict order of its two
// arguments (cmpf ogt/olt, cmpi sgt/slt/ugt/ult): the loop's result is then the first k of
// the stable order of [k fills, the line] (equals keep their order; a NaN beats nothing
// and nothing beats it, so it never enters). An element of that result is among the first
// k of its chunk's stable order, the chunks' candidates come in line order, and a
// candidate equal to f (a chunk's unused fill, or a padding element) comes after the k
// initial fills of the second topk, so it never reaches the result.
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WorkgroupSort.h"
#include "compiler/input/iree/IreeDialects.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/bit.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_SPLITLONGTOPKS
#include "compiler/codegen/gpu/Passes.h.inc"

using namespace mlir;

namespace {

// The scalar every element of `init` holds, when it is a splat constant or a fill of one.
std::optional<TypedAttr> FillValue(Value init) {
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    TypedAttr value;
    if (matchPattern(fill.getInputs()[0], m_Constant(&value))) return value;
    return std::nullopt;
  }
  DenseElementsAttr dense;
  if (matchPattern(init, m_Constant(&dense)) && dense.isSplat()) return dense.getSplatValue<TypedAttr>();
  return std::nullopt;
}

// Whether the comparator is a strict order of its two arguments: one cmpf ogt/olt or cmpi
// sgt/slt/ugt/ult of them, yielded.
bool IsStrictOrder(iree::TopkOp topk) {
  Block& block = topk.getRegion().front();
  if (block.getNumArguments() != 2 || !llvm::hasSingleElement(block.without_terminator())) return false;
  Operation& compare = block.front();
  if (block.getTerminator()->getNumOperands() != 1 || block.getTerminator()->getOperand(0) != compare.getResult(0)) {
    return false;
  }
  if (compare.getNumOperands() != 2 || !llvm::is_contained(compare.getOperands(), block.getArgument(0)) ||
      !llvm::is_contained(compare.getOperands(), block.getArgument(1)) || compare.getOperand(0) == compare.getOperand(1)) {
    return false;
  }
  if (auto f = dyn_cast<arith::CmpFOp>(compare)) {
    return f.getPredicate() == arith::CmpFPredicate::OGT || f.getPredicate() == arith::CmpFPredicate::OLT;
  }
  if (auto i = dyn_cast<arith::CmpIOp>(compare)) {
    using P = arith::CmpIPredicate;
    return llvm::is_contained({P::sgt, P::slt, P::ugt, P::ult}, i.getPredicate());
  }
  return false;
}

// Why `topk` is not split, or its chunk length; an empty reason: it needs no split.
FailureOr<int64_t> ChunkLength(iree::TopkOp topk, std::string& why) {
  if (topk.getOutputs().size() != 2 || topk.getNumResults() != 2 || topk.getInputs().empty() ||
      topk.getInputs().size() > 2) {
    why = "it is not a topk of values (and indices) into values and indices on tensors";
    return failure();
  }
  auto input = dyn_cast<RankedTensorType>(topk.getInputs()[0].getType());
  auto output = dyn_cast<RankedTensorType>(topk.getOutputs()[0].getType());
  auto indices = dyn_cast<RankedTensorType>(topk.getOutputs()[1].getType());
  if (!input || !output || !indices) {
    why = "its operands are not ranked tensors";
    return failure();
  }
  int64_t dimension = topk.getDimension();
  int64_t line = input.getDimSize(dimension), k = output.getDimSize(dimension);
  int64_t capacity = SortLdsCapacity({input.getElementType(), indices.getElementType()});
  if (!ShapedType::isDynamic(line) && !ShapedType::isDynamic(k) && k + line <= capacity) {
    why.clear();
    return failure();  // the workgroup sort holds it whole
  }
  if (ShapedType::isDynamic(line) || ShapedType::isDynamic(k) || !input.hasStaticShape()) {
    why = "its line or k is dynamic";
    return failure();
  }
  int64_t chunk = capacity > k ? static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(capacity - k))) : 0;
  if (chunk < 2 * k) {
    why = "its k (" + std::to_string(k) + ") leaves too little of the LDS for chunks of the line";
    return failure();
  }
  std::optional<TypedAttr> fill = FillValue(topk.getOutputs()[0]);
  auto float_fill = fill ? dyn_cast<FloatAttr>(*fill) : FloatAttr();
  if (!fill || (float_fill && float_fill.getValue().isNaN())) {
    why = "its initial values are not one fill that is not NaN";
    return failure();
  }
  if (!IsStrictOrder(topk)) {
    why = "its comparator is not one strict comparison of its two arguments";
    return failure();
  }
  return chunk;
}

// `tensor` of shape [..., n, ...] (n at `dimension`) padded at the end of that dimension
// to `length` with `value`, then split into [..., length / chunk, chunk, ...].
Value ChunkLine(OpBuilder& b, Location loc, Value tensor, int64_t dimension, int64_t length, int64_t chunk,
                TypedAttr value) {
  auto type = cast<RankedTensorType>(tensor.getType());
  int64_t n = type.getDimSize(dimension);
  if (length != n) {
    SmallVector<OpFoldResult> low(type.getRank(), b.getIndexAttr(0)), high(type.getRank(), b.getIndexAttr(0));
    high[dimension] = b.getIndexAttr(length - n);
    SmallVector<int64_t> padded_shape(type.getShape());
    padded_shape[dimension] = length;
    Value pad = arith::ConstantOp::create(b, loc, value);
    tensor = tensor::PadOp::create(b, loc, RankedTensorType::get(padded_shape, type.getElementType()), tensor, low,
                                   high, pad);
  }
  SmallVector<int64_t> shape(type.getShape());
  shape[dimension] = length / chunk;
  shape.insert(shape.begin() + dimension + 1, chunk);
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (d == dimension) {
      groups.push_back({d, d + 1});
    } else {
      groups.push_back({d < dimension ? d : d + 1});
    }
  }
  return tensor::ExpandShapeOp::create(b, loc, RankedTensorType::get(shape, type.getElementType()), tensor, groups);
}

// [..., C, k, ...] collapsed to [..., C * k, ...] (C at `dimension`).
Value Collapse(OpBuilder& b, Location loc, Value tensor, int64_t dimension) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (d == dimension + 1) continue;
    if (d == dimension) {
      groups.push_back({d, d + 1});
    } else {
      groups.push_back({d});
    }
  }
  return tensor::CollapseShapeOp::create(b, loc, tensor, groups);
}

// A tensor of `type` filled with `value`.
Value Filled(OpBuilder& b, Location loc, RankedTensorType type, TypedAttr value) {
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value scalar = arith::ConstantOp::create(b, loc, value);
  return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
}

// Positions within chunks (`positions`, [..., C, k, ...] with C at `dimension`) made
// positions in the line: + c * chunk.
Value LinePositions(OpBuilder& b, Location loc, Value positions, int64_t dimension, int64_t chunk) {
  auto type = cast<RankedTensorType>(positions.getType());
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(), utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{positions}, ValueRange{init}, ArrayRef<AffineMap>{identity, identity},
      iterators, [&](OpBuilder& nested, Location nested_loc, ValueRange args) {
        Value c = linalg::IndexOp::create(nested, nested_loc, dimension);
        Value base = arith::MulIOp::create(nested, nested_loc, c,
                                           arith::ConstantIndexOp::create(nested, nested_loc, chunk));
        Value offset = arith::IndexCastOp::create(nested, nested_loc, type.getElementType(), base);
        linalg::YieldOp::create(nested, nested_loc,
                                ValueRange{arith::AddIOp::create(nested, nested_loc, args[0], offset).getResult()});
      });
  return generic.getResult(0);
}

// Rewrites `topk` as the topk of chunks of `chunk` elements and the topk of their
// candidates; returns the second, which may itself need splitting.
iree::TopkOp Split(iree::TopkOp topk, int64_t chunk) {
  OpBuilder b(topk);
  Location loc = topk.getLoc();
  int64_t dimension = topk.getDimension();
  auto input = cast<RankedTensorType>(topk.getInputs()[0].getType());
  auto values_type = cast<RankedTensorType>(topk.getOutputs()[0].getType());
  auto indices_type = cast<RankedTensorType>(topk.getOutputs()[1].getType());
  int64_t n = input.getDimSize(dimension), k = values_type.getDimSize(dimension);
  int64_t chunks = llvm::divideCeil(n, chunk), length = chunks * chunk;
  TypedAttr fill = *FillValue(topk.getOutputs()[0]);

  SmallVector<Value> chunked{ChunkLine(b, loc, topk.getInputs()[0], dimension, length, chunk, fill)};
  bool has_indices = topk.getInputs().size() == 2;
  if (has_indices) {
    chunked.push_back(ChunkLine(b, loc, topk.getInputs()[1], dimension, length, chunk,
                                b.getZeroAttr(indices_type.getElementType())));
  }
  SmallVector<int64_t> candidate_shape(values_type.getShape());
  candidate_shape[dimension] = chunks;
  candidate_shape.insert(candidate_shape.begin() + dimension + 1, k);
  auto candidate_values = RankedTensorType::get(candidate_shape, values_type.getElementType());
  auto candidate_indices = RankedTensorType::get(candidate_shape, indices_type.getElementType());
  auto chunk_topk = iree::TopkOp::create(
      b, loc, TypeRange{candidate_values, candidate_indices}, b.getI64IntegerAttr(dimension + 1), chunked,
      ValueRange{Filled(b, loc, candidate_values, fill),
                 Filled(b, loc, candidate_indices, b.getZeroAttr(indices_type.getElementType()))});
  IRMapping chunk_mapping;
  topk.getRegion().cloneInto(&chunk_topk.getRegion(), chunk_mapping);
  Value positions = chunk_topk.getResult(1);
  if (!has_indices) positions = LinePositions(b, loc, positions, dimension, chunk);

  auto merged = iree::TopkOp::create(
      b, loc, topk.getResultTypes(), topk.getDimensionAttr(),
      ValueRange{Collapse(b, loc, chunk_topk.getResult(0), dimension), Collapse(b, loc, positions, dimension)},
      topk.getOutputs());
  IRMapping merged_mapping;
  topk.getRegion().cloneInto(&merged.getRegion(), merged_mapping);
  topk.replaceAllUsesWith(merged.getResults());
  topk.erase();
  return merged;
}

struct SplitLongTopksPass : impl::SplitLongTopksBase<SplitLongTopksPass> {
  void runOnOperation() override {
    SmallVector<iree::TopkOp> worklist;
    getOperation()->walk([&](iree::TopkOp topk) { worklist.push_back(topk); });
    while (!worklist.empty()) {
      iree::TopkOp topk = worklist.pop_back_val();
      std::string why;
      FailureOr<int64_t> chunk = ChunkLength(topk, why);
      if (succeeded(chunk)) {
        worklist.push_back(Split(topk, *chunk));
      } else if (!why.empty()) {
        topk.emitRemark() << "'" << topk->getName() << "' is not split into chunks: " << why
                          << "; its lines run on one work-item each";
      }
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
