// kiln-expand-sub-byte-bitcasts: flow.tensor.bitcast ops with sub-byte elements on a side
// become computations that unpack or pack bytes (compiler/utils/SubByteStorage.h).
#include "compiler/dialect/KilnDialect.h"
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/transforms/Passes.h"
#include "compiler/utils/SubByteStorage.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_EXPANDSUBBYTEBITCASTS
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

Value Index(OpBuilder& b, Location loc, int64_t value) { return arith::ConstantIndexOp::create(b, loc, value); }

// The number of elements of `value` (a ranked tensor) as an index value.
Value ElementCount(OpBuilder& b, Location loc, Value value) {
  Value count = Index(b, loc, 1);
  for (OpFoldResult size : tensor::getMixedSizes(b, loc, value)) {
    count = arith::MulIOp::create(b, loc, count, getValueOrCreateConstantIndexOp(b, loc, size));
  }
  return count;
}

// `value` as a 1-D tensor of its elements in order.
Value Flatten(OpBuilder& b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() == 1) return value;
  if (type.getRank() == 0) {
    auto one = RankedTensorType::get({1}, type.getElementType());
    return tensor::ExpandShapeOp::create(b, loc, one, value, ArrayRef<ReassociationIndices>{});
  }
  ReassociationIndices all = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return tensor::CollapseShapeOp::create(b, loc, value, ArrayRef<ReassociationIndices>{all});
}

// `flat` (1-D) in the shape of `type`, whose dynamic sizes are `dynamic_sizes`.
Value Unflatten(OpBuilder& b, Location loc, Value flat, RankedTensorType type, ValueRange dynamic_sizes) {
  if (type.getRank() == 1) {
    if (flat.getType() == type) return flat;
    return tensor::CastOp::create(b, loc, type, flat);
  }
  if (type.getRank() == 0) return tensor::CollapseShapeOp::create(b, loc, type, flat, ArrayRef<ReassociationIndices>{});
  SmallVector<OpFoldResult> sizes;
  size_t next = 0;
  for (int64_t size : type.getShape()) {
    sizes.push_back(ShapedType::isDynamic(size) ? OpFoldResult(dynamic_sizes[next++]) : b.getIndexAttr(size));
  }
  ReassociationIndices all = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return tensor::ExpandShapeOp::create(b, loc, type, flat, ArrayRef<ReassociationIndices>{all}, sizes);
}

// Inside a generic over (byte, position in the byte): where the element at this position
// starts in its byte, as an i8 shift amount.
Value BitOffsetInByte(OpBuilder& b, Location loc, int64_t width) {
  Value position = linalg::IndexOp::create(b, loc, 1);
  return arith::IndexCastOp::create(b, loc, b.getI8Type(), arith::MulIOp::create(b, loc, position, Index(b, loc, width)));
}

// The byte view of a packed tensor: (byte, position) -> byte.
AffineMap ByteOfPosition(MLIRContext* ctx) { return AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx); }

// `bytes` (tensor<N x i8>) as the N * 8 / w elements of `element` (w bits wide) that they
// pack, the first in each byte's low bits.
Value Unpack(OpBuilder& b, Location loc, Value bytes, Type element) {
  int64_t width = element.getIntOrFloatBitWidth(), per_byte = 8 / width;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, bytes);
  sizes.push_back(b.getIndexAttr(per_byte));
  Value init = tensor::EmptyOp::create(b, loc, sizes, element);
  MLIRContext* ctx = b.getContext();
  AffineMap byte_map = ByteOfPosition(ctx);
  SmallVector<AffineMap> maps = {byte_map, AffineMap::getMultiDimIdentityMap(2, ctx)};
  SmallVector<utils::IteratorType> iterators(2, utils::IteratorType::parallel);
  auto unpack = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{bytes}, ValueRange{init}, maps, iterators,
      [&](OpBuilder& nb, Location nloc, ValueRange args) {
        Value shift = BitOffsetInByte(nb, nloc, width);
        Value shifted = arith::ShRUIOp::create(nb, nloc, args[0], shift);
        linalg::YieldOp::create(nb, nloc, ByteToSubByte(nb, nloc, shifted, element));
      });
  ReassociationIndices both = {0, 1};
  return tensor::CollapseShapeOp::create(b, loc, unpack.getResult(0), ArrayRef<ReassociationIndices>{both});
}

