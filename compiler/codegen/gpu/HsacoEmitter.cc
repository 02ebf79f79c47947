#include "compiler/codegen/gpu/HsacoEmitter.h"

#include "compiler/codegen/emit/ObjectEmission.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Target/LLVMIR/Export.h"

namespace kiln::compiler::gpu {

namespace {

// The code object version the HSA runtimes of ROCm 5 and 6 load.
constexpr int kCodeObjectVersion = 500;

std::unique_ptr<llvm::TargetMachine> CreateAmdgpuMachine(const GpuTarget& target, std::string& error) {
  static bool initialized = [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple{kAmdgpuTriple};
  const llvm::Target* amdgpu = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!amdgpu) return nullptr;
  llvm::TargetOptions options;
  return std::unique_ptr<llvm::TargetMachine>(amdgpu->createTargetMachine(
      triple, target.chip, "", options, llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
}

// The gpu.module translated to LLVM IR and optimised for `target`; kernels stay visible,
// every other function becomes internal so that it is inlined or dropped.
mlir::FailureOr<std::unique_ptr<llvm::Module>> TranslateAndOptimize(mlir::ModuleOp module, const GpuTarget& target,
                                                                    llvm::LLVMContext& context,
                                                                    std::unique_ptr<llvm::TargetMachine>& machine) {
  mlir::gpu::GPUModuleOp kernels;
  module.walk([&](mlir::gpu::GPUModuleOp op) { kernels = op; });
  if (!kernels) return module.emitError() << "no gpu.module to emit for " << target.chip, mlir::failure();
  if (mlir::Operation* unlowered = FindUnloweredOp(kernels, {"llvm", "rocdl"})) {
    return unlowered->emitError() << "kiln cannot generate code for '" << unlowered->getName() << "' on "
                                  << target.chip << " yet (it survived the lowering to ROCDL)",
           mlir::failure();
  }
  std::string error;
  machine = CreateAmdgpuMachine(target, error);
  if (!machine) {
    return module.emitError() << "cannot create the AMDGPU target machine for " << target.chip << ": " << error,
           mlir::failure();
  }
  std::unique_ptr<llvm::Module> llvm_module = mlir::translateModuleToLLVMIR(kernels, context, "kiln_kernels");
  if (!llvm_module) return kernels.emitError() << "cannot translate the kernels to LLVM IR", mlir::failure();
  llvm_module->setTargetTriple(llvm::Triple(kAmdgpuTriple));
  llvm_module->setDataLayout(machine->createDataLayout());
  llvm_module->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", kCodeObjectVersion);
  for (llvm::Function& f : *llvm_module) {
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL) {
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
  }
  OptimizeModule(*llvm_module, *machine);
  return llvm_module;
}

}  // namespace

mlir::FailureOr<CodeObject> EmitHsaco(mlir::ModuleOp module, const GpuTarget& target) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::TargetMachine> machine;
  mlir::FailureOr<std::unique_ptr<llvm::Module>> llvm_module = TranslateAndOptimize(module, target, context, machine);
  if (mlir::failed(llvm_module)) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<char, 0>> object = EmitObjectFile(**llvm_module, *machine, module.getLoc());
  if (mlir::failed(object)) return mlir::failure();
  mlir::FailureOr<std::vector<uint8_t>> hsaco = LinkSharedObject(*object, {"--no-undefined"}, module.getLoc());
  if (mlir::failed(hsaco)) return mlir::failure();
  llvm::Expected<std::vector<KernelResources>> kernels = ReadKernelResources(*hsaco);
  if (!kernels) {
    return module.emitError() << "cannot read the metadata of the code object for " << target.chip << ": "
                              << llvm::toString(kernels.takeError()),
           mlir::failure();
  }
  return CodeObject{std::move(*hsaco), std::move(*kernels)};
}

mlir::FailureOr<std::string> EmitAmdgpuAssembly(mlir::ModuleOp module, const GpuTarget& target) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::TargetMachine> machine;
  mlir::FailureOr<std::unique_ptr<llvm::Module>> llvm_module = TranslateAndOptimize(module, target, context, machine);
  if (mlir::failed(llvm_module)) return mlir::failure();
  llvm::SmallVector<char, 0> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, os, nullptr, llvm::CodeGenFileType::AssemblyFile)) {
    return module.emitError() << "the AMDGPU backend cannot emit assembly", mlir::failure();
  }
  codegen.run(**llvm_module);
  return std::string(text.begin(), text.end());
}

}  // namespace kiln::compiler::gpu
