#include "compiler/pipeline/Compile.h"

#include <mutex>

#include "compiler/codegen/cpu/ElfEmitter.h"
#include "compiler/codegen/cpu/LinalgExtInterfaces.h"
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/input/InputDialects.h"
#include "compiler/dialect/KilnDialect.h"
#include "compiler/host/HostModuleWriter.h"
#include "compiler/transforms/Passes.h"
#include "compiler/utils/Pipelines.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

namespace kiln::compiler {

namespace {

using namespace mlir;

void ConfigureDumps(PassManager& pm, const CompileOptions& options) {
  if (options.dump_ir_after.empty()) return;
  std::string wanted = options.dump_ir_after;
  pm.enableIRPrinting([](Pass*, Operation*) { return false; },
                      [wanted](Pass* pass, Operation*) { return wanted == "all" || pass->getArgument() == wanted; },
                      /*printModuleScope=*/false, /*printAfterOnlyOnChange=*/false);
}

// Stages 1-4 up to the host program: input checks and TOSA lowering, global
// optimisation, dispatch formation, host clean-up.
void BuildHostPipeline(OpPassManager& pm, const CompileOptions& options) {
  pm.addPass(createCheckInputOps());
  pm.addPass(createLowerIreeInput());
  AddPipeline(pm, "func.func(tosa-to-scf,tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg,"
                  "tosa-to-arith,tosa-to-tensor)");
  pm.addPass(createDecomposeAggregates());
  if (options.check_indices) pm.addPass(createCheckExtractIndices());
  pm.addPass(createDecomposeLinalgExt(DecomposeLinalgExtOptions{options.check_indices}));
  AddPipeline(pm, "canonicalize,cse,func.func(convert-elementwise-to-linalg),linalg-fuse-elementwise-ops,"
                  "canonicalize,cse");
  pm.addPass(createWidenReductionAccumulators());
  pm.addPass(createFormDispatches());
  AddPipeline(pm, "canonicalize,cse,func.func(lower-affine,convert-scf-to-cf,arith-expand),canonicalize,cse");
}

ModuleOp FindExecutables(ModuleOp module) {
  for (ModuleOp nested : module.getOps<ModuleOp>()) {
    if (nested->hasAttr(kExecutableAttr)) return nested;
  }
  return nullptr;
}

LogicalResult DumpDispatches(ModuleOp executables, llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    return executables.emitError() << "cannot create --dump-dispatches directory '" << dir << "': " << ec.message();
  }
  for (func::FuncOp fn : executables.getOps<func::FuncOp>()) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, fn.getName() + ".mlir");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) return fn.emitError() << "cannot write '" << path << "': " << ec.message();
    fn.print(os);
    os << "\n";
  }
  return success();
}

// The export table, read off the entry points WrapEntryPoints added.
std::vector<cpu::CpuExport> CollectExports(ModuleOp executables) {
  std::vector<cpu::CpuExport> exports;
  SymbolTable symbols(executables);
  for (func::FuncOp entry : executables.getOps<func::FuncOp>()) {
    auto body_ref = entry->getAttrOfType<FlatSymbolRefAttr>("kiln.entry_for");
    if (!body_ref) continue;
    auto body = symbols.lookup<func::FuncOp>(body_ref.getValue());
    cpu::CpuExport e;
    e.name = body.getName().str();
    e.entry_symbol = entry.getName().str();
    e.binding_count = body->getAttrOfType<ArrayAttr>(kBindingDimsAttr).size();
    e.constant_count = entry->getAttrOfType<IntegerAttr>("kiln.push_constant_words").getInt();
    if (auto loc = body->getAttrOfType<StringAttr>(kSourceLocationAttr)) e.source_location = loc.str();
    e.distributed = body->hasAttr(kDistributedAttr);
    if (auto sites = body->getAttrOfType<ArrayAttr>(kIndexCheckSitesAttr)) {
      for (Attribute site : sites) e.check_sites.push_back(cast<StringAttr>(site).str());
    }
    exports.push_back(std::move(e));
  }
  return exports;
}

}  // namespace

void RegisterCompilerPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerAllPasses();
    registerKilnPasses();
    cpu::registerKilnCpuPasses();
  });
}

void RegisterCompilerDialects(DialectRegistry& registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<KilnDialect>();
  RegisterInputDialects(registry);
  cpu::RegisterLinalgExtInterfaces(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

FailureOr<std::vector<uint8_t>> CompileSource(MLIRContext& context, llvm::SourceMgr& sources,
                                              const CompileOptions& options) {
  if (options.target != "cpu") {
    return emitError(UnknownLoc::get(&context)) << "unknown --target '" << options.target
                                                << "'; this compiler targets: cpu",
           failure();
  }
  if (!options.target_cpu.empty() && options.target_cpu != "host" && !cpu::IsKnownCpu(options.target_cpu)) {
    return emitError(UnknownLoc::get(&context)) << "unknown --target-cpu '" << options.target_cpu
                                                << "'; expected 'host' or an x86-64 CPU name such as znver3 or "
                                                   "x86-64-v3",
           failure();
  }
  RegisterCompilerPasses();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sources, &context);
  if (!module) return failure();

  PassManager host_pm(&context);
  ConfigureDumps(host_pm, options);
  BuildHostPipeline(host_pm, options);
  if (failed(host_pm.run(*module))) return failure();

  HostExecutable executable{"kiln_executable", "elf-x86_64", {}, {}};
  if (ModuleOp executables = FindExecutables(*module)) {
    if (!options.dump_dispatches_dir.empty() && failed(DumpDispatches(executables, options.dump_dispatches_dir))) {
      return failure();
    }
    PassManager bufferize_pm(&context);
    ConfigureDumps(bufferize_pm, options);
    cpu::BuildCpuBufferizePipeline(bufferize_pm, cpu::VectorRegisterBits({options.target_cpu}),
                                   options.check_indices);
    if (failed(bufferize_pm.run(executables))) return failure();
    std::vector<cpu::CpuExport> exports = CollectExports(executables);
    PassManager lower_pm(&context);
    ConfigureDumps(lower_pm, options);
    cpu::BuildCpuLowerToLLVMPipeline(lower_pm);
    if (failed(lower_pm.run(executables))) return failure();
    FailureOr<std::vector<uint8_t>> elf = cpu::EmitCpuElf(executables, exports, {options.target_cpu});
    if (failed(elf)) return failure();
    executable.data = std::move(*elf);
    for (const cpu::CpuExport& e : exports) {
      executable.exports.push_back({e.name, e.binding_count, e.constant_count, e.distributed});
    }
  }
  return WriteHostModule(*module, executable);
}

}  // namespace kiln::compiler
