#include "compiler/codegen/cpu/ElfEmitter.h"

#include <unistd.h>

#include "hal/abi/executable_abi.h"
#include "compiler/codegen/emit/ObjectEmission.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "mlir/Target/LLVMIR/Export.h"

namespace kiln::compiler::cpu {

namespace {

constexpr const char* kTriple = "x86_64-unknown-linux-gnu";

const llvm::Target* X86Target(std::string& error) {
  static bool initialized = [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
    return true;
  }();
  (void)initialized;
  return llvm::TargetRegistry::lookupTarget(llvm::Triple(kTriple), error);
}

// The CPU name and feature string LLVM gets for `options`: the named CPU, or this
// machine's CPU with every feature it reports.
std::pair<std::string, std::string> CpuAndFeatures(const CpuTargetOptions& options) {
  std::string cpu = options.cpu, features;
  if (cpu.empty() || cpu == "host") {
    cpu = llvm::sys::getHostCPUName().str();
    for (const auto& feature : llvm::sys::getHostCPUFeatures()) {
      features += (feature.second ? "+" : "-") + feature.first().str() + ",";
    }
  }
  return {cpu, features};
}

std::unique_ptr<llvm::TargetMachine> CreateTargetMachine(const CpuTargetOptions& options, std::string& error) {
  const llvm::Target* target = X86Target(error);
  if (!target) return nullptr;
  auto [cpu, features] = CpuAndFeatures(options);
  llvm::TargetOptions target_options;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      llvm::Triple(kTriple), cpu, features, target_options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
}

}  // namespace

bool HasCpuFeatures(const CpuTargetOptions& options, llvm::StringRef wanted) {
  std::string error;
  const llvm::Target* target = X86Target(error);
  if (!target) return false;
  auto [cpu, features] = CpuAndFeatures(options);
  std::unique_ptr<llvm::MCSubtargetInfo> info(target->createMCSubtargetInfo(llvm::Triple(kTriple), cpu, features));
  return info && info->checkFeatures(wanted);
}

int64_t VectorRegisterBits(const CpuTargetOptions& options) {
  if (HasCpuFeatures(options, "+avx512f")) return 512;
  if (HasCpuFeatures(options, "+avx")) return 256;
  return 128;
}

namespace {

// kiln_executable_library_query and the export table it returns (executable_abi.h v2).
void AddLibraryQuery(llvm::Module& module, llvm::ArrayRef<CpuExport> exports) {
  llvm::LLVMContext& ctx = module.getContext();
  llvm::IRBuilder<> b(ctx);
  llvm::Type* i32 = b.getInt32Ty();
  llvm::PointerType* ptr = b.getPtrTy();
  llvm::StructType* export_type = llvm::StructType::create(
      ctx, {ptr, ptr, i32, i32, llvm::ArrayType::get(i32, 3), i32, ptr, i32, ptr}, "kiln_export_v2_t");
  auto string = [&](const std::string& text) -> llvm::Constant* {
    if (text.empty()) return llvm::ConstantPointerNull::get(ptr);
    auto* init = llvm::ConstantDataArray::getString(ctx, text);
    return new llvm::GlobalVariable(module, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init);
  };
  auto string_table = [&](const std::vector<std::string>& texts) -> llvm::Constant* {
    if (texts.empty()) return llvm::ConstantPointerNull::get(ptr);
    std::vector<llvm::Constant*> pointers;
    for (const std::string& text : texts) pointers.push_back(string(text));
    auto* type = llvm::ArrayType::get(ptr, pointers.size());
    return new llvm::GlobalVariable(module, type, true, llvm::GlobalValue::PrivateLinkage,
                                    llvm::ConstantArray::get(type, pointers));
  };
  std::vector<llvm::Constant*> entries;
  for (const CpuExport& e : exports) {
    llvm::Function* entry = module.getFunction(e.entry_symbol);
    entries.push_back(llvm::ConstantStruct::get(
        export_type,
        {string(e.name), entry, b.getInt32(e.binding_count), b.getInt32(e.constant_count),
         llvm::ConstantArray::get(llvm::ArrayType::get(i32, 3), {b.getInt32(1), b.getInt32(1), b.getInt32(1)}),
         b.getInt32(0), string(e.source_location), b.getInt32(e.check_sites.size()), string_table(e.check_sites)}));
  }
  auto* table_type = llvm::ArrayType::get(export_type, entries.size());
  auto* table = new llvm::GlobalVariable(module, table_type, true, llvm::GlobalValue::PrivateLinkage,
                                         llvm::ConstantArray::get(table_type, entries), "kiln_exports");
  llvm::StructType* library_type = llvm::StructType::create(ctx, {i32, i32, ptr}, "kiln_executable_library_v2_t");
  auto* library = new llvm::GlobalVariable(
      module, library_type, true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantStruct::get(library_type,
                                {b.getInt32(KILN_EXECUTABLE_ABI_VERSION), b.getInt32(entries.size()), table}),
      "kiln_library");

  auto* query = llvm::Function::Create(llvm::FunctionType::get(ptr, {i32}, false), llvm::GlobalValue::ExternalLinkage,
                                       KILN_EXECUTABLE_QUERY_SYMBOL, module);
  query->setVisibility(llvm::GlobalValue::DefaultVisibility);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", query));
  llvm::Value* supported = b.CreateICmpEQ(query->getArg(0), b.getInt32(KILN_EXECUTABLE_ABI_VERSION));
  b.CreateRet(b.CreateSelect(supported, library, llvm::ConstantPointerNull::get(ptr)));
}

// KILN_EXECUTABLE_NEEDS_SYMBOL, when the code uses processor state a process must ask for:
// AMX tile registers if any function calls an AMX intrinsic (llvm.x86.tile*, llvm.x86.tdp*).
void AddProcessorStateNeeds(llvm::Module& module) {
  uint32_t needs = 0;
  for (const llvm::Function& f : module) {
    if (f.isIntrinsic() && (f.getName().starts_with("llvm.x86.tile") || f.getName().starts_with("llvm.x86.tdp"))) {
      needs |= KILN_EXECUTABLE_NEEDS_AMX_TILES;
    }
  }
  if (needs == 0) return;
  llvm::Type* i32 = llvm::Type::getInt32Ty(module.getContext());
  auto* symbol = new llvm::GlobalVariable(module, i32, true, llvm::GlobalValue::ExternalLinkage,
                                          llvm::ConstantInt::get(i32, needs), KILN_EXECUTABLE_NEEDS_SYMBOL);
  symbol->setVisibility(llvm::GlobalValue::DefaultVisibility);
}

}  // namespace

bool IsKnownCpu(llvm::StringRef name) {
  std::string error;
  const llvm::Target* target = X86Target(error);
  if (!target) return false;
  std::unique_ptr<llvm::MCSubtargetInfo> info(target->createMCSubtargetInfo(llvm::Triple(kTriple), "", ""));
  return info && info->isCPUStringValid(name);
}

int64_t L1DataCacheBytes(const CpuTargetOptions& options) {
  constexpr int64_t kCommon = 32 * 1024, kLarge = 48 * 1024;
  if (options.cpu.empty() || options.cpu == "host") {
    long bytes = sysconf(_SC_LEVEL1_DCACHE_SIZE);
    // Sizes outside this range are not an L1's (0 or -1: unknown).
    return bytes >= 8 * 1024 && bytes <= 1024 * 1024 ? bytes : kCommon;
  }
  static constexpr llvm::StringLiteral kLargeL1[] = {
      "icelake-client", "icelake-server", "tigerlake",   "rocketlake",   "alderlake",
      "raptorlake",     "meteorlake",     "arrowlake",   "arrowlake-s",  "lunarlake",
      "pantherlake",    "sapphirerapids", "emeraldrapids", "graniterapids", "graniterapids-d",
      "diamondrapids",  "znver5"};
  return llvm::is_contained(kLargeL1, llvm::StringRef(options.cpu)) ? kLarge : kCommon;
}

mlir::FailureOr<std::vector<uint8_t>> EmitCpuSharedObject(mlir::ModuleOp module,
                                                          llvm::ArrayRef<std::string> entry_symbols,
                                                          llvm::function_ref<void(llvm::Module&)> add_interface,
                                                          const CpuTargetOptions& options) {
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine = CreateTargetMachine(options, error);
  if (!machine) return module.emitError() << "cannot create the x86-64 target machine: " << error, mlir::failure();

  // Anything left outside the LLVM dialect is an op the CPU lowering does not handle.
  if (mlir::Operation* unlowered = FindUnloweredOp(module, {"llvm"})) {
    return unlowered->emitError() << "kiln cannot generate CPU code for '" << unlowered->getName()
                                  << "' yet (it survived the lowering to LLVM)",
           mlir::failure();
  }
  llvm::LLVMContext llvm_context;
  std::unique_ptr<llvm::Module> llvm_module = mlir::translateModuleToLLVMIR(module, llvm_context, "kiln_executable");
  if (!llvm_module) return module.emitError() << "cannot translate the executable to LLVM IR", mlir::failure();
  llvm_module->setTargetTriple(llvm::Triple(kTriple));
  llvm_module->setDataLayout(machine->createDataLayout());
  for (const std::string& symbol : entry_symbols) {
    if (!llvm_module->getFunction(symbol)) {
      return module.emitError() << "entry point '" << symbol << "' is missing from the LLVM module", mlir::failure();
    }
  }
  // Only the interface is visible; its tables keep the entry points alive. Weak hidden
  // functions are the helpers the backend may call (__truncsfbf2, kiln-cpu-load-bf16-as-
  // bits): their calls appear only during instruction selection, so they stay weak, not
  // internal, which the optimizer would drop as unused.
  for (llvm::Function& f : *llvm_module) {
    if (f.isDeclaration()) continue;
    if (f.hasWeakLinkage() && f.hasHiddenVisibility()) continue;
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  add_interface(*llvm_module);
  OptimizeModule(*llvm_module, *machine);
  mlir::FailureOr<llvm::SmallVector<char, 0>> object = EmitObjectFile(*llvm_module, *machine, module.getLoc());
  if (mlir::failed(object)) return mlir::failure();
  return LinkSharedObject(*object, {"--hash-style=gnu", "-z", "noexecstack", "-z", "now"}, module.getLoc());
}

mlir::FailureOr<std::vector<uint8_t>> EmitCpuElf(mlir::ModuleOp module, llvm::ArrayRef<CpuExport> exports,
                                                 const CpuTargetOptions& options) {
  std::vector<std::string> entry_symbols;
  for (const CpuExport& e : exports) entry_symbols.push_back(e.entry_symbol);
  return EmitCpuSharedObject(
      module, entry_symbols,
      [&](llvm::Module& llvm_module) {
        AddLibraryQuery(llvm_module, exports);
        AddProcessorStateNeeds(llvm_module);
      },
      options);
}

}  // namespace kiln::compiler::cpu
