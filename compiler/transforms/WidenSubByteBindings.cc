// kiln-widen-sub-byte-bindings: dispatch functions' bindings of sub-byte elements become
// bindings of i8, one element per byte (compiler/utils/SubByteStorage.h).
#include "compiler/dialect/KilnDialect.h"
#include "compiler/transforms/Passes.h"
#include "compiler/utils/SubByteStorage.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_WIDENSUBBYTEBINDINGS
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

// An elementwise generic converting `value` to tensors of `element`: sub-byte elements
// to their bits zero-extended to a byte, or bytes truncated to sub-byte elements.
Value ConvertElements(OpBuilder& b, Location loc, Value value, Type element) {
  auto type = cast<RankedTensorType>(value.getType());
  // Sizes from the producer's destination when it has one: the producer may be fused into
  // this op, which must not then depend on the producer's result.
  Value sized = value;
  if (auto producer = value.getDefiningOp<DestinationStyleOpInterface>()) {
    sized = producer.getDpsInitOperand(cast<OpResult>(value).getResultNumber())->get();
  }
  Value init = tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, sized), element);
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(), utils::IteratorType::parallel);
  auto convert = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{value}, ValueRange{init}, SmallVector<AffineMap>{identity, identity},
      iterators, [&](OpBuilder& nb, Location nloc, ValueRange args) {
        Value in = args[0];
        Type from = in.getType();
        Value converted;
        if (IsSubByteElement(from)) {  // widen
          Type bits_type = nb.getIntegerType(from.getIntOrFloatBitWidth());
          Value bits = isa<IntegerType>(from) ? in : arith::BitcastOp::create(nb, nloc, bits_type, in);
          converted = arith::ExtUIOp::create(nb, nloc, element, bits);
        } else {  // narrow
          Type bits_type = nb.getIntegerType(element.getIntOrFloatBitWidth());
          Value bits = arith::TruncIOp::create(nb, nloc, bits_type, in);
          converted = isa<IntegerType>(element) ? bits : arith::BitcastOp::create(nb, nloc, element, bits);
        }
        linalg::YieldOp::create(nb, nloc, converted);
      });
  return convert.getResult(0);
}

// `op` as a linalg.generic: itself, or a named linalg op whose loops are all parallel
// generalized (named contractions stay: their code generation matches them by name).
linalg::GenericOp AsGeneric(IRRewriter& rewriter, Operation* op) {
  if (auto generic = dyn_cast_or_null<linalg::GenericOp>(op)) return generic;
  auto named = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!named || !named.hasPureTensorSemantics() || named.getNumLoops() != named.getNumParallelLoops()) return {};
  bool root = named->hasAttr(kRootAttr);
  FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(rewriter, named);
  if (failed(generic)) return {};
  if (root) (*generic)->setAttr(kRootAttr, rewriter.getUnitAttr());
  return *generic;
}

// Fuses the producer of `operand` into its consumer when both are (or become) elementwise-
// fusable generics, so that no tensor of sub-byte elements is left between them; the fused
// op is the dispatch's root when either was.
// Returns whether it fused.
bool FuseIntoConsumer(IRRewriter& rewriter, OpOperand& operand) {
  unsigned operand_number = operand.getOperandNumber();
  linalg::GenericOp consumer = AsGeneric(rewriter, operand.getOwner());  // may replace the owner
  if (!consumer) return false;
  OpOperand& fused_operand = consumer->getOpOperand(operand_number);
  linalg::GenericOp producer = AsGeneric(rewriter, fused_operand.get().getDefiningOp());
  if (!producer || !linalg::areElementwiseOpsFusable(&fused_operand)) return false;
  bool root = consumer->hasAttr(kRootAttr) || producer->hasAttr(kRootAttr);
  rewriter.setInsertionPoint(consumer);
  FailureOr<linalg::ElementwiseOpFusionResult> fused = linalg::fuseElementwiseOps(rewriter, &fused_operand);
  if (failed(fused)) return false;
  for (auto [original, replacement] : fused->replacements) {
    rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand& use) {
      return use.getOwner() != fused->fusedOp;
    });
  }
  if (root) {
    producer->removeAttr(kRootAttr);
    fused->fusedOp->setAttr(kRootAttr, rewriter.getUnitAttr());
  }
  // The producer may feed other consumers; dead ops go at the end of the pass.
  if (consumer->use_empty()) rewriter.eraseOp(consumer);
  return true;
}

LogicalResult Widen(IRRewriter& rewriter, func::FuncOp fn, BlockArgument binding) {
  auto type = cast<MemRefType>(binding.getType());
  Type narrow = type.getElementType();
  auto wide = MemRefType::get(type.getShape(), rewriter.getI8Type(), type.getLayout(), type.getMemorySpace());
  SmallVector<OpOperand*> uses = llvm::map_to_vector(binding.getUses(), [](OpOperand& use) { return &use; });
  for (OpOperand* use : uses) {
    Operation* user = use->getOwner();
    if (!isa<bufferization::ToTensorOp, bufferization::MaterializeInDestinationOp>(user)) {
      return user->emitError() << "a dispatch binding of " << narrow
                               << " elements is used by an op kiln cannot widen to bytes";
    }
  }
  binding.setType(wide);
  for (OpOperand* use : uses) {
    Operation* user = use->getOwner();
    Location loc = user->getLoc();
    if (auto read = dyn_cast<bufferization::ToTensorOp>(user)) {
      auto narrow_tensor = cast<RankedTensorType>(read.getType());
      Value read_value = read.getResult();
      read_value.setType(narrow_tensor.clone(rewriter.getI8Type()));
      rewriter.setInsertionPointAfter(read);
      Value narrowed = ConvertElements(rewriter, loc, read_value, narrow);
      rewriter.replaceAllUsesExcept(read_value, narrowed, narrowed.getDefiningOp());
      // Into each consumer, one use at a time (fusion replaces the consumer).
      llvm::SmallPtrSet<Operation*, 4> unfused;
      while (true) {
        auto use = llvm::find_if(narrowed.getUses(), [&](OpOperand& u) { return !unfused.contains(u.getOwner()); });
        if (use == narrowed.getUses().end()) break;
        Operation* owner = use->getOwner();
        if (!FuseIntoConsumer(rewriter, *use)) unfused.insert(owner);
      }
    } else {
      auto write = cast<bufferization::MaterializeInDestinationOp>(user);
      rewriter.setInsertionPoint(write);
      Value widened = ConvertElements(rewriter, loc, write.getSource(), rewriter.getI8Type());
      rewriter.modifyOpInPlace(write, [&] { write.getSourceMutable().assign(widened); });
      FuseIntoConsumer(rewriter, widened.getDefiningOp<linalg::GenericOp>()->getOpOperand(0));
    }
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
          if (failed(Widen(rewriter, fn, binding))) return signalPassFailure();
          changed = true;
        }
        if (!changed) continue;
        fn.setFunctionType(FunctionType::get(&getContext(), fn.getBody().getArgumentTypes(), fn.getResultTypes()));
        // Producers fused into every consumer, and what only they used.
        for (Operation& op : llvm::make_early_inc_range(llvm::reverse(fn.getBody().front()))) {
          if (isOpTriviallyDead(&op)) rewriter.eraseOp(&op);
        }
      }
    }
  }
};

}  // namespace
}  // namespace kiln::compiler
