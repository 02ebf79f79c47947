// kiln-lower-sub-byte-bindings: dispatch functions' bindings of sub-byte elements become
// bindings of i8 as the tensors are stored (compiler/utils/SubByteStorage.h): their packed
// bytes, or one element per byte.
#include "compiler/dialect/KilnDialect.h"
#include "compiler/transforms/Passes.h"
#include "compiler/utils/PackedSubByteAccess.h"
#include "compiler/utils/SubByteStorage.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_LOWERSUBBYTEBINDINGS
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

// Makes the block argument `arg`, now a byte, stand for the sub-byte value `narrow` it
// stores: its uses take that value, truncated (and bitcast) where the block starts.
void NarrowBlockArgument(IRRewriter& rewriter, BlockArgument arg, Type narrow, Location loc) {
  SmallVector<OpOperand*> uses = llvm::map_to_vector(arg.getUses(), [](OpOperand& use) { return &use; });
  if (uses.empty()) return;
  rewriter.setInsertionPointToStart(arg.getOwner());
  Value value = ByteToSubByte(rewriter, loc, arg, narrow);
  for (OpOperand* use : uses) rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(value); });
}

// `op` as a linalg.generic: itself, or a named linalg op generalized (not contractions and
// convolutions: their code generation matches them by name). Null otherwise.
linalg::GenericOp AsGeneric(IRRewriter& rewriter, Operation* op) {
  if (auto generic = dyn_cast_or_null<linalg::GenericOp>(op)) return generic;
  auto named = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!named || !named.hasPureTensorSemantics() || linalg::isaContractionOpInterface(named) ||
      linalg::isaConvolutionOpInterface(named)) {
    return {};
  }
  bool root = named->hasAttr(kRootAttr);
  rewriter.setInsertionPoint(named);
  FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(rewriter, named);
  if (failed(generic)) return {};
  if (root) (*generic)->setAttr(kRootAttr, rewriter.getUnitAttr());
  return *generic;
}

// Makes `op` read its input `operand`, now bytes (the same shape, i8), as such: the
// operand's block argument becomes a byte, narrowed where the body starts.
void ReadInputAsBytes(IRRewriter& rewriter, linalg::GenericOp op, OpOperand& operand) {
  BlockArgument arg = op.getMatchingBlockArgument(&operand);
  Type narrow = arg.getType();
  rewriter.modifyOpInPlace(op, [&] { arg.setType(rewriter.getI8Type()); });
  NarrowBlockArgument(rewriter, arg, narrow, op.getLoc());
}

// Makes `op` compute its result `result` (sub-byte elements) as bytes: its destination
// becomes bytes (an empty tensor stays empty, a fill fills the widened value), its block
// argument a byte narrowed where the body starts, and the value it yields is widened.
LogicalResult WriteResultAsBytes(IRRewriter& rewriter, linalg::GenericOp op, OpResult result) {
  OpOperand* init = op.getDpsInitOperand(result.getResultNumber());
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value bytes_init;
  if (auto empty = init->get().getDefiningOp<tensor::EmptyOp>()) {
    bytes_init = tensor::EmptyOp::create(rewriter, loc, empty.getMixedSizes(), rewriter.getI8Type());
  } else if (auto fill = init->get().getDefiningOp<linalg::FillOp>(); fill && fill.hasPureTensorSemantics()) {
    auto empty_sizes = tensor::getMixedSizes(rewriter, loc, fill.getOutputs()[0]);
    Value empty = tensor::EmptyOp::create(rewriter, loc, empty_sizes, rewriter.getI8Type());
    Value value = SubByteToByte(rewriter, loc, fill.getInputs()[0]);
    bytes_init = linalg::FillOp::create(rewriter, loc, value, empty).getResult(0);
  } else {
    return op.emitError() << "computes sub-byte elements for a dispatch result into a destination kiln cannot "
                             "make bytes (only tensor.empty and linalg.fill are)";
  }
  BlockArgument arg = op.getMatchingBlockArgument(init);
  Type narrow = arg.getType();
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  OpOperand& yielded = yield->getOpOperand(result.getResultNumber());
  rewriter.setInsertionPoint(yield);
  Value widened = SubByteToByte(rewriter, loc, yielded.get());
  rewriter.modifyOpInPlace(op, [&] {
    init->set(bytes_init);
    arg.setType(rewriter.getI8Type());
    yielded.set(widened);
    result.setType(cast<RankedTensorType>(result.getType()).clone(rewriter.getI8Type()));
  });
  NarrowBlockArgument(rewriter, arg, narrow, loc);
  return success();
}

// One element per byte ------------------------------------------------------------------

LogicalResult Widen(IRRewriter& rewriter, BlockArgument binding) {
  auto type = cast<MemRefType>(binding.getType());
  Type narrow = type.getElementType();
  auto wide = MemRefType::get(type.getShape(), rewriter.getI8Type(), type.getLayout(), type.getMemorySpace());
  auto refuse = [&](Operation* op, StringRef why) {
    return op->emitError() << "a dispatch binding of " << narrow << " elements: " << why
                           << " (kiln stores sub-byte elements one per byte)";
  };
  SmallVector<Operation*> users = llvm::to_vector(binding.getUsers());
  for (Operation* user : users) {
    if (!isa<bufferization::ToTensorOp, bufferization::MaterializeInDestinationOp>(user)) {
      return refuse(user, "used by an op that is not a tensor read or write");
    }
  }
  binding.setType(wide);
  for (Operation* user : users) {
    if (auto read = dyn_cast<bufferization::ToTensorOp>(user)) {
      Value bytes = read.getResult();
      bytes.setType(cast<RankedTensorType>(bytes.getType()).clone(rewriter.getI8Type()));
      // Every reader becomes a generic that reads bytes.
      llvm::SetVector<Operation*> owners;
      for (Operation* owner : bytes.getUsers()) owners.insert(owner);
      for (Operation* owner : owners) {
        linalg::GenericOp reader = AsGeneric(rewriter, owner);
        if (!reader) return refuse(owner, "read by an op that cannot read bytes instead");
        for (OpOperand& operand : reader->getOpOperands()) {
          if (operand.get() != bytes) continue;
          if (!reader.isDpsInput(&operand)) return refuse(reader, "updated in place");
          ReadInputAsBytes(rewriter, reader, operand);
        }
      }
      continue;
    }
    auto write = cast<bufferization::MaterializeInDestinationOp>(user);
    auto result = dyn_cast<OpResult>(write.getSource());
    linalg::GenericOp writer = result && result.hasOneUse() ? AsGeneric(rewriter, result.getOwner()) : nullptr;
    if (!writer) return refuse(write, "written from a value that no single generic computes");
    if (failed(WriteResultAsBytes(rewriter, writer, writer->getResult(result.getResultNumber())))) return failure();
  }
  return success();
}


// Packed ---------------------------------------------------------------------------------

// What the packed bindings of one dispatch function ask of its generics: the operands that
// become bytes, and the writes whose sources are their results.
struct PackedUses {
  llvm::MapVector<Operation*, SmallVector<PackedOperand>> operands;
  SmallVector<std::pair<bufferization::MaterializeInDestinationOp, unsigned>> writes;  // write, result number
};

RankedTensorType BytesType(RankedTensorType logical) {
  return RankedTensorType::get(PackedByteShape(logical), IntegerType::get(logical.getContext(), 8));
}

class PackedBinding {
 public:
  PackedBinding(IRRewriter& rewriter, Type element, PackedUses& uses)
      : rewriter_(rewriter), element_(element), per_byte_(ElementsPerByte(element)), uses_(uses) {}

  // `bytes` now stands for a packed tensor of type `logical` (its users still treat it as
  // that): gives each user the bytes instead.
  LogicalResult Read(Value bytes, RankedTensorType logical) {
    SmallVector<Operation*> users = llvm::to_vector(bytes.getUsers());
    llvm::SmallPtrSet<Operation*, 4> seen;
    for (Operation* user : users) {
      if (!seen.insert(user).second) continue;
      if (failed(ReadBy(user, bytes, logical))) return failure();
    }
    return success();
  }

  // The generic computing `result` of `write` (into the packed binding) computes its bytes.
  LogicalResult Write(bufferization::MaterializeInDestinationOp write) {
    auto result = dyn_cast<OpResult>(write.getSource());
    linalg::GenericOp writer = result && result.hasOneUse() ? AsGeneric(rewriter_, result.getOwner()) : nullptr;
    if (!writer) return Refuse(write, "written from a value that no single generic computes");
    OpOperand* init = writer.getDpsInitOperand(result.getResultNumber());
    auto logical = cast<RankedTensorType>(init->get().getType());
    Location loc = writer.getLoc();
    rewriter_.setInsertionPoint(writer);
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter_, loc, init->get());
    sizes.back() = rewriter_.getIndexAttr(logical.getShape().back() / per_byte_);
    Value bytes = tensor::EmptyOp::create(rewriter_, loc, sizes, rewriter_.getI8Type());
    if (auto fill = init->get().getDefiningOp<linalg::FillOp>(); fill && fill.hasPureTensorSemantics()) {
      Value splat = PackedSplatByte(rewriter_, loc, fill.getInputs()[0]);
      bytes = linalg::FillOp::create(rewriter_, loc, splat, bytes).getResult(0);
    } else if (!init->get().getDefiningOp<tensor::EmptyOp>()) {
      return writer.emitError() << "computes packed sub-byte elements for a dispatch result into a destination kiln "
                                   "cannot make bytes (only tensor.empty and linalg.fill are)";
    }
    uses_.operands[writer].push_back({init->getOperandNumber(), bytes});
    uses_.writes.push_back({write, result.getResultNumber()});
    return success();
  }

 private:
  LogicalResult Refuse(Operation* op, StringRef why) {
    return op->emitError() << "a dispatch binding of packed " << element_ << " elements: " << why;
  }

  LogicalResult ReadBy(Operation* user, Value bytes, RankedTensorType logical) {
    Location loc = user->getLoc();
    rewriter_.setInsertionPoint(user);
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user)) return ReadSlice(slice, bytes);
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(user)) return ReadReshape(user, bytes);
    if (auto dim = dyn_cast<tensor::DimOp>(user)) {
      std::optional<int64_t> index = dim.getConstantIndex();
      if (!index) return Refuse(user, "its dimension is taken at a dynamic index");
      Value size = *index == logical.getRank() - 1
                       ? arith::ConstantIndexOp::create(rewriter_, loc, logical.getShape().back()).getResult()
                       : tensor::DimOp::create(rewriter_, loc, bytes, dim.getIndex()).getResult();
      rewriter_.replaceOp(dim, size);
      return success();
    }
    if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
      SmallVector<Value> indices(extract.getIndices());
      Value per_byte = arith::ConstantIndexOp::create(rewriter_, loc, per_byte_);
      Value inner = indices.back();
      indices.back() = arith::DivUIOp::create(rewriter_, loc, inner, per_byte);
      Value position = arith::RemUIOp::create(rewriter_, loc, inner, per_byte);
      Value bits = arith::MulIOp::create(rewriter_, loc, position,
                                         arith::ConstantIndexOp::create(rewriter_, loc, element_.getIntOrFloatBitWidth()));
      Value shift = arith::IndexCastOp::create(rewriter_, loc, rewriter_.getI8Type(), bits);
      Value byte = tensor::ExtractOp::create(rewriter_, loc, bytes, indices);
      rewriter_.replaceOp(extract, ExtractPackedElement(rewriter_, loc, byte, shift, element_));
      return success();
    }
    linalg::GenericOp reader = AsGeneric(rewriter_, user);
    if (!reader) return Refuse(user, "read by an op that cannot read bytes instead");
    for (OpOperand& operand : reader->getOpOperands()) {
      if (operand.get() != bytes) continue;
      if (!reader.isDpsInput(&operand)) return Refuse(reader, "updated in place");
      uses_.operands[reader].push_back({operand.getOperandNumber(), bytes});
    }
    return success();
  }

  // A slice whose innermost offset and size are whole bytes (stride 1) slices the bytes.
  LogicalResult ReadSlice(tensor::ExtractSliceOp slice, Value bytes) {
    auto logical = slice.getResultType();
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets(), sizes = slice.getMixedSizes(),
                              strides = slice.getMixedStrides();
    std::optional<int64_t> offset = getConstantIntValue(offsets.back()), size = getConstantIntValue(sizes.back()),
                           stride = getConstantIntValue(strides.back());
    if (!offset || !size || !stride || *stride != 1 || *offset % per_byte_ || *size % per_byte_ ||
        !IsPackedSubByte(logical) || logical.getShape().back() != *size) {
      return Refuse(slice, "sliced in its innermost dimension at other than whole bytes");
    }
    offsets.back() = rewriter_.getIndexAttr(*offset / per_byte_);
    sizes.back() = rewriter_.getIndexAttr(*size / per_byte_);
    Value sliced = tensor::ExtractSliceOp::create(rewriter_, slice.getLoc(), BytesType(logical), bytes, offsets, sizes,
                                                  strides);
    return Replace(slice, sliced, logical);
  }

  // A reshape between packed types keeps the innermost dimension's bytes.
  LogicalResult ReadReshape(Operation* reshape, Value bytes) {
    auto logical = cast<RankedTensorType>(reshape->getResult(0).getType());
    if (!IsPackedSubByte(logical)) return Refuse(reshape, "reshaped into rows that are not whole bytes");
    Value reshaped;
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(reshape)) {
      reshaped = tensor::CollapseShapeOp::create(rewriter_, reshape->getLoc(), BytesType(logical), bytes,
                                                 collapse.getReassociationIndices());
    } else {
      auto expand = cast<tensor::ExpandShapeOp>(reshape);
      SmallVector<OpFoldResult> shape = expand.getMixedOutputShape();
      shape.back() = rewriter_.getIndexAttr(logical.getShape().back() / per_byte_);
      reshaped = tensor::ExpandShapeOp::create(rewriter_, reshape->getLoc(), BytesType(logical), bytes,
                                               expand.getReassociationIndices(), shape);
    }
    return Replace(reshape, reshaped, logical);
  }

  LogicalResult Replace(Operation* view, Value bytes, RankedTensorType logical) {
    rewriter_.replaceAllUsesWith(view->getResult(0), bytes);
    rewriter_.eraseOp(view);
    return Read(bytes, logical);
  }

  IRRewriter& rewriter_;
  Type element_;
  int64_t per_byte_;
  PackedUses& uses_;
};

LogicalResult Pack(IRRewriter& rewriter, BlockArgument binding, PackedUses& uses) {
  auto type = cast<MemRefType>(binding.getType());
  auto logical = RankedTensorType::get(type.getShape(), type.getElementType());
  PackedBinding packed(rewriter, type.getElementType(), uses);
  SmallVector<Operation*> users = llvm::to_vector(binding.getUsers());
  for (Operation* user : users) {
    if (!isa<bufferization::ToTensorOp, bufferization::MaterializeInDestinationOp>(user)) {
      return user->emitError() << "a dispatch binding of packed " << type.getElementType()
                               << " elements: used by an op that is not a tensor read or write";
    }
  }
  binding.setType(MemRefType::get(PackedByteShape(type), rewriter.getI8Type(), type.getLayout(),
                                  type.getMemorySpace()));
  for (Operation* user : users) {
    if (auto read = dyn_cast<bufferization::ToTensorOp>(user)) {
      Value bytes = read.getResult();
      bytes.setType(BytesType(logical));
      if (failed(packed.Read(bytes, logical))) return failure();
    } else if (failed(packed.Write(cast<bufferization::MaterializeInDestinationOp>(user)))) {
      return failure();
    }
  }
  return success();
}

// Rebuilds each generic `uses` names over its bytes, and writes the bytes it computes.
LogicalResult RewritePackedUses(IRRewriter& rewriter, PackedUses& uses) {
  llvm::DenseMap<Operation*, Operation*> rebuilt_of;
  for (auto& [op, operands] : uses.operands) {
    auto generic = cast<linalg::GenericOp>(op);
    FailureOr<linalg::GenericOp> rebuilt = RewriteOverPackedBytes(rewriter, generic, operands);
    if (failed(rebuilt)) return failure();
    rebuilt_of[op] = *rebuilt;
  }
  for (auto [write, result_number] : uses.writes) {
    Operation* writer = write.getSource().getDefiningOp();
    Value bytes = rebuilt_of.lookup(writer)->getResult(result_number);
    rewriter.modifyOpInPlace(write, [&] { write.getSourceMutable().set(bytes); });
  }
  for (auto& [op, operands] : uses.operands) {
    if (op->use_empty()) rewriter.eraseOp(op);
  }
  return success();
}

// A rebuilt generic whose result was expanded to split a loop (PackedSubByteAccess.h) and
// collapsed back only to be written to a binding writes into the expanded view of the
// binding instead: no temporary buffer and copy (a GPU kernel could not allocate one).
void WriteCollapsedResultsInPlace(IRRewriter& rewriter, func::FuncOp fn) {
  SmallVector<bufferization::MaterializeInDestinationOp> writes;
  fn.walk([&](bufferization::MaterializeInDestinationOp write) { writes.push_back(write); });
  for (bufferization::MaterializeInDestinationOp write : writes) {
    auto collapse = write.getSource().getDefiningOp<tensor::CollapseShapeOp>();
    auto destination = dyn_cast<TypedValue<MemRefType>>(write.getDest());
    if (!collapse || !collapse->hasOneUse() || !destination || !collapse.getSrcType().hasStaticShape() ||
        !destination.getType().getLayout().isIdentity()) {
      continue;
    }
    rewriter.setInsertionPoint(write);
    auto expanded_type =
        MemRefType::get(collapse.getSrcType().getShape(), destination.getType().getElementType());
    Value view = memref::ExpandShapeOp::create(rewriter, write.getLoc(), expanded_type, destination,
                                               collapse.getReassociationIndices());
    auto replacement = bufferization::MaterializeInDestinationOp::create(rewriter, write.getLoc(), collapse.getSrc(),
                                                                          view);
    replacement.setRestrict(write.getRestrict());
    replacement.setWritable(write.getWritable());
    rewriter.eraseOp(write);
    rewriter.eraseOp(collapse);
  }
}

struct LowerSubByteBindingsPass : impl::LowerSubByteBindingsBase<LowerSubByteBindingsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (ModuleOp executables : getOperation().getOps<ModuleOp>()) {
      if (!executables->hasAttr(kExecutableAttr)) continue;
      for (func::FuncOp fn : executables.getOps<func::FuncOp>()) {
        if (fn.isExternal()) continue;
        bool changed = false;
        PackedUses packed;
        for (BlockArgument binding : fn.getArguments()) {
          if (!HasSubByteElements(binding.getType())) continue;
          if (IsPackedSubByte(binding.getType()) ? failed(Pack(rewriter, binding, packed))
                                                 : failed(Widen(rewriter, binding))) {
            return signalPassFailure();
          }
          changed = true;
        }
        if (!changed) continue;
        if (failed(RewritePackedUses(rewriter, packed))) return signalPassFailure();
        WriteCollapsedResultsInPlace(rewriter, fn);
        fn.setFunctionType(FunctionType::get(&getContext(), fn.getBody().getArgumentTypes(), fn.getResultTypes()));
        // Destinations replaced by bytes, and what only they used.
        for (Operation& op : llvm::make_early_inc_range(llvm::reverse(fn.getBody().front()))) {
          if (isOpTriviallyDead(&op)) rewriter.eraseOp(&op);
        }
      }
    }
  }
};

}  // namespace
}  // namespace kiln::compiler
