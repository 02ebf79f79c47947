// kiln-expand-sub-byte-bitcasts: flow.tensor.bitcast ops with sub-byte elements stored one
// per byte on a side, and reshapes between the two storages, become computations that
// unpack or pack bytes (compiler/utils/SubByteStorage.h).
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
#include "mlir/IR/IRMapping.h"
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

// An elementwise generic over `value` (a ranked tensor) into an empty tensor of its shape
// and `element`, yielding `convert` of each element.
Value MapElements(OpBuilder& b, Location loc, Value value, Type element,
                  llvm::function_ref<Value(OpBuilder&, Location, Value)> convert) {
  auto type = cast<RankedTensorType>(value.getType());
  Value init = tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, value), element);
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(), utils::IteratorType::parallel);
  return linalg::GenericOp::create(b, loc, init.getType(), ValueRange{value}, ValueRange{init},
                                   SmallVector<AffineMap>{identity, identity}, iterators,
                                   [&](OpBuilder& nb, Location nloc, ValueRange args) {
                                     linalg::YieldOp::create(nb, nloc, convert(nb, nloc, args[0]));
                                   })
      .getResult(0);
}

// Sub-byte `value` as bytes of its shape, one element each (its bits zero-extended): the
// form in which its elements are reshaped and packed without a sub-byte tensor between
// storages.
Value ElementBytes(OpBuilder& b, Location loc, Value value) {
  return MapElements(b, loc, value, b.getI8Type(), [](OpBuilder& nb, Location nloc, Value v) {
    return SubByteToByte(nb, nloc, v);
  });
}

// `bytes` (one element each) as sub-byte elements of `element`, in the same shape.
Value FromElementBytes(OpBuilder& b, Location loc, Value bytes, Type element) {
  return MapElements(b, loc, bytes, element, [&](OpBuilder& nb, Location nloc, Value v) {
    return ByteToSubByte(nb, nloc, v, element);
  });
}

// `bytes` (tensor<N x i8>) as the N * 8 / w elements (w bits wide) that they pack, the
// first in each byte's low bits, one element a byte (tensor<N * 8 / w x i8>).
Value Unpack(OpBuilder& b, Location loc, Value bytes, int64_t width) {
  int64_t per_byte = 8 / width;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, bytes);
  sizes.push_back(b.getIndexAttr(per_byte));
  Value init = tensor::EmptyOp::create(b, loc, sizes, b.getI8Type());
  MLIRContext* ctx = b.getContext();
  AffineMap byte_map = ByteOfPosition(ctx);
  SmallVector<AffineMap> maps = {byte_map, AffineMap::getMultiDimIdentityMap(2, ctx)};
  SmallVector<utils::IteratorType> iterators(2, utils::IteratorType::parallel);
  auto unpack = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{bytes}, ValueRange{init}, maps, iterators,
      [&](OpBuilder& nb, Location nloc, ValueRange args) {
        Value shift = BitOffsetInByte(nb, nloc, width);
        Value shifted = arith::ShRUIOp::create(nb, nloc, args[0], shift);
        Value mask = arith::ConstantIntOp::create(nb, nloc, nb.getI8Type(), (1 << width) - 1);
        linalg::YieldOp::create(nb, nloc, arith::AndIOp::create(nb, nloc, shifted, mask).getResult());
      });
  ReassociationIndices both = {0, 1};
  return tensor::CollapseShapeOp::create(b, loc, unpack.getResult(0), ArrayRef<ReassociationIndices>{both});
}

// `elements` (tensor<K x i8>, one element of w bits a byte, K * w a multiple of 8) packed
// into K * w / 8 bytes, the first element in each byte's low bits.
Value Pack(OpBuilder& b, Location loc, Value elements, int64_t width) {
  int64_t per_byte = 8 / width;
  OpFoldResult count = tensor::getMixedSize(b, loc, elements, 0);
  OpFoldResult byte_size;
  auto grouped_type = RankedTensorType::get({ShapedType::kDynamic, per_byte}, b.getI8Type());
  if (std::optional<int64_t> static_count = getConstantIntValue(count)) {
    byte_size = b.getIndexAttr(*static_count / per_byte);
    grouped_type = RankedTensorType::get({*static_count / per_byte, per_byte}, b.getI8Type());
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
        Value placed = arith::ShLIOp::create(nb, nloc, args[0], shift);
        linalg::YieldOp::create(nb, nloc, arith::OrIOp::create(nb, nloc, args[1], placed).getResult());
      });
  return pack.getResult(0);
}

