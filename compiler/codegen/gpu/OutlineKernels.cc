// The executable module's functions into a gpu.module (Passes.td, OutlineKernels).
#include "compiler/codegen/gpu/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AttrTypeSubElements.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_OUTLINEKERNELS
#include "compiler/codegen/gpu/Passes.h.inc"

namespace {

using namespace mlir;

// Statically shaped allocations in the workgroup address space become the kernel's
// workgroup attributions (LDS the dispatch packet reserves); any other is an error, since
// a kernel cannot allocate workgroup memory at run time.
LogicalResult PromoteWorkgroupAllocations(mlir::gpu::GPUFuncOp kernel) {
  SmallVector<memref::AllocOp> allocations;
  kernel.walk([&](memref::AllocOp alloc) {
    auto space = dyn_cast_or_null<mlir::gpu::AddressSpaceAttr>(alloc.getType().getMemorySpace());
    if (space && space.getValue() == mlir::gpu::AddressSpace::Workgroup) allocations.push_back(alloc);
  });
  for (memref::AllocOp alloc : allocations) {
    if (!alloc.getType().hasStaticShape() || alloc->getParentOp() != kernel.getOperation()) {
      return alloc.emitError() << "workgroup memory must be allocated with a static shape at the top of kernel '"
                               << kernel.getName() << "'";
    }
    BlockArgument attribution = kernel.addWorkgroupAttribution(alloc.getType(), alloc.getLoc());
    alloc.getResult().replaceAllUsesWith(attribution);
    alloc.erase();
  }
  return success();
}

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
  return PromoteWorkgroupAllocations(kernel);
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
    // AMDGPU's address space numbers, so that every later conversion (the vector patterns
    // before the ROCDL lowering too) knows where a buffer lives.
    AttrTypeReplacer numbered;
    numbered.addReplacement([](MemRefType type) -> std::optional<Type> {
      auto space = dyn_cast_or_null<mlir::gpu::AddressSpaceAttr>(type.getMemorySpace());
      if (!space) return std::nullopt;
      unsigned number = space.getValue() == mlir::gpu::AddressSpace::Workgroup ? 3
                        : space.getValue() == mlir::gpu::AddressSpace::Private ? 5
                                                                                : 1;
      return MemRefType::get(type.getShape(), type.getElementType(), type.getLayout(),
                             IntegerAttr::get(IntegerType::get(type.getContext(), 64), number));
    });
    numbered.recursivelyReplaceElementsIn(kernels, /*replaceAttrs=*/true, /*replaceLocs=*/false, /*replaceTypes=*/true);
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
