// stablehlo.convolution becomes one contraction generic on canonical layouts: the input
// transposed to [batch, spatial..., feature], dilated and padded by stablehlo.pad (lowered
// at once), its batch and features split into groups ([B, batch/B, spatial..., G, C/G]);
// the kernel transposed to [spatial..., in, out], its output features split
// ([spatial..., in, B*G, out/(B*G)]). Each output element sums input times kernel over
// the window and its group's input features in the result's element type; the grouped
// output is collapsed and transposed to the result's layout.
#include "compiler/input/stablehlo/StablehloDialect.h"
#include "compiler/input/stablehlo/lowering/Lowering.h"
#include "compiler/input/stablehlo/lowering/LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

// Reassociation grouping dimensions [0, rank) one by one, except that `split` (and the one
// after it) form one group.
SmallVector<ReassociationIndices> PairAt(int64_t rank, int64_t split) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == split) {
      groups.push_back({d, d + 1});
      ++d;
    } else {
      groups.push_back({d});
    }
  }
  return groups;
}

// `value` of the result's element type: integers sign-extended, floats extended.
Value Widen(OpBuilder& b, Location loc, Value value, Type to) {
  Type from = value.getType();
  if (from == to) return value;
  if (isa<FloatType>(to)) {
    if (isa<IntegerType>(from)) return arith::SIToFPOp::create(b, loc, to, value);
    return arith::ExtFOp::create(b, loc, to, value);
  }
  return arith::ExtSIOp::create(b, loc, to, value);
}

// The value the stablehlo op `op` (just created, unused) becomes, lowered with its own
// lowering: that replaces the op's uses, so a placeholder use catches the replacement.
// Leaves the insertion point before `op`'s replacement.
FailureOr<Value> LowerNow(RewriterBase& rewriter, Operation* op) {
  Value result = op->getResult(0);
  auto placeholder = tensor::CastOp::create(rewriter, op->getLoc(), result.getType(), result);
  rewriter.setInsertionPoint(op);
  if (failed(Lowerings().lookup(op->getName().getStringRef())(rewriter, op))) return failure();
  Value lowered = placeholder.getSource();
  rewriter.eraseOp(placeholder);
  return lowered;
}

// The input in [batch, spatial..., feature], dilated and padded with zeros.
FailureOr<Value> CanonicalInput(RewriterBase& rewriter, ConvolutionOp conv) {
  Location loc = conv.getLoc();
  ConvDimensionNumbersAttr dims = conv.getDimensionNumbers();
  SmallVector<int64_t> permutation = {dims.getInputBatchDimension()};
  llvm::append_range(permutation, dims.getInputSpatialDimensions());
  permutation.push_back(dims.getInputFeatureDimension());
  Value input = Transpose(rewriter, loc, conv.getLhs(), permutation);
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> low = {0}, high = {0}, interior = {0};
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<std::pair<int64_t, int64_t>> pads = conv.getPads();
  SmallVector<int64_t> dilations = conv.getLhsDilations();
  bool changes = false;
  for (size_t i = 0; i < pads.size(); ++i) {
    low.push_back(pads[i].first);
    high.push_back(pads[i].second);
    interior.push_back(dilations[i] - 1);
    int64_t& size = shape[i + 1];
    size = (size == 0 ? 0 : (size - 1) * dilations[i] + 1) + pads[i].first + pads[i].second;
    changes |= pads[i].first != 0 || pads[i].second != 0 || dilations[i] != 1;
  }
  if (!changes) return input;
  low.push_back(0);
  high.push_back(0);
  interior.push_back(0);
  Type element = type.getElementType();
  auto scalar_type = RankedTensorType::get({}, element);
  Value zero = arith::ConstantOp::create(rewriter, loc, DenseElementsAttr::get(scalar_type, rewriter.getZeroAttr(element)));
  auto pad = PadOp::create(rewriter, loc, RankedTensorType::get(shape, element), input, zero, low, high, interior);
  return LowerNow(rewriter, pad);
}

