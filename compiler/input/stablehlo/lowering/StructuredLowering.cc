// reduce becomes a linalg.generic reduction, dot and dot_general contraction generics,
// sort iree_linalg_ext.sort, gather a generic that reads the operand at computed
// positions. Region bodies become scalar code (ScalarOps.h).
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/input/stablehlo/StablehloDialect.h"
#include "compiler/input/stablehlo/lowering/Lowering.h"
#include "compiler/input/stablehlo/lowering/LoweringUtils.h"
#include "compiler/input/stablehlo/lowering/ScalarOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

RankedTensorType TensorType(Value value) { return cast<RankedTensorType>(value.getType()); }

// The body's arguments are N accumulators then N elements; the generic's are N elements
// then N accumulators.
LogicalResult LowerReduce(RewriterBase& rewriter, Operation* op) {
  if (failed(RequireStatic(op))) return failure();
  auto reduce = cast<ReduceOp>(op);
  Location loc = op->getLoc();
  size_t n = reduce.getInputs().size();
  int64_t rank = TensorType(reduce.getInputs()[0]).getRank();
  SmallVector<Value> inits;
  for (auto [init, result] : llvm::zip(reduce.getInitValues(), reduce.getResults())) {
    auto type = cast<RankedTensorType>(result.getType());
    Value value = tensor::ExtractOp::create(rewriter, loc, init, ValueRange{});
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    inits.push_back(linalg::FillOp::create(rewriter, loc, value, empty).getResult(0));
  }
  SmallVector<AffineExpr> kept;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(reduce.getDimensions(), d);
    iterators.push_back(reduced ? utils::IteratorType::reduction : utils::IteratorType::parallel);
    if (!reduced) kept.push_back(rewriter.getAffineDimExpr(d));
  }
  SmallVector<AffineMap> maps(n, rewriter.getMultiDimIdentityMap(rank));
  maps.append(n, AffineMap::get(rank, 0, kept, rewriter.getContext()));
  bool failed_body = false;
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange(reduce.getResultTypes()), reduce.getInputs(), inits, maps, iterators,
      [&](OpBuilder& b, Location l, ValueRange args) {
        SmallVector<Value> body_args(args.drop_front(n));
        llvm::append_range(body_args, args.take_front(n));
        FailureOr<SmallVector<Value>> results = InlineScalarBody(b, l, reduce.getBody().front(), body_args);
        failed_body = failed(results);
        linalg::YieldOp::create(b, l, failed_body ? ValueRange(args.drop_front(n)) : ValueRange(*results));
      });
  if (failed_body) {
    rewriter.eraseOp(generic);
    return failure();
  }
  rewriter.replaceOp(op, generic.getResults());
  return success();
}

// An operand element widened (or narrowed) to the result's element type.
Value ToResultType(OpBuilder& b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to) return x;
  if (isa<FloatType>(from) && isa<FloatType>(to)) {
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()) return arith::ExtFOp::create(b, loc, to, x);
    return arith::TruncFOp::create(b, loc, to, x);
  }
  if (isa<IntegerType>(from) && isa<FloatType>(to)) return arith::SIToFPOp::create(b, loc, to, x);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()) return arith::ExtSIOp::create(b, loc, to, x);
  return arith::TruncIOp::create(b, loc, to, x);
}

