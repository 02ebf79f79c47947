#include "compiler/codegen/gpu/TwinEmitter.h"

#include "compiler/codegen/gpu/Passes.h"
#include "hal/abi/gpu_kernel_abi.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace kiln::compiler::gpu {

namespace {

// KILN_GPU_TWIN_QUERY_SYMBOL and the library descriptor it returns (twin ABI v1).
void AddTwinQuery(llvm::Module& module, const GpuTarget& target, llvm::ArrayRef<KernelResources> kernels) {
  llvm::LLVMContext& ctx = module.getContext();
  llvm::IRBuilder<> b(ctx);
  llvm::Type* i32 = b.getInt32Ty();
  llvm::PointerType* ptr = b.getPtrTy();
  auto string = [&](const std::string& text) -> llvm::Constant* {
    auto* init = llvm::ConstantDataArray::getString(ctx, text);
    return new llvm::GlobalVariable(module, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init);
  };
  // kiln_gpu_twin_kernel_v1_t and kiln_gpu_twin_library_v1_t, field for field.
  llvm::StructType* kernel_type =
      llvm::StructType::create(ctx, {ptr, ptr, i32, i32, i32, i32}, "kiln_gpu_twin_kernel_v1_t");
  std::vector<llvm::Constant*> entries;
  for (const KernelResources& k : kernels) {
    llvm::Function* entry = module.getFunction(TwinEntryName(k.name));
    entries.push_back(llvm::ConstantStruct::get(
        kernel_type, {string(k.symbol), entry, b.getInt32(k.kernarg_segment_size),
                      b.getInt32(k.kernarg_segment_alignment), b.getInt32(k.group_segment_size),
                      b.getInt32(k.private_segment_size)}));
  }
  auto* table_type = llvm::ArrayType::get(kernel_type, entries.size());
  auto* table = new llvm::GlobalVariable(module, table_type, true, llvm::GlobalValue::PrivateLinkage,
                                         llvm::ConstantArray::get(table_type, entries), "kiln_twin_kernels");
  llvm::StructType* library_type =
      llvm::StructType::create(ctx, {i32, ptr, i32, i32, ptr}, "kiln_gpu_twin_library_v1_t");
  auto* library = new llvm::GlobalVariable(
      module, library_type, true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantStruct::get(library_type, {b.getInt32(KILN_GPU_TWIN_ABI_VERSION), string(target.IsaName()),
                                               b.getInt32(target.wavefront_size), b.getInt32(entries.size()), table}),
      "kiln_twin_library");
  auto* query = llvm::Function::Create(llvm::FunctionType::get(ptr, {i32}, false), llvm::GlobalValue::ExternalLinkage,
                                       KILN_GPU_TWIN_QUERY_SYMBOL, module);
  query->setVisibility(llvm::GlobalValue::DefaultVisibility);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", query));
  llvm::Value* supported = b.CreateICmpEQ(query->getArg(0), b.getInt32(KILN_GPU_TWIN_ABI_VERSION));
  b.CreateRet(b.CreateSelect(supported, library, llvm::ConstantPointerNull::get(ptr)));
}

}  // namespace

mlir::FailureOr<std::vector<uint8_t>> EmitHostTwin(mlir::ModuleOp module, const GpuTarget& target,
                                                   llvm::ArrayRef<KernelResources> kernels,
                                                   const cpu::CpuTargetOptions& host) {
  std::vector<std::string> entries;
  for (const KernelResources& k : kernels) entries.push_back(TwinEntryName(k.name));
  return cpu::EmitCpuSharedObject(
      module, entries, [&](llvm::Module& llvm_module) { AddTwinQuery(llvm_module, target, kernels); }, host);
}

}  // namespace kiln::compiler::gpu