// `elements` (tensor<K x E>, E w bits wide, K * w a multiple of 8) packed into K * w / 8
// bytes, the first element in each byte's low bits.
Value Pack(OpBuilder& b, Location loc, Value elements) {
  Type element = cast<RankedTensorType>(elements.getType()).getElementType();
  int64_t width = element.getIntOrFloatBitWidth(), per_byte = 8 / width;
  OpFoldResult count = tensor::getMixedSize(b, loc, elements, 0);
  OpFoldResult byte_size;
  auto grouped_type = RankedTensorType::get({ShapedType::kDynamic, per_byte}, element);
  if (std::optional<int64_t> static_count = getConstantIntValue(count)) {
    byte_size = b.getIndexAttr(*static_count / per_byte);
    grouped_type = RankedTensorType::get({*static_count / per_byte, per_byte}, element);
  } else {
    byte_size = arith::DivUIOp::create(b, loc, cast<Value>(count), Index(b, loc, per_byte)).getResult();
  }
  ReassociationIndices both = {0, 1};
  Value grouped = tensor::ExpandShapeOp::create(b, loc, grouped_type, elements, ArrayRef<ReassociationIndices>{both},
                                                SmallVector<OpFoldResult>{byte_size, b.getIndexAttr(per_byte)});
  Value empty = tensor::EmptyOp::create(b, loc, SmallVector<OpFoldResult>{byte_size}, b.getI8Type());
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0);
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  MLIRContext* ctx = b.getContext();
  AffineMap byte_map = ByteOfPosition(ctx);
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(2, ctx), byte_map};
  SmallVector<utils::IteratorType> iterators = {utils::IteratorType::parallel, utils::IteratorType::reduction};
  auto pack = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{grouped}, ValueRange{init}, maps, iterators,
      [&](OpBuilder& nb, Location nloc, ValueRange args) {
        Value shift = BitOffsetInByte(nb, nloc, width);
        Value bits = SubByteToByte(nb, nloc, args[0]);
        Value placed = arith::ShLIOp::create(nb, nloc, bits, shift);
        linalg::YieldOp::create(nb, nloc, arith::OrIOp::create(nb, nloc, args[1], placed).getResult());
      });
  return pack.getResult(0);
}

// A 1-D i8 view of `value` (byte-sized elements) through a flow.tensor.bitcast on the host.
Value BytesOf(OpBuilder& b, Location loc, Value value, ValueRange dynamic_dims) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t element_bytes = type.getElementTypeBitWidth() / 8;
  auto bytes_type = RankedTensorType::get({ShapedType::kDynamic}, b.getI8Type());
  if (type.hasStaticShape()) bytes_type = RankedTensorType::get({type.getNumElements() * element_bytes}, b.getI8Type());
  if (bytes_type == type) return value;
  SmallVector<Value> result_dims;
  if (!type.hasStaticShape()) {
    result_dims.push_back(arith::MulIOp::create(b, loc, ElementCount(b, loc, value), Index(b, loc, element_bytes)));
  }
  return iree::TensorBitCastOp::create(b, loc, bytes_type, value, dynamic_dims, result_dims);
}

