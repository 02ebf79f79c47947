// Private allocas, no external calls and loop annotations on their branches in GPU kernels
// (Passes.td, FinalizeKernels).
#include "compiler/codegen/gpu/Passes.h"
#include "llvm/ADT/StringSet.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_FINALIZEKERNELS
#include "compiler/codegen/gpu/Passes.h.inc"

namespace {

using namespace mlir;

// AMDGPU's address space of allocas (the "A5" of its data layout).
constexpr unsigned kPrivateAddressSpace = 5;

void MoveAllocaToPrivate(LLVM::AllocaOp alloca) {
  auto type = cast<LLVM::LLVMPointerType>(alloca.getType());
  if (type.getAddressSpace() != 0) return;
  OpBuilder b(alloca);
  auto private_type = LLVM::LLVMPointerType::get(alloca.getContext(), kPrivateAddressSpace);
  auto moved = LLVM::AllocaOp::create(b, alloca.getLoc(), private_type, alloca.getElemType(), alloca.getArraySize(),
                                      alloca.getAlignment().value_or(0));
  auto flat = LLVM::AddrSpaceCastOp::create(b, alloca.getLoc(), type, moved);
  alloca.replaceAllUsesWith(flat.getResult());
  alloca.erase();
}

// convert-scf-to-cf carries an scf.for's `llvm.loop_annotation` to its back edge, and
// convert-cf-to-llvm keeps it there as a discardable attribute, which the translation to
// LLVM IR ignores: make it the branch's own loop annotation (its !llvm.loop metadata).
template <typename Branch>
void AdoptLoopAnnotation(Branch branch) {
  auto annotation = branch->template getAttrOfType<LLVM::LoopAnnotationAttr>(kLoopAnnotationAttr);
  if (!annotation) return;
  if (!branch.getLoopAnnotationAttr()) branch.setLoopAnnotationAttr(annotation);
  branch->removeAttr(kLoopAnnotationAttr);
}

// The dispatch a function of the gpu.module belongs to, for messages: the kernel's name
// without the suffixes FormKernels adds.
StringRef DispatchName(LLVM::LLVMFuncOp fn) {
  StringRef name = fn.getName();
  name.consume_back("_body");
  return name;
}

struct FinalizeKernelsPass : impl::FinalizeKernelsBase<FinalizeKernelsPass> {
  using FinalizeKernelsBase::FinalizeKernelsBase;
  void runOnOperation() override {
    bool failed_call = false;
    llvm::StringSet<> reported;  // "dispatch/callee": one error each, not one per call
    getOperation().walk([&](mlir::gpu::GPUModuleOp kernels) {
      SymbolTable symbols(kernels);
      kernels.walk([&](LLVM::AllocaOp alloca) { MoveAllocaToPrivate(alloca); });
      kernels.walk([](LLVM::BrOp branch) { AdoptLoopAnnotation(branch); });
      kernels.walk([](LLVM::CondBrOp branch) { AdoptLoopAnnotation(branch); });
      kernels.walk([&](LLVM::CallOp call) {
        std::optional<StringRef> callee = call.getCallee();
        if (!callee) {
          call.emitError() << "an indirect call cannot be compiled for " << chip;
          failed_call = true;
          return;
        }
        auto target = symbols.lookup<LLVM::LLVMFuncOp>(*callee);
        // free only ever pairs with a malloc, which is reported.
        if (!target || !target.isExternal() || callee->starts_with("llvm.") || *callee == "free") return;
        auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
        failed_call = true;
        if (!reported.insert((DispatchName(caller) + "/" + *callee).str()).second) return;
        call.emitError() << "dispatch '" << DispatchName(caller) << "' calls '" << *callee
                         << "', which a kernel for " << chip << " cannot link: "
                         << (*callee == "malloc"
                                 ? "it needs a temporary buffer of dynamic size"
                                 : "kiln has no GPU implementation of this function");
      });
    });
    if (failed_call) signalPassFailure();
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
