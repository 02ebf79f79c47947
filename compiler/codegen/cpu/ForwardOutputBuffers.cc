// Temporaries copied whole into an output binding become that binding (Passes.td,
// kiln-cpu-forward-output-buffers).
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_FORWARDOUTPUTBUFFERS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// Whether every use of `alloc` other than `last` lies before `last` in its block.
bool AllUsesBefore(memref::AllocOp alloc, memref::CopyOp last) {
  Block* block = last->getBlock();
  return llvm::all_of(alloc->getUsers(), [&](Operation* user) {
    if (user == last.getOperation()) return true;
    Operation* ancestor = block->findAncestorOpInBlock(*user);
    return ancestor && ancestor->isBeforeInBlock(last);
  });
}

// `copy` (a temporary into a whole output binding) forwarded, if it can be: the binding
// takes the temporary's place and the copy goes.
void Forward(memref::CopyOp copy) {
  auto binding = dyn_cast<BlockArgument>(copy.getTarget());
  auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
  if (!binding || !alloc || alloc->getBlock() != copy->getBlock()) return;
  // The binding is written by this copy only, so nothing reads or writes it before; the
  // temporary is done with when it is copied. The code that filled the temporary may
  // then fill the binding instead.
  if (!binding.hasOneUse() || !AllUsesBefore(alloc, copy)) return;
  if (!memref::CastOp::areCastCompatible(binding.getType(), alloc.getType())) return;
  OpBuilder b(alloc);
  Value replacement = binding;
  if (binding.getType() != alloc.getType()) {
    replacement = memref::CastOp::create(b, alloc.getLoc(), alloc.getType(), binding);
  }
  copy->erase();
  alloc.replaceAllUsesWith(replacement);
  alloc->erase();
}

struct ForwardOutputBuffersPass : impl::ForwardOutputBuffersBase<ForwardOutputBuffersPass> {
  void runOnOperation() override {
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
      if (!fn->hasAttr(kBindingDimsAttr) || fn.getBody().empty()) continue;
      SmallVector<memref::CopyOp> copies;
      for (Operation& op : fn.getBody().front()) {
        if (auto copy = dyn_cast<memref::CopyOp>(op)) copies.push_back(copy);
      }
      for (memref::CopyOp copy : copies) Forward(copy);
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