LogicalResult LowerConvolution(RewriterBase& rewriter, Operation* op) {
  if (failed(RequireStatic(op))) return failure();
  auto conv = cast<ConvolutionOp>(op);
  Location loc = op->getLoc();
  ConvDimensionNumbersAttr dims = conv.getDimensionNumbers();
  RankedTensorType result = conv.getType();
  Type element = result.getElementType();
  for (Type type : {getElementTypeOrSelf(conv.getLhs().getType()), getElementTypeOrSelf(conv.getRhs().getType()), element}) {
    if (!type.isSignlessIntOrFloat() || (isa<FloatType>(type) != isa<FloatType>(element) && isa<FloatType>(type))) {
      return op->emitError() << "'stablehlo.convolution' of " << type << " into " << element << " is not lowered yet";
    }
  }
  auto k = static_cast<int64_t>(dims.getInputSpatialDimensions().size());
  int64_t groups = static_cast<int64_t>(conv.getFeatureGroupCount());
  int64_t batch_groups = static_cast<int64_t>(conv.getBatchGroupCount());
  int64_t all_groups = groups * batch_groups;

  FailureOr<Value> canonical_input = CanonicalInput(rewriter, conv);
  if (failed(canonical_input)) return failure();
  rewriter.setInsertionPoint(op);
  auto input_type = cast<RankedTensorType>(canonical_input->getType());
  // [B, batch/B, spatial..., G, C/G]
  SmallVector<int64_t> input_shape = {batch_groups, input_type.getDimSize(0) / batch_groups};
  for (int64_t i = 0; i < k; ++i) input_shape.push_back(input_type.getDimSize(i + 1));
  input_shape.push_back(groups);
  input_shape.push_back(input_type.getDimSize(k + 1) / groups);
  SmallVector<ReassociationIndices> input_groups = {{0, 1}};
  for (int64_t i = 0; i < k; ++i) input_groups.push_back({i + 2});
  input_groups.push_back({k + 2, k + 3});
  Value input = tensor::ExpandShapeOp::create(rewriter, loc, RankedTensorType::get(input_shape, input_type.getElementType()),
                                              *canonical_input, input_groups);

  // [spatial..., in, B*G, out/(B*G)]
  SmallVector<int64_t> kernel_permutation(dims.getKernelSpatialDimensions());
  kernel_permutation.push_back(dims.getKernelInputFeatureDimension());
  kernel_permutation.push_back(dims.getKernelOutputFeatureDimension());
  Value kernel_canonical = Transpose(rewriter, loc, conv.getRhs(), kernel_permutation);
  // Reversed windows read the kernel reversed (an index map k - 1 - w would make the
  // generic's loops not recoverable from its operands' shapes).
  SmallVector<bool> reversals = conv.getReversals();
  SmallVector<int64_t> reversed;
  for (int64_t i = 0; i < k; ++i) {
    if (reversals[i]) reversed.push_back(i);
  }
  if (!reversed.empty()) {
    auto reverse = ReverseOp::create(rewriter, loc, kernel_canonical.getType(), kernel_canonical, reversed);
    FailureOr<Value> lowered = LowerNow(rewriter, reverse);
    if (failed(lowered)) return failure();
    kernel_canonical = *lowered;
    rewriter.setInsertionPoint(op);
  }
  auto kernel_type = cast<RankedTensorType>(kernel_canonical.getType());
  SmallVector<int64_t> kernel_shape(kernel_type.getShape().drop_back());
  int64_t out_features = kernel_type.getDimSize(k + 1);
  kernel_shape.push_back(all_groups);
  kernel_shape.push_back(out_features / all_groups);
  Value kernel = tensor::ExpandShapeOp::create(rewriter, loc,
                                               RankedTensorType::get(kernel_shape, kernel_type.getElementType()),
                                               kernel_canonical, PairAt(k + 2, k + 1));

  // [batch/B, spatial..., B*G, out/(B*G)]
  SmallVector<int64_t> output_shape = {result.getDimSize(dims.getOutputBatchDimension())};
  for (int64_t d : dims.getOutputSpatialDimensions()) output_shape.push_back(result.getDimSize(d));
  output_shape.push_back(all_groups);
  output_shape.push_back(out_features / all_groups);
  auto output_type = RankedTensorType::get(output_shape, element);
  Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
  Value init = tensor::EmptyOp::create(rewriter, loc, output_shape, element);
  init = linalg::FillOp::create(rewriter, loc, zero, init).getResult(0);

  // Loops: n, output spatial (k), g, og, window (k), c.
  MLIRContext* context = rewriter.getContext();
  int64_t loops = 2 * k + 4;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  AffineExpr n = d(0), g = d(k + 1), og = d(k + 2), c = d(2 * k + 3);
  AffineExpr none = getAffineConstantExpr(0, context);
  SmallVector<int64_t> strides = conv.getStrides(), dilations = conv.getRhsDilations();
  SmallVector<AffineExpr> input_exprs = {batch_groups > 1 ? g : none, n};
  SmallVector<AffineExpr> kernel_exprs, output_exprs = {n};
  for (int64_t i = 0; i < k; ++i) {
    AffineExpr window = d(k + 3 + i);
    input_exprs.push_back(d(1 + i) * strides[i] + window * dilations[i]);
    kernel_exprs.push_back(window);
    output_exprs.push_back(d(1 + i));
  }
  input_exprs.append({groups > 1 ? g : none, c});
  kernel_exprs.append({c, g, og});
  output_exprs.append({g, og});
  SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, input_exprs, context),
                                 AffineMap::get(loops, 0, kernel_exprs, context),
                                 AffineMap::get(loops, 0, output_exprs, context)};
  SmallVector<utils::IteratorType> iterators(k + 3, utils::IteratorType::parallel);
  iterators.append(k + 1, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{output_type}, ValueRange{input, kernel}, ValueRange{init}, maps, iterators,
      [&](OpBuilder& b, Location l, ValueRange args) {
        Value x = Widen(b, l, args[0], element), w = Widen(b, l, args[1], element);
        Value sum = isa<FloatType>(element)
                        ? Value(arith::AddFOp::create(b, l, args[2], arith::MulFOp::create(b, l, x, w)))
                        : Value(arith::AddIOp::create(b, l, args[2], arith::MulIOp::create(b, l, x, w)));
        linalg::YieldOp::create(b, l, sum);
      });

  // [batch, spatial..., out] in the result's layout.
  SmallVector<int64_t> collapsed_shape(output_shape.begin(), output_shape.end() - 2);
  collapsed_shape.push_back(out_features);
  Value collapsed = tensor::CollapseShapeOp::create(rewriter, loc, RankedTensorType::get(collapsed_shape, element),
                                                    generic.getResult(0), PairAt(k + 3, k + 1));
  SmallVector<int64_t> canonical = {dims.getOutputBatchDimension()};
  llvm::append_range(canonical, dims.getOutputSpatialDimensions());
  canonical.push_back(dims.getOutputFeatureDimension());
  SmallVector<int64_t> to_result(k + 2);
  for (auto [i, dim] : llvm::enumerate(canonical)) to_result[dim] = static_cast<int64_t>(i);
  rewriter.replaceOp(op, Transpose(rewriter, loc, collapsed, to_result));
  return success();
}

}  // namespace

void AddConvolutionLowerings(LoweringTable& table) { table["stablehlo.convolution"] = LowerConvolution; }

}  // namespace kiln::compiler::stablehlo
