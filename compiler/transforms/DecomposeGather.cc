// Gather and arg_compare as linalg.generic ops (LinalgExtDecompositions.h).
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"

#include "compiler/dialect/KilnDialect.h"
#include "compiler/transforms/LinalgExtDecompositions.h"
#include "compiler/utils/Locations.h"
#include "compiler/utils/Regions.h"

namespace kiln::compiler {

using namespace mlir;

FailureOr<SmallVector<Value>> DecomposeGather(RewriterBase& rewriter, iree::GatherOp op, bool check_indices) {
  Location loc = op.getLoc();
  Value source = op.getInputs()[0], indices = op.getInputs()[1];
  Value mask = op.getInputs().size() > 2 ? op.getInputs()[2] : Value();
  Value init = op.getOutputs()[0];
  auto source_type = cast<RankedTensorType>(source.getType());
  auto indices_type = cast<RankedTensorType>(indices.getType());
  auto output_type = cast<RankedTensorType>(init.getType());
  ArrayRef<int64_t> dimension_map = op.getDimensionMap();
  int64_t depth = dimension_map.size();
  int64_t batch_rank = iree::IndexBatchRank(indices_type, depth);
  bool explicit_depth = batch_rank < indices_type.getRank();
  int64_t rank = output_type.getRank();
  int64_t slice_rank = rank - batch_rank;
  int64_t first_slice_dim = source_type.getRank() - slice_rank;  // of the source
  MLIRContext* ctx = rewriter.getContext();

  // One input per index component, read at the batch position.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (int64_t j = 0; j < depth; ++j) {
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < batch_rank; ++d) exprs.push_back(getAffineDimExpr(d, ctx));
    if (explicit_depth) exprs.push_back(getAffineConstantExpr(j, ctx));
    inputs.push_back(indices);
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  if (mask) {
    inputs.push_back(mask);
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx).getMajorSubMap(batch_rank));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));

  // Outside the body: the largest valid offset of each indexed dimension, so that the
  // window [offset, offset + window) stays inside the source.
  SmallVector<Value> max_offset(source_type.getRank()), offset_count(source_type.getRank());
  for (int64_t s : dimension_map) {
    Value size = tensor::DimOp::create(rewriter, loc, source, s);
    OpFoldResult window = s >= first_slice_dim
                              ? tensor::getMixedSize(rewriter, loc, init, batch_rank + s - first_slice_dim)
                              : OpFoldResult(rewriter.getIndexAttr(1));
    max_offset[s] =
        arith::SubIOp::create(rewriter, loc, size, getValueOrCreateConstantIndexOp(rewriter, loc, window));
    if (check_indices) {
      offset_count[s] = arith::AddIOp::create(rewriter, loc, max_offset[s], arith::ConstantIndexOp::create(rewriter, loc, 1));
    }
  }

  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{output_type}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder& b, Location l, ValueRange args) {
        Value zero = arith::ConstantIndexOp::create(b, l, 0);
        SmallVector<Value> coords(source_type.getRank());
        for (int64_t s = 0; s < source_type.getRank(); ++s) {
          coords[s] = s >= first_slice_dim ? Value(linalg::IndexOp::create(b, l, batch_rank + s - first_slice_dim))
                                           : zero;
        }
        for (auto [j, s] : llvm::enumerate(dimension_map)) {
          Value offset = arith::IndexCastOp::create(b, l, b.getIndexType(), args[j]);
          if (check_indices) {
            IndexCheckOp::create(b, l, offset, offset_count[s], mask ? args[depth] : Value(),
                                 SliceOffsetSite(op, s, "source"));
          }
          offset = arith::MaxSIOp::create(b, l, offset, zero);
          offset = arith::MinSIOp::create(b, l, offset, max_offset[s]);
          coords[s] = arith::AddIOp::create(b, l, coords[s], offset);
        }
        Value element = tensor::ExtractOp::create(b, l, source, coords);
        if (mask) element = arith::SelectOp::create(b, l, args[depth], element, args.back());
        linalg::YieldOp::create(b, l, element);
      });
  return SmallVector<Value>{generic.getResult(0)};
}

FailureOr<SmallVector<Value>> DecomposeArgCompare(RewriterBase& rewriter, iree::ArgCompareOp op) {
  Location loc = op.getLoc();
  Value input = op.getInputs()[0];
  int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
  int64_t dimension = op.getDimension();
  MLIRContext* ctx = rewriter.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap reduced = identity.dropResult(dimension);
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  iterators[dimension] = utils::IteratorType::reduction;
  Value base = op.getIndexBase();
  Block& comparator = op.getRegion().front();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, op.getResultTypes(), ValueRange{input}, op.getOutputs(),
      ArrayRef<AffineMap>{identity, reduced, reduced}, iterators, [&](OpBuilder& b, Location l, ValueRange args) {
        Value better = InlineYieldedValue(b, comparator, args.take_front(2));
        Value position = linalg::IndexOp::create(b, l, dimension);
        if (base) position = arith::AddIOp::create(b, l, position, base);
        Value index = arith::IndexCastOp::create(b, l, args[2].getType(), position);
        linalg::YieldOp::create(b, l,
                                ValueRange{arith::SelectOp::create(b, l, better, args[0], args[1]),
                                           arith::SelectOp::create(b, l, better, index, args[2])});
      });
  return SmallVector<Value>(generic.getResults());
}

}  // namespace kiln::compiler
