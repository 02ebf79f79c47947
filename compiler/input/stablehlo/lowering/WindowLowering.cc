// stablehlo.reduce_window becomes a linalg.generic over the result's dimensions (parallel)
// and the window's (reduction), reading the inputs, padded with the init values, at
// position * stride + window offset * dilation. An empty tensor of the window's shape gives
// the window loops their bounds, as linalg's pooling ops do.
#include "compiler/input/stablehlo/StablehloDialect.h"
#include "compiler/input/stablehlo/lowering/Lowering.h"
#include "compiler/input/stablehlo/lowering/LoweringUtils.h"
#include "compiler/input/stablehlo/lowering/ScalarOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

LogicalResult LowerReduceWindow(RewriterBase& rewriter, Operation* op) {
  auto window = cast<ReduceWindowOp>(op);
  Location loc = op->getLoc();
  if (failed(RequireStatic(op))) return failure();
  if (window.getBaseDilations() && llvm::any_of(*window.getBaseDilations(), [](int64_t d) { return d != 1; })) {
    return op->emitError() << "'stablehlo.reduce_window' with base_dilations is not lowered yet";
  }
  size_t n = window.getInputs().size();
  ArrayRef<int64_t> sizes = window.getWindowDimensions();
  auto rank = static_cast<int64_t>(sizes.size());
  SmallVector<int64_t> strides(rank, 1), dilations(rank, 1), low(rank, 0), high(rank, 0);
  if (window.getWindowStrides()) strides.assign(window.getWindowStrides()->begin(), window.getWindowStrides()->end());
  if (window.getWindowDilations()) {
    dilations.assign(window.getWindowDilations()->begin(), window.getWindowDilations()->end());
  }
  if (window.getPadding()) {
    SmallVector<int64_t> padding = llvm::to_vector(window.getPadding()->getValues<int64_t>());
    for (int64_t d = 0; d < rank; ++d) {
      low[d] = padding[2 * d];
      high[d] = padding[2 * d + 1];
    }
  }
  if (llvm::any_of(llvm::concat<int64_t>(low, high), [](int64_t p) { return p < 0; })) {
    return op->emitError() << "'stablehlo.reduce_window' with negative padding is not lowered yet";
  }
  bool padded = llvm::any_of(llvm::concat<int64_t>(low, high), [](int64_t p) { return p != 0; });
  SmallVector<Value> inputs, inits;
  for (auto [input, init, result] : llvm::zip(window.getInputs(), window.getInitValues(), window.getResults())) {
    Value value = tensor::ExtractOp::create(rewriter, loc, init, ValueRange{});
    if (padded) input = PadWith(rewriter, loc, input, low, high, value);
    inputs.push_back(input);
    auto type = cast<RankedTensorType>(result.getType());
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    inits.push_back(linalg::FillOp::create(rewriter, loc, value, empty).getResult(0));
  }
  inputs.push_back(tensor::EmptyOp::create(rewriter, loc, sizes, rewriter.getI1Type()));
  SmallVector<AffineExpr> read, result_dims, window_dims;
  for (int64_t d = 0; d < rank; ++d) {
    AffineExpr position = rewriter.getAffineDimExpr(d), offset = rewriter.getAffineDimExpr(rank + d);
    read.push_back(position * strides[d] + offset * dilations[d]);
    result_dims.push_back(position);
    window_dims.push_back(offset);
  }
  MLIRContext* context = rewriter.getContext();
  SmallVector<AffineMap> maps(n, AffineMap::get(2 * rank, 0, read, context));
  maps.push_back(AffineMap::get(2 * rank, 0, window_dims, context));
  maps.append(n, AffineMap::get(2 * rank, 0, result_dims, context));
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  iterators.append(rank, utils::IteratorType::reduction);
  bool failed_body = false;
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange(window.getResultTypes()), inputs, inits, maps, iterators,
      [&](OpBuilder& b, Location l, ValueRange args) {
        SmallVector<Value> body_args(args.drop_front(n + 1));
        llvm::append_range(body_args, args.take_front(n));
        FailureOr<SmallVector<Value>> results = InlineScalarBody(b, l, window.getBody().front(), body_args);
        failed_body = failed(results);
        linalg::YieldOp::create(b, l, failed_body ? ValueRange(args.drop_front(n + 1)) : ValueRange(*results));
      });
  if (failed_body) {
    rewriter.eraseOp(generic);
    return failure();
  }
  rewriter.replaceOp(op, generic.getResults());
  return success();
}

}  // namespace

void AddWindowLowerings(LoweringTable& table) { table["stablehlo.reduce_window"] = LowerReduceWindow; }

}  // namespace kiln::compiler::stablehlo
