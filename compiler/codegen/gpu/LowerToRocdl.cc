// The kernels of a gpu.module to LLVM and ROCDL (Passes.td, LowerToRocdl).
#include "compiler/codegen/gpu/Passes.h"
#include "mlir/Conversion/AMDGPUToROCDL/AMDGPUToROCDL.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/AMDGPU/Utils/Chipset.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_LOWERTOROCDL
#include "compiler/codegen/gpu/Passes.h.inc"

namespace {

using namespace mlir;

struct LowerToRocdlPass : impl::LowerToRocdlBase<LowerToRocdlPass> {
  using LowerToRocdlBase::LowerToRocdlBase;
  void runOnOperation() override {
    MLIRContext* ctx = &getContext();
    FailureOr<amdgpu::Chipset> chipset = amdgpu::Chipset::parse(chip);
    if (failed(chipset)) {
      getOperation().emitError() << "'" << chip << "' is not an AMDGPU chip name";
      return signalPassFailure();
    }
    LowerToLLVMOptions options(ctx);
    options.overrideIndexBitwidth(64);
    LLVMTypeConverter converter(ctx, options);
    populateGpuMemorySpaceAttributeConversions(converter, [](mlir::gpu::AddressSpace space) -> unsigned {
      switch (space) {
        case mlir::gpu::AddressSpace::Global: return 1;
        case mlir::gpu::AddressSpace::Workgroup: return 3;
        case mlir::gpu::AddressSpace::Private: return 5;
      }
      return 0;
    });
    RewritePatternSet patterns(ctx);
    populateGpuToROCDLConversionPatterns(converter, patterns, mlir::gpu::amd::Runtime::Unknown, *chipset);
    populateAMDGPUToROCDLConversionPatterns(converter, patterns, *chipset);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    populateVectorToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<ROCDL::ROCDLDialect>();
    target.addLegalOp<mlir::gpu::GPUModuleOp>();
    if (failed(applyFullConversion(getOperation(), target, std::move(patterns)))) return signalPassFailure();
    MarkDeviceAtomics();
  }

  // A kernel's read-modify-write atomics on its bindings (the scatter strategy's) combine
  // the work-items of one dispatch on its own device: their bindings are buffers of this
  // GPU's memory that nothing else writes while the kernel runs. Said so (agent scope, no
  // remote or fine-grained memory), the backend selects the native instructions
  // (global_atomic_add_f32, global_atomic_smax) instead of compare-and-swap loops.
  void MarkDeviceAtomics() {
    MLIRContext* ctx = &getContext();
    ROCDL::ROCDLDialect* rocdl = ctx->getLoadedDialect<ROCDL::ROCDLDialect>();
    getOperation().walk([&](LLVM::AtomicRMWOp op) {
      // Bindings are flat pointers (address space 0) until the backend infers global.
      unsigned space = cast<LLVM::LLVMPointerType>(op.getPtr().getType()).getAddressSpace();
      if (space != 0 && space != 1) return;
      op.setSyncscope("agent");
      rocdl->getNoRemoteMemoryAttrHelper().setAttr(op, UnitAttr::get(ctx));
      rocdl->getNoFineGrainedMemoryAttrHelper().setAttr(op, UnitAttr::get(ctx));
    });
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