LogicalResult Expand(IRRewriter& rewriter, iree::TensorBitCastOp op) {
  auto source_type = cast<RankedTensorType>(op.getSource().getType());
  auto result_type = cast<RankedTensorType>(op.getType());
  Type source_element = source_type.getElementType(), result_element = result_type.getElementType();
  bool sub_source = IsSubByteElement(source_element), sub_result = IsSubByteElement(result_element);
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto fail = [&](StringRef why) {
    return op.emitError() << "cannot reinterpret " << source_type << " as " << result_type
                          << " (sub-byte elements are stored one per byte): " << why;
  };
  Value flat_result;
  if (sub_source && sub_result) {
    if (source_element.getIntOrFloatBitWidth() != result_element.getIntOrFloatBitWidth()) {
      return fail("elements of different sub-byte widths");
    }
    // Same width: each element's bits, one for one.
    Value flat = Flatten(rewriter, loc, op.getSource());
    Value init = tensor::EmptyOp::create(rewriter, loc, tensor::getMixedSizes(rewriter, loc, flat), result_element);
    AffineMap identity = rewriter.getMultiDimIdentityMap(1);
    flat_result =
        linalg::GenericOp::create(rewriter, loc, init.getType(), ValueRange{flat}, ValueRange{init},
                                  SmallVector<AffineMap>{identity, identity},
                                  SmallVector<utils::IteratorType>{utils::IteratorType::parallel},
                                  [&](OpBuilder& b, Location nloc, ValueRange args) {
                                    Value bits = SubByteBits(b, nloc, args[0]);
                                    linalg::YieldOp::create(b, nloc, FromSubByteBits(b, nloc, bits, result_element));
                                  })
            .getResult(0);
  } else if (sub_result) {
    if (source_element.getIntOrFloatBitWidth() % 8 != 0) return fail("the source's elements are not whole bytes");
    Value bytes = BytesOf(rewriter, loc, op.getSource(), op.getSourceDims());
    flat_result = Unpack(rewriter, loc, bytes, result_element);
  } else {
    if (result_element.getIntOrFloatBitWidth() % 8 != 0) return fail("the result's elements are not whole bytes");
    int64_t per_byte = 8 / source_element.getIntOrFloatBitWidth();
    if (source_type.hasStaticShape() && source_type.getNumElements() % per_byte != 0) {
      return fail("the source's elements do not fill whole bytes");
    }
    Value bytes = Pack(rewriter, loc, Flatten(rewriter, loc, op.getSource()));
    if (result_element.isInteger(8)) {
      flat_result = bytes;
    } else {
      // Whole bytes of another type: the host reinterprets them.
      auto bytes_type = cast<RankedTensorType>(bytes.getType());
      SmallVector<Value> bytes_dims;
      if (bytes_type.isDynamicDim(0)) bytes_dims.push_back(tensor::DimOp::create(rewriter, loc, bytes, 0));
      rewriter.replaceOpWithNewOp<iree::TensorBitCastOp>(op, result_type, bytes, bytes_dims, op.getResultDims());
      return success();
    }
  }
  rewriter.replaceOp(op, Unflatten(rewriter, loc, flat_result, result_type, op.getResultDims()));
  return success();
}

// The 1-D type of the bytes that pack `type`'s elements, or failure when they do not fill
// whole bytes.
FailureOr<RankedTensorType> PackedBytesType(Builder& b, RankedTensorType type) {
  int64_t per_byte = 8 / type.getElementTypeBitWidth();
  if (!type.hasStaticShape()) return RankedTensorType::get({ShapedType::kDynamic}, b.getI8Type());
  if (type.getNumElements() % per_byte != 0) return failure();
  return RankedTensorType::get({type.getNumElements() / per_byte}, b.getI8Type());
}

