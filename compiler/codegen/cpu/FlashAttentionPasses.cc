// kiln-cpu-keep-flash-attention and kiln-cpu-lower-flash-attention (FlashAttention.h).
#include "compiler/codegen/cpu/FlashAttention.h"
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/dialect/KilnDialect.h"
#include "compiler/input/iree/IreeDialects.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_KEEPFLASHATTENTION
#define GEN_PASS_DEF_LOWERFLASHATTENTION
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

struct KeepFlashAttentionPass : impl::KeepFlashAttentionBase<KeepFlashAttentionPass> {
  void runOnOperation() override {
    getOperation()->walk([&](iree::AttentionOp op) {
      std::string why;
      if (MatchCpuFlashAttention(op, why)) op->setAttr(kUndecomposedAttr, UnitAttr::get(op->getContext()));
    });
  }
};

struct LowerFlashAttentionPass : impl::LowerFlashAttentionBase<LowerFlashAttentionPass> {
  void runOnOperation() override {
    SmallVector<Operation*> ops;
    getOperation()->walk([&](iree::AttentionOp op) {
      if (llvm::none_of(op->getOperandTypes(), [](Type t) { return isa<TensorType>(t); })) ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation* op : ops) {
      if (failed(LowerToFlashAttention(rewriter, op))) return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