// The loops are the batch dimensions, lhs's free dimensions, rhs's free dimensions (the
// result's, in order), then the contracting dimensions; products are summed in the result's
// element type.
LogicalResult Contract(RewriterBase& rewriter, Operation* op, Value lhs, Value rhs, ArrayRef<int64_t> lhs_batch,
                       ArrayRef<int64_t> rhs_batch, ArrayRef<int64_t> lhs_contract, ArrayRef<int64_t> rhs_contract) {
  if (failed(RequireStatic(op))) return failure();
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Type element = type.getElementType();
  if (!element.isSignlessIntOrFloat()) return op->emitError() << "'" << op->getName() << "' of " << element << " is not lowered yet";
  int64_t nb = lhs_batch.size(), nc = lhs_contract.size();
  int64_t lhs_rank = TensorType(lhs).getRank(), rhs_rank = TensorType(rhs).getRank();
  int64_t lhs_free = lhs_rank - nb - nc, rhs_free = rhs_rank - nb - nc;
  int64_t loops = nb + lhs_free + rhs_free + nc;
  auto operand_map = [&](int64_t rank, ArrayRef<int64_t> batch, ArrayRef<int64_t> contract, int64_t free_base) {
    SmallVector<AffineExpr> exprs;
    int64_t free = 0;
    for (int64_t d = 0; d < rank; ++d) {
      const auto* b = llvm::find(batch, d);
      const auto* c = llvm::find(contract, d);
      int64_t loop = b != batch.end()      ? b - batch.begin()
                     : c != contract.end() ? nb + lhs_free + rhs_free + (c - contract.begin())
                                           : free_base + free++;
      exprs.push_back(rewriter.getAffineDimExpr(loop));
    }
    return AffineMap::get(loops, 0, exprs, rewriter.getContext());
  };
  SmallVector<AffineExpr> out;
  for (int64_t d = 0; d < nb + lhs_free + rhs_free; ++d) out.push_back(rewriter.getAffineDimExpr(d));
  SmallVector<AffineMap> maps = {operand_map(lhs_rank, lhs_batch, lhs_contract, nb),
                                 operand_map(rhs_rank, rhs_batch, rhs_contract, nb + lhs_free),
                                 AffineMap::get(loops, 0, out, rewriter.getContext())};
  SmallVector<utils::IteratorType> iterators(loops - nc, utils::IteratorType::parallel);
  iterators.append(nc, utils::IteratorType::reduction);
  Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), element);
  Value init = linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{type}, ValueRange{lhs, rhs}, ValueRange{init}, maps, iterators,
      [&](OpBuilder& b, Location l, ValueRange args) {
        Value x = ToResultType(b, l, args[0], element), y = ToResultType(b, l, args[1], element);
        Value sum;
        if (isa<FloatType>(element)) {
          sum = arith::AddFOp::create(b, l, args[2], arith::MulFOp::create(b, l, x, y));
        } else if (element.isInteger(1)) {
          sum = arith::OrIOp::create(b, l, args[2], arith::AndIOp::create(b, l, x, y));
        } else {
          sum = arith::AddIOp::create(b, l, args[2], arith::MulIOp::create(b, l, x, y));
        }
        linalg::YieldOp::create(b, l, sum);
      });
  rewriter.replaceOp(op, generic.getResult(0));
  return success();
}

LogicalResult LowerDot(RewriterBase& rewriter, Operation* op) {
  auto dot = cast<DotOp>(op);
  int64_t lhs_rank = TensorType(dot.getLhs()).getRank();
  return Contract(rewriter, op, dot.getLhs(), dot.getRhs(), {}, {}, {lhs_rank - 1}, {0});
}

LogicalResult LowerDotGeneral(RewriterBase& rewriter, Operation* op) {
  auto dot = cast<DotGeneralOp>(op);
  DotDimensionNumbersAttr dims = dot.getDotDimensionNumbers();
  return Contract(rewriter, op, dot.getLhs(), dot.getRhs(), dims.getLhsBatchingDimensions(),
                  dims.getRhsBatchingDimensions(), dims.getLhsContractingDimensions(),
                  dims.getRhsContractingDimensions());
}

// iree_linalg_ext.sort takes the comparator's arguments in stablehlo's order (left and
// right element of each input in turn) and sorts stably, which stablehlo allows.
LogicalResult LowerSort(RewriterBase& rewriter, Operation* op) {
  auto sort = cast<SortOp>(op);
  Location loc = op->getLoc();
  int64_t rank = TensorType(sort.getInputs()[0]).getRank();
  auto dimension = static_cast<int64_t>(sort.getDimension());
  if (dimension < 0) dimension += rank;
  auto sorted = iree::SortOp::create(rewriter, loc, sort.getResultTypes(), rewriter.getI64IntegerAttr(dimension),
                                     ValueRange{}, sort.getInputs());
  SmallVector<Type> arg_types;
  for (Value input : sort.getInputs()) arg_types.append(2, TensorType(input).getElementType());
  SmallVector<Location> arg_locs(arg_types.size(), loc);
  Block* block = rewriter.createBlock(&sorted.getRegion(), {}, arg_types, arg_locs);
  rewriter.setInsertionPointToEnd(block);
  FailureOr<SmallVector<Value>> less =
      InlineScalarBody(rewriter, loc, sort.getComparator().front(), block->getArguments());
  if (failed(less)) {
    rewriter.eraseOp(sorted);
    return failure();
  }
  iree::YieldOp::create(rewriter, loc, *less);
  rewriter.replaceOp(op, sorted.getResults());
  return success();
}