// A public function's arguments and results of sub-byte elements are packed buffer views
// (the caller's layout): each argument is viewed as bytes and unpacked where the function
// starts, each result packed and viewed as sub-byte elements where it returns.
LogicalResult ConvertBoundary(IRRewriter& rewriter, func::FuncOp fn) {
  auto refuse = [&](StringRef what, size_t index, Type type) {
    return fn.emitError() << what << " " << index << " of '" << fn.getName() << "' is " << type
                          << ": its sub-byte elements do not fill whole bytes";
  };
  bool boundary = llvm::any_of(fn.getArgumentTypes(), HasSubByteElements) ||
                  llvm::any_of(fn.getResultTypes(), HasSubByteElements);
  if (!boundary) return success();
  if (!SymbolTable::symbolKnownUseEmpty(fn, fn->getParentOp())) {
    return fn.emitError() << "'" << fn.getName()
                          << "' takes or returns tensors of sub-byte elements, packed as a program's "
                             "arguments and results are, and is also called inside the program, where they are "
                             "a byte each: make the called function private";
  }
  Block& entry = fn.getBody().front();
  for (BlockArgument arg : entry.getArguments()) {
    if (!HasSubByteElements(arg.getType())) continue;
    auto type = cast<RankedTensorType>(arg.getType());
    FailureOr<RankedTensorType> bytes_type = PackedBytesType(rewriter, type);
    if (failed(bytes_type)) return refuse("argument", arg.getArgNumber(), type);
    Location loc = fn.getLoc();
    rewriter.setInsertionPointToStart(&entry);
    SmallVector<Value> dims = tensor::createDynamicDimValues(rewriter, loc, arg);
    SmallVector<Value> bytes_dims;
    if (bytes_type->isDynamicDim(0)) {
      Value count = ElementCount(rewriter, loc, arg);
      bytes_dims.push_back(
          arith::DivUIOp::create(rewriter, loc, count, Index(rewriter, loc, 8 / type.getElementTypeBitWidth())));
    }
    auto bytes = iree::TensorBitCastOp::create(rewriter, loc, *bytes_type, arg, dims, bytes_dims);
    bytes->setAttr(kPackedBoundaryAttr, rewriter.getUnitAttr());
    Value elements = Unflatten(rewriter, loc, Unpack(rewriter, loc, bytes, type.getElementType()), type, dims);
    rewriter.replaceUsesWithIf(arg, elements, [&](OpOperand& use) {
      Operation* user = use.getOwner();
      return user != bytes && !(isa<tensor::DimOp>(user) && user->getBlock() == &entry &&
                                user->isBeforeInBlock(bytes));
    });
  }
  WalkResult walk = fn.walk([&](func::ReturnOp ret) {
    for (OpOperand& operand : ret->getOpOperands()) {
      if (!HasSubByteElements(operand.get().getType())) continue;
      auto type = cast<RankedTensorType>(operand.get().getType());
      FailureOr<RankedTensorType> bytes_type = PackedBytesType(rewriter, type);
      if (failed(bytes_type)) return (void)refuse("result", operand.getOperandNumber(), type), WalkResult::interrupt();
      Location loc = ret.getLoc();
      rewriter.setInsertionPoint(ret);
      SmallVector<Value> dims = tensor::createDynamicDimValues(rewriter, loc, operand.get());
      Value bytes = Pack(rewriter, loc, Flatten(rewriter, loc, operand.get()));
      if (bytes.getType() != *bytes_type) bytes = tensor::CastOp::create(rewriter, loc, *bytes_type, bytes);
      SmallVector<Value> bytes_dims = tensor::createDynamicDimValues(rewriter, loc, bytes);
      auto view = iree::TensorBitCastOp::create(rewriter, loc, type, bytes, bytes_dims, dims);
      view->setAttr(kPackedBoundaryAttr, rewriter.getUnitAttr());
      rewriter.modifyOpInPlace(ret, [&] { operand.set(view); });
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

// The i8 tensor a parameter file holds for `type`'s packed elements: the same shape with
// the last dimension in bytes when its elements fill whole bytes (a [40, 64] i4 matrix is
// [40, 32] bytes, as a safetensors U8 tensor would say), else the 1-D bytes.
FailureOr<RankedTensorType> PackedParameterType(Builder& b, RankedTensorType type) {
  int64_t per_byte = 8 / type.getElementTypeBitWidth();
  if (!type.hasStaticShape()) return failure();
  if (type.getRank() > 0 && type.getShape().back() % per_byte == 0) {
    SmallVector<int64_t> shape(type.getShape());
    shape.back() /= per_byte;
    return RankedTensorType::get(shape, b.getI8Type());
  }
  return PackedBytesType(b, type);
}

// A global of sub-byte elements bound to a parameter: the file holds the packed bytes
// (IREE's order), kiln's buffers one element per byte. The parameter moves to a global of
// the packed bytes, @NAME__packed, and an initializer right after unpacks it into @NAME
// (a flow.tensor.bitcast, expanded below like any other).
LogicalResult UnpackSubByteParameters(IRRewriter& rewriter, ModuleOp module) {
  for (iree::GlobalOp global : llvm::make_early_inc_range(module.getOps<iree::GlobalOp>())) {
    auto type = dyn_cast<RankedTensorType>(global.getType());
    std::optional<Attribute> initial = global.getInitialValue();
    if (!type || !HasSubByteElements(type) || !initial) continue;
    std::optional<iree::NamedParameter> parameter = iree::AsNamedParameter(*initial);
    if (!parameter) continue;
    FailureOr<RankedTensorType> bytes_type = PackedParameterType(rewriter, type);
    if (failed(bytes_type)) {
      return global.emitError() << "binds a parameter to " << type
                                << ", whose sub-byte elements do not fill whole bytes (or whose shape is dynamic)";
    }
    MLIRContext* ctx = rewriter.getContext();
    Location loc = global.getLoc();
    std::string packed_name = (global.getSymName() + "__packed").str();
    rewriter.setInsertionPoint(global);
    auto packed = cast<iree::GlobalOp>(rewriter.clone(*global));
    packed.setSymName(packed_name);
    packed.setType(*bytes_type);
    packed.setPrivate();
    packed.setIsMutable(false);
    packed.setInitialValueAttr(iree::StreamNamedParameterAttr::get(
        ctx, rewriter.getStringAttr(parameter->scope), rewriter.getStringAttr(parameter->key),
        DictionaryAttr::get(ctx), *bytes_type));
    global.removeInitialValueAttr();
    rewriter.setInsertionPointAfter(global);
    auto init = func::FuncOp::create(rewriter, loc, ("__kiln_unpack_" + global.getSymName()).str(),
                                     rewriter.getFunctionType({}, {}));
    init.setPrivate();
    init->setAttr(kInitializerAttr, rewriter.getUnitAttr());
    rewriter.setInsertionPointToStart(init.addEntryBlock());
    Value bytes = iree::GlobalLoadOp::create(rewriter, loc, *bytes_type, FlatSymbolRefAttr::get(ctx, packed_name),
                                            /*is_immutable=*/UnitAttr());
    Value elements = iree::TensorBitCastOp::create(rewriter, loc, type, bytes, ValueRange{}, ValueRange{});
    iree::GlobalStoreOp::create(rewriter, loc, elements, global.getSymName());
    func::ReturnOp::create(rewriter, loc);
  }
  return success();
}

struct ExpandSubByteBitcastsPass : impl::ExpandSubByteBitcastsBase<ExpandSubByteBitcastsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(UnpackSubByteParameters(rewriter, getOperation()))) return signalPassFailure();
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isPublic() && !fn.isExternal() && failed(ConvertBoundary(rewriter, fn))) return signalPassFailure();
    }
    SmallVector<iree::TensorBitCastOp> bitcasts;
    getOperation()->walk([&](iree::TensorBitCastOp op) {
      if (op->hasAttr(kPackedBoundaryAttr)) return;
      if (HasSubByteElements(op.getSource().getType()) || HasSubByteElements(op.getType())) bitcasts.push_back(op);
    });
    for (iree::TensorBitCastOp op : bitcasts) {
      if (failed(Expand(rewriter, op))) return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler
