// kiln-widen-sub-byte-bindings: dispatch functions' bindings of sub-byte elements become
// bindings of i8, one element per byte (compiler/utils/SubByteStorage.h).
#include "compiler/dialect/KilnDialect.h"
#include "compiler/transforms/Passes.h"
#include "compiler/utils/SubByteStorage.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_WIDENSUBBYTEBINDINGS
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

struct WidenSubByteBindingsPass : impl::WidenSubByteBindingsBase<WidenSubByteBindingsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (ModuleOp executables : getOperation().getOps<ModuleOp>()) {
      if (!executables->hasAttr(kExecutableAttr)) continue;
      for (func::FuncOp fn : executables.getOps<func::FuncOp>()) {
        if (fn.isExternal()) continue;
        bool changed = false;
        for (BlockArgument binding : fn.getArguments()) {
          if (!HasSubByteElements(binding.getType())) continue;
          if (failed(Widen(rewriter, binding))) return signalPassFailure();
          changed = true;
        }
        if (!changed) continue;
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
