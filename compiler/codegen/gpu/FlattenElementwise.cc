// Elementwise roots over several dimensions as one (Passes.td, kiln-gpu-flatten-elementwise).
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_FLATTENELEMENTWISE
#include "compiler/codegen/gpu/Passes.h.inc"

namespace {

using namespace mlir;

// A binding as the dispatch function sees it: a memref argument with the identity layout
// (row-major, contiguous), so that collapsing it to one dimension is a view, not a copy.
bool IsContiguousBinding(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  return type && isa<BlockArgument>(memref) && type.getLayout().isIdentity() && type.hasStaticShape();
}

// The binding `operand` reads, when it is a whole binding read by `op` alone.
bufferization::ToTensorOp WholeBindingRead(Value operand, Operation* op) {
  auto read = operand.getDefiningOp<bufferization::ToTensorOp>();
  if (!read || !IsContiguousBinding(read.getBuffer())) return nullptr;
  if (!llvm::all_of(read->getUsers(), [&](Operation* user) { return user == op; })) return nullptr;
  return read;
}

// The binding result `r` goes to whole, when that is its one use.
bufferization::MaterializeInDestinationOp WholeBindingWrite(Value r) {
  if (!r.hasOneUse()) return nullptr;
  auto store = dyn_cast<bufferization::MaterializeInDestinationOp>(*r.getUsers().begin());
  return store && IsContiguousBinding(store.getDest()) ? store : nullptr;
}

// Whether `op` is elementwise over two or more static dimensions (every map the identity, no
// linalg.index in its body), reading whole bindings and writing each result whole into one.
bool Flattenable(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumLoops() < 2 || op.getNumLoops() != op.getNumParallelLoops() ||
      op.hasDynamicShape() || !op->getRegion(0).hasOneBlock()) {
    return false;
  }
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) { return map.isIdentity(); })) return false;
  if (!op->getRegion(0).getOps<linalg::IndexOp>().empty()) return false;
  for (OpOperand* input : op.getDpsInputOperands()) {
    if (!WholeBindingRead(input->get(), op)) return false;
  }
  for (OpOperand& init : op.getDpsInitsMutable()) {
    if (!init.get().getDefiningOp<tensor::EmptyOp>()) return false;
  }
  return llvm::all_of(op->getResults(), [](Value r) { return WholeBindingWrite(r) != nullptr; });
}

void Flatten(linalg::LinalgOp op) {
  IRRewriter rewriter(op.getContext());
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < static_cast<int64_t>(op.getNumLoops()); ++d) all[0].push_back(d);
  auto collapse = [&](Value memref) { return memref::CollapseShapeOp::create(rewriter, loc, memref, all).getResult(); };
  SmallVector<Value> inputs, inits;
  SmallVector<Operation*> reads;
  for (OpOperand* input : op.getDpsInputOperands()) {
    bufferization::ToTensorOp read = WholeBindingRead(input->get(), op);
    Value flat = collapse(read.getBuffer());
    auto type = RankedTensorType::get(cast<MemRefType>(flat.getType()).getShape(),
                                      cast<MemRefType>(flat.getType()).getElementType());
    inputs.push_back(
        bufferization::ToTensorOp::create(rewriter, loc, type, flat, read.getRestrict(), read.getWritable()));
    reads.push_back(read);
  }
  for (Value init : op.getDpsInits()) {
    auto type = cast<RankedTensorType>(init.getType());
    inits.push_back(tensor::EmptyOp::create(rewriter, loc, {type.getNumElements()}, type.getElementType()));
  }
  // The output bindings' views, before the op: the distribution may make the op write them.
  SmallVector<Value> dests;
  for (Value result : op->getResults()) dests.push_back(collapse(WholeBindingWrite(result).getDest()));
  // The body, as a generic's (a named op's is built by generalizing it, which drops the
  // discardable attributes: kiln.root and the rest are the original op's).
  DictionaryAttr attributes = op->getDiscardableAttrDictionary();
  linalg::GenericOp generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) generic = *linalg::generalizeNamedOp(rewriter, op);
  rewriter.setInsertionPoint(generic);
  SmallVector<Type> result_types;
  for (Value init : inits) result_types.push_back(init.getType());
  SmallVector<AffineMap> maps(inputs.size() + inits.size(), rewriter.getMultiDimIdentityMap(1));
  auto flat = linalg::GenericOp::create(rewriter, loc, result_types, inputs, inits, maps,
                                        SmallVector<utils::IteratorType>{utils::IteratorType::parallel});
  rewriter.inlineRegionBefore(generic.getRegion(), flat.getRegion(), flat.getRegion().end());
  flat->setDiscardableAttrs(attributes);
  for (auto [result, replacement, dest] : llvm::zip(generic->getResults(), flat->getResults(), dests)) {
    bufferization::MaterializeInDestinationOp store = WholeBindingWrite(result);
    rewriter.modifyOpInPlace(store, [&] {
      store.getSourceMutable().assign(replacement);
      store.getDestMutable().assign(dest);
    });
  }
  rewriter.eraseOp(generic);
  for (Operation* read : reads) {
    if (read->use_empty()) rewriter.eraseOp(read);
  }
}

struct FlattenElementwisePass : impl::FlattenElementwiseBase<FlattenElementwisePass> {
  void runOnOperation() override {
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
      if (!fn->hasAttr(kBindingDimsAttr) || fn->hasAttr(kWorkgroupStrategyAttr) || fn->hasAttr(kDistributedAttr)) {
        continue;
      }
      linalg::LinalgOp root;
      fn.walk([&](linalg::LinalgOp op) {
        if (op->hasAttr(kRootAttr)) root = op;
      });
      if (root && Flattenable(root)) Flatten(root);
    }
  }
};

}  // namespace

}  // namespace kiln::compiler::gpu