// A 1-D i8 view of `value` (byte-sized elements, or packed sub-byte ones) through a
// flow.tensor.bitcast on the host.
Value BytesOf(OpBuilder& b, Location loc, Value value, ValueRange dynamic_dims) {
  auto type = cast<RankedTensorType>(value.getType());
  auto bytes_type = RankedTensorType::get({ShapedType::kDynamic}, b.getI8Type());
  if (std::optional<int64_t> bytes = StoredTensorBytes(type)) bytes_type = RankedTensorType::get({*bytes}, b.getI8Type());
  if (bytes_type == type) return value;
  SmallVector<Value> result_dims;
  if (!type.hasStaticShape()) {
    int64_t element_bytes = type.getElementTypeBitWidth() / 8;
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
                          << " (sub-byte elements in rows that are not whole bytes are stored one per byte): " << why;
  };
  if (sub_source && sub_result && source_element.getIntOrFloatBitWidth() != result_element.getIntOrFloatBitWidth()) {
    return fail("elements of different sub-byte widths");
  }
  if (sub_source && sub_result) {
    // The same width: each element's bits, one for one.
    Value flat = Flatten(rewriter, loc, ElementBytes(rewriter, loc, op.getSource()));
    Value shaped = Unflatten(rewriter, loc, flat, result_type.clone(rewriter.getI8Type()), op.getResultDims());
    rewriter.replaceOp(op, FromElementBytes(rewriter, loc, shaped, result_element));
    return success();
  }
  if (sub_result) {
    if (source_element.getIntOrFloatBitWidth() % 8 != 0) return fail("the source's elements are not whole bytes");
    Value bytes = BytesOf(rewriter, loc, op.getSource(), op.getSourceDims());
    Value elements = Unpack(rewriter, loc, bytes, result_element.getIntOrFloatBitWidth());
    Value shaped = Unflatten(rewriter, loc, elements, result_type.clone(rewriter.getI8Type()), op.getResultDims());
    rewriter.replaceOp(op, FromElementBytes(rewriter, loc, shaped, result_element));
    return success();
  }
  if (result_element.getIntOrFloatBitWidth() % 8 != 0) return fail("the result's elements are not whole bytes");
  int64_t width = source_element.getIntOrFloatBitWidth();
  if (source_type.hasStaticShape() && source_type.getNumElements() % (8 / width) != 0) {
    return fail("the source's elements do not fill whole bytes");
  }
  Value bytes = Pack(rewriter, loc, Flatten(rewriter, loc, ElementBytes(rewriter, loc, op.getSource())), width);
  if (result_element.isInteger(8)) {
    rewriter.replaceOp(op, Unflatten(rewriter, loc, bytes, result_type, op.getResultDims()));
    return success();
  }
  // Whole bytes of another type: the host reinterprets them.
  auto bytes_type = cast<RankedTensorType>(bytes.getType());
  SmallVector<Value> bytes_dims;
  if (bytes_type.isDynamicDim(0)) bytes_dims.push_back(tensor::DimOp::create(rewriter, loc, bytes, 0));
  rewriter.replaceOpWithNewOp<iree::TensorBitCastOp>(op, result_type, bytes, bytes_dims, op.getResultDims());
  return success();
}

// A reshape (or cast) whose source and result store their sub-byte elements differently
// (SubByteStorage.h): the same reshape of the elements as bytes, between conversions.
void ExpandReshape(IRRewriter& rewriter, Operation* op) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  Value bytes = ElementBytes(rewriter, loc, op->getOperand(0));
  IRMapping mapping;
  mapping.map(op->getOperand(0), bytes);
  Operation* reshaped = rewriter.clone(*op, mapping);
  auto result_type = cast<RankedTensorType>(op->getResult(0).getType());
  reshaped->getResult(0).setType(result_type.clone(rewriter.getI8Type()));
  rewriter.replaceOp(op, FromElementBytes(rewriter, loc, reshaped->getResult(0), result_type.getElementType()));
}

