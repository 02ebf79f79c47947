// The executable module's functions into a gpu.module (Passes.td, OutlineKernels).
#include "compiler/codegen/gpu/Passes.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_OUTLINEKERNELS
#include "compiler/codegen/gpu/Passes.h.inc"

namespace {

using namespace mlir;

// Replaces kernel function `fn` by a gpu.func kernel with the same body.
LogicalResult ConvertKernel(func::FuncOp fn) {
  auto size = fn->getAttrOfType<DenseI32ArrayAttr>(kWorkgroupSizeAttr);
  if (!size || size.size() != 3) return fn.emitError() << "kernel without a 3-entry " << kWorkgroupSizeAttr;
  OpBuilder b(fn);
  auto kernel = mlir::gpu::GPUFuncOp::create(b, fn.getLoc(), fn.getName(), fn.getFunctionType());
  kernel->setAttr(mlir::gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(size);
  // The builder made an entry block; the kernel's own body replaces it.
  kernel.getBody().getBlocks().clear();
  kernel.getBody().takeBody(fn.getBody());
  for (Block& block : kernel.getBody()) {
    if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator())) {
      b.setInsertionPoint(ret);
      mlir::gpu::ReturnOp::create(b, ret.getLoc());
      ret.erase();
    }
  }
  fn.erase();
  return success();
}

struct OutlineKernelsPass : impl::OutlineKernelsBase<OutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    auto kernels = mlir::gpu::GPUModuleOp::create(b, module.getLoc(), "kiln_kernels");
    Block* body = &kernels.getBodyRegion().front();
    // Functions and what they refer to (constant globals) move; the kernels then convert.
    SmallVector<Operation*> moved;
    for (Operation& op : module.getBody()->without_terminator()) {
      if (&op != kernels.getOperation()) moved.push_back(&op);
    }
    for (Operation* op : moved) op->moveBefore(body, body->end());
    SmallVector<func::FuncOp> functions(kernels.getOps<func::FuncOp>());
    for (func::FuncOp fn : functions) {
      if (fn->hasAttr(kKernelAttr) && failed(ConvertKernel(fn))) return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
