#include "compiler/codegen/cpu/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_COPIESTOLINALG
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

struct CopiesToLinalgPass : impl::CopiesToLinalgBase<CopiesToLinalgPass> {
  void runOnOperation() override {
    llvm::SmallVector<mlir::memref::CopyOp> copies;
    getOperation()->walk([&](mlir::memref::CopyOp copy) { copies.push_back(copy); });
    mlir::IRRewriter rewriter(&getContext());
    for (mlir::memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      mlir::linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(), copy.getTarget());
      rewriter.eraseOp(copy);
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