// result[r] = operand[start(r) + offset(r)]: the start from start_indices at r's batch
// position (clamped so that the slice fits), the offset from r's offset dimensions.
LogicalResult LowerGather(RewriterBase& rewriter, Operation* op) {
  if (failed(RequireStatic(op))) return failure();
  auto gather = cast<GatherOp>(op);
  Location loc = op->getLoc();
  GatherDimensionNumbersAttr dims = gather.getDimensionNumbers();
  RankedTensorType type = gather.getType(), operand = TensorType(gather.getOperand());
  RankedTensorType indices = TensorType(gather.getStartIndices());
  int64_t rank = type.getRank(), index_vector_dim = dims.getIndexVectorDim();
  ArrayRef<int64_t> offset_dims = dims.getOffsetDims(), map = dims.getStartIndexMap();
  SmallVector<int64_t> batch_dims, operand_offset_dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (!llvm::is_contained(offset_dims, d)) batch_dims.push_back(d);
  }
  for (int64_t d = 0; d < operand.getRank(); ++d) {
    if (!llvm::is_contained(dims.getCollapsedSliceDims(), d) && !llvm::is_contained(dims.getOperandBatchingDims(), d)) {
      operand_offset_dims.push_back(d);
    }
  }
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
  SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  Value source = gather.getOperand(), starts = gather.getStartIndices();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init}, maps, iterators,
      [&](OpBuilder& b, Location l, ValueRange) {
        SmallVector<Value> batch = llvm::map_to_vector(batch_dims, [&](int64_t d) -> Value {
          return linalg::IndexOp::create(b, l, d);
        });
        auto constant = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, l, v); };
        SmallVector<Value> coordinates(operand.getRank(), constant(0));
        for (auto [k, d] : llvm::enumerate(map)) {
          SmallVector<Value> at(batch);
          if (index_vector_dim < indices.getRank()) at.insert(at.begin() + index_vector_dim, constant(k));
          Value start = tensor::ExtractOp::create(b, l, starts, at);
          start = arith::IndexCastOp::create(b, l, b.getIndexType(), start);
          Value high = constant(operand.getDimSize(d) - gather.getSliceSizes()[d]);
          coordinates[d] = arith::MinSIOp::create(b, l, arith::MaxSIOp::create(b, l, start, constant(0)), high);
        }
        for (auto [m, d] : llvm::enumerate(dims.getOperandBatchingDims())) {
          int64_t q = dims.getStartIndicesBatchingDims()[m];
          coordinates[d] = batch[q < index_vector_dim ? q : q - 1];
        }
        for (auto [j, d] : llvm::enumerate(operand_offset_dims)) {
          coordinates[d] = arith::AddIOp::create(b, l, coordinates[d], linalg::IndexOp::create(b, l, offset_dims[j]));
        }
        linalg::YieldOp::create(b, l, ValueRange{tensor::ExtractOp::create(b, l, source, coordinates)});
      });
  rewriter.replaceOp(op, generic.getResult(0));
  return success();
}

}  // namespace

void AddStructuredLowerings(LoweringTable& table) {
  table["stablehlo.reduce"] = LowerReduce;
  table["stablehlo.dot"] = LowerDot;
  table["stablehlo.dot_general"] = LowerDotGeneral;
  table["stablehlo.sort"] = LowerSort;
  table["stablehlo.gather"] = LowerGather;
}

}  // namespace kiln::compiler::stablehlo