bool CrossesSubByteStorage(Operation* op) {
  if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::CastOp, tensor::ReshapeOp, iree::TensorReshapeOp>(
          op)) {
    return false;
  }
  Type source = op->getOperand(0).getType(), result = op->getResult(0).getType();
  return HasSubByteElements(source) && IsPackedSubByte(source) != IsPackedSubByte(result);
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
// (the caller's layout). Packed types are kiln's storage too; each argument of another
// (stored one element per byte) is viewed as bytes and unpacked where the function starts,
// each such result packed and viewed as sub-byte elements where it returns.
LogicalResult ConvertBoundary(IRRewriter& rewriter, func::FuncOp fn) {
  auto refuse = [&](StringRef what, size_t index, Type type) {
    return fn.emitError() << what << " " << index << " of '" << fn.getName() << "' is " << type
                          << ": its sub-byte elements do not fill whole bytes";
  };
  bool boundary = llvm::any_of(fn.getArgumentTypes(), HasByteStoredSubByteElements) ||
                  llvm::any_of(fn.getResultTypes(), HasByteStoredSubByteElements);
  if (!boundary) return success();
  if (!SymbolTable::symbolKnownUseEmpty(fn, fn->getParentOp())) {
    return fn.emitError() << "'" << fn.getName()
                          << "' takes or returns tensors of sub-byte elements whose rows are not whole bytes, "
                             "packed as a program's arguments and results are, and is also called inside the "
                             "program, where they are a byte each: make the called function private";
  }
  Block& entry = fn.getBody().front();
  for (BlockArgument arg : entry.getArguments()) {
    if (!HasByteStoredSubByteElements(arg.getType())) continue;
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
    Value unpacked = Unpack(rewriter, loc, bytes, type.getElementTypeBitWidth());
    Value shaped = Unflatten(rewriter, loc, unpacked, type.clone(rewriter.getI8Type()), dims);
    Value elements = FromElementBytes(rewriter, loc, shaped, type.getElementType());
    rewriter.replaceUsesWithIf(arg, elements, [&](OpOperand& use) {
      Operation* user = use.getOwner();
      return user != bytes && !(isa<tensor::DimOp>(user) && user->getBlock() == &entry &&
                                user->isBeforeInBlock(bytes));
    });
  }
  WalkResult walk = fn.walk([&](func::ReturnOp ret) {
    for (OpOperand& operand : ret->getOpOperands()) {
      if (!HasByteStoredSubByteElements(operand.get().getType())) continue;
      auto type = cast<RankedTensorType>(operand.get().getType());
      FailureOr<RankedTensorType> bytes_type = PackedBytesType(rewriter, type);
      if (failed(bytes_type)) return (void)refuse("result", operand.getOperandNumber(), type), WalkResult::interrupt();
      Location loc = ret.getLoc();
      rewriter.setInsertionPoint(ret);
      SmallVector<Value> dims = tensor::createDynamicDimValues(rewriter, loc, operand.get());
      Value element_bytes = Flatten(rewriter, loc, ElementBytes(rewriter, loc, operand.get()));
      Value bytes = Pack(rewriter, loc, element_bytes, type.getElementTypeBitWidth());
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
// (IREE's order, a U8 tensor in safetensors). The parameter moves to a global of those
// bytes, @NAME__packed, and an initializer right after gives @NAME their elements through a
// flow.tensor.bitcast: a view when kiln stores the type packed too, else expanded below
// into an unpacking like any other.
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
    SmallVector<Operation*> reshapes;
    getOperation()->walk([&](Operation* op) {
      if (CrossesSubByteStorage(op)) reshapes.push_back(op);
      auto bitcast = dyn_cast<iree::TensorBitCastOp>(op);
      if (!bitcast || bitcast->hasAttr(kPackedBoundaryAttr)) return;
      if (HasByteStoredSubByteElements(bitcast.getSource().getType()) ||
          HasByteStoredSubByteElements(bitcast.getType())) {
        bitcasts.push_back(bitcast);
      }
    });
    for (iree::TensorBitCastOp op : bitcasts) {
      if (failed(Expand(rewriter, op))) return signalPassFailure();
    }
    for (Operation* op : reshapes) ExpandReshape(rewriter, op);
  }
};

}  // namespace
}  // namespace kiln::compiler
