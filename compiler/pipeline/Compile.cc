#include "compiler/pipeline/Compile.h"

#include <mutex>

#include "compiler/codegen/cpu/ElfEmitter.h"
#include "compiler/codegen/cpu/LinalgExtInterfaces.h"
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/codegen/gpu/GpuExecutable.h"
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/input/InputDialects.h"
#include "compiler/dialect/KilnDialect.h"
#include "compiler/host/HostModuleWriter.h"
#include "compiler/pipeline/DispatchBenchmarks.h"
#include "compiler/transforms/Passes.h"
#include "compiler/utils/Pipelines.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"

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
// Parameters are exported right after the input lowering, before anything folds the
// constants, and the splat archive written once sub-byte parameters are bound as bytes.
// With GPU targets, their flash-attention strategy computes the attention ops it can take
// whole (kiln-gpu-keep-flash-attention), unless the CPU, which decomposes them, is a target
// too (one dispatch formation serves every target). With the CPU alone, its flash lowering
// keeps those it takes whole (kiln-cpu-keep-flash-attention). Likewise, without the CPU,
// sorts whose lines exceed the LDS become sorted runs and merge passes
// (kiln-gpu-split-long-sorts), and such topks the topks of chunks and of their candidates
// (kiln-gpu-split-long-topks); with only CPUs, long single lines become sorted runs and
// merge passes that the workers share (kiln-cpu-split-long-sorts).
// With only CPUs, f16 matmuls (on CPUs without AVX512_FP16) and bf16 ones (no x86 CPU adds
// bf16) sum in f32 and round once (kiln-widen-matmul-accumulators), before elementwise
// fusion so the rounding joins the consumers.
// Long reductions with few outputs are split into chunk partials
// (kiln-split-long-reductions) for every target, planned for the GPU when a GPU is one: a
// GPU reduces each output on one workgroup, a CPU on one worker.
void BuildHostPipeline(OpPassManager& pm, const CompileOptions& options, bool gpu, bool cpu) {
  pm.addPass(createCheckInputOps());
  pm.addPass(createConvertUtilOps());
  pm.addPass(createLowerIreeInput());
  pm.addPass(createLowerStablehlo());
  pm.addPass(createResolveTosaInexactRounding());
  AddPipeline(pm, "func.func(tosa-to-scf,tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg,"
                  "tosa-to-arith,tosa-to-tensor)");
  pm.addPass(createLowerTosaApplyScale());
  if (!options.export_parameters_path.empty()) {
    pm.addPass(createExportParameters(ExportParametersOptions{
        options.export_parameters_path, options.export_parameters_scope, options.export_parameters_minimum_size}));
  }
  pm.addPass(createDecomposeAggregates());
  pm.addPass(createElideEmptyComputations());
  pm.addPass(createExpandSubByteBitcasts());
  if (!options.splat_parameters_path.empty()) {
    pm.addPass(createSplatParameters(SplatParametersOptions{options.splat_parameters_path}));
  }
  if (options.check_indices) pm.addPass(createCheckExtractIndices());
  if (gpu) pm.addPass(gpu::createKeepFlashAttention(gpu::KeepFlashAttentionOptions{cpu}));
  if (cpu && !gpu) pm.addPass(cpu::createKeepFlashAttention());
  if (gpu && !cpu) {
    pm.addPass(gpu::createSplitLongSorts());
    pm.addPass(gpu::createSplitLongTopks());
  }
  if (cpu && !gpu) pm.addPass(cpu::createSplitLongSorts());
  pm.addPass(createDecomposeLinalgExt(DecomposeLinalgExtOptions{options.check_indices}));
  if (cpu && !gpu) {
    bool native_f16 = cpu::HasCpuFeatures({options.target_cpu}, "+avx512f,+avx512fp16");
    pm.addPass(createWidenMatmulAccumulators(WidenMatmulAccumulatorsOptions{/*f16=*/!native_f16, /*bf16=*/true}));
  }
  AddPipeline(pm, "canonicalize,cse,func.func(convert-elementwise-to-linalg)");
  pm.addPass(createFuseElementwiseOps());
  pm.addPass(createFuseDequantization());
  AddPipeline(pm, "canonicalize,cse");
  pm.addPass(createWidenReductionAccumulators());
  pm.addPass(createSplitLongReductions(SplitLongReductionsOptions{/*cpu=*/!gpu}));
  pm.addPass(createFormDispatches());
  pm.addPass(createLowerSubByteBindings());
  pm.addPass(createAnnotateDispatchCosts());
  AddPipeline(pm, "canonicalize,cse,func.func(lower-affine,convert-scf-to-cf,arith-expand),canonicalize,cse");
  pm.addPass(createDedupeDispatches());
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

// The kiln.cost formulas of the dispatch functions (kiln-annotate-dispatch-costs), by name.
llvm::StringMap<vm::DispatchCostSpec> ReadCosts(ModuleOp executables) {
  llvm::StringMap<vm::DispatchCostSpec> costs;
  auto formula = [](DictionaryAttr cost, llvm::StringRef key) -> std::optional<std::vector<vm::CostTerm>> {
    auto terms = cost.getAs<ArrayAttr>(key);
    if (!terms) return std::nullopt;
    std::vector<vm::CostTerm> out;
    for (Attribute t : terms) {
      ArrayRef<int64_t> values = cast<DenseI64ArrayAttr>(t).asArrayRef();
      vm::CostTerm term;
      term.coefficient = values.front();
      for (int64_t word : values.drop_front()) term.words.push_back(static_cast<uint32_t>(word));
      out.push_back(std::move(term));
    }
    return out;
  };
  for (func::FuncOp fn : executables.getOps<func::FuncOp>()) {
    auto cost = fn->getAttrOfType<DictionaryAttr>(kCostAttr);
    if (!cost) continue;
    costs[fn.getName()] = {formula(cost, "flops"), formula(cost, "bytes_read"), formula(cost, "bytes_written")};
  }
  return costs;
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
    gpu::registerKilnGpuPasses();
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
  registerGPUDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
}

namespace {

// What --target names: "cpu", AMD GPU chips, or a comma-separated list of them (one binary
// per target in the module; the runtime loads the one its device runs).
struct Targets {
  bool cpu = false;
  std::vector<gpu::GpuTarget> gpus;
};

FailureOr<Targets> ParseTargets(MLIRContext& context, const CompileOptions& options) {
  Targets targets;
  auto error = [&] { return emitError(UnknownLoc::get(&context)); };
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(options.target).split(names, ',');
  for (llvm::StringRef name : names) {
    name = name.trim();
    bool repeated = name == "cpu" ? targets.cpu : llvm::any_of(targets.gpus, [&](const gpu::GpuTarget& t) {
      return t.chip == name;
    });
    if (repeated) return error() << "--target names '" << name << "' twice", failure();
    if (name == "cpu") {
      targets.cpu = true;
    } else if (std::optional<gpu::GpuTarget> chip = gpu::LookupGpuTarget(name)) {
      targets.gpus.push_back(*chip);
    } else {
      return error() << "unknown --target '" << name << "'; this compiler targets: cpu, " << gpu::SupportedGpuChips()
                     << " (or a comma-separated list of them)",
             failure();
    }
  }
  // The runtime picks a module's binary by executable format, and every chip's is
  // amdgpu-hsaco: it could not tell two GPU binaries apart.
  if (targets.gpus.size() > 1) {
    return error() << "--target names " << targets.gpus.size()
                   << " GPU chips; a module holds code for at most one chip (and the CPU)",
           failure();
  }
  if (!options.target_cpu.empty() && options.target_cpu != "host" && !cpu::IsKnownCpu(options.target_cpu)) {
    return error() << "unknown --target-cpu '" << options.target_cpu
                   << "'; expected 'host' or an x86-64 CPU name such as znver3 or x86-64-v3",
           failure();
  }
  return targets;
}

LogicalResult CompileCpuExecutable(ModuleOp executables, const CompileOptions& options, HostExecutable& executable) {
  PassManager bufferize_pm(executables.getContext());
  ConfigureDumps(bufferize_pm, options);
  cpu::BufferizePipelineOptions bufferize;
  bufferize.vector_bits = cpu::VectorRegisterBits({options.target_cpu});
  bufferize.check_indices = options.check_indices;
  bufferize.vector_topk = true;
  bufferize.block_reductions = options.block_reductions;
  bufferize.dot_bf16 = cpu::HasCpuFeatures({options.target_cpu}, "+avx512f,+avx512bf16");
  bufferize.dot_i8 = cpu::HasCpuFeatures({options.target_cpu}, "+avx512f,+avx512vnni");
  bufferize.amx_bf16 = cpu::HasCpuFeatures({options.target_cpu}, "+amx-tile,+amx-bf16");
  bufferize.amx_i8 = cpu::HasCpuFeatures({options.target_cpu}, "+amx-tile,+amx-int8");
  bufferize.f16_vectors = cpu::HasCpuFeatures({options.target_cpu}, "+avx512f,+avx512fp16");
  bufferize.l1_data_bytes = cpu::L1DataCacheBytes({options.target_cpu});
  cpu::BuildCpuBufferizePipeline(bufferize_pm, bufferize);
  if (failed(bufferize_pm.run(executables))) return failure();
  std::vector<cpu::CpuExport> exports = CollectExports(executables);
  PassManager lower_pm(executables.getContext());
  ConfigureDumps(lower_pm, options);
  cpu::BuildCpuLowerToLLVMPipeline(lower_pm);
  if (failed(lower_pm.run(executables))) return failure();
  FailureOr<std::vector<uint8_t>> elf = cpu::EmitCpuElf(executables, exports, {options.target_cpu});
  if (failed(elf)) return failure();
  executable.format = "elf-x86_64";
  executable.data = std::move(*elf);
  for (const cpu::CpuExport& e : exports) {
    executable.exports.push_back({e.name, e.binding_count, e.constant_count, e.distributed});
  }
  return success();
}

LogicalResult CompileGpuExecutable(ModuleOp executables, const gpu::GpuTarget& target, const CompileOptions& options,
                                   HostExecutable& executable, llvm::raw_ostream& report) {
  FailureOr<gpu::GpuExecutable> compiled = gpu::CompileGpuExecutable(
      executables, target, {options.target_cpu}, options.check_indices,
      [&](PassManager& pm) { ConfigureDumps(pm, options); });
  if (failed(compiled)) return failure();
  gpu::PrintResourceReport(report, target, compiled->exports);
  executable.format = "amdgpu-hsaco";
  executable.data = std::move(compiled->container);
  for (const gpu::GpuExport& e : compiled->exports) {
    executable.exports.push_back({e.name, e.binding_count, e.constant_count, e.distributed});
    executable.exports.back().workgroup_bound = e.workgroup_bound;
  }
  return success();
}

LogicalResult WriteReport(ModuleOp module, const std::string& path, llvm::StringRef text) {
  if (path == "-") {
    llvm::outs() << text;
    llvm::outs().flush();
    return success();
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) return module.emitError() << "cannot write the --report file '" << path << "': " << ec.message(), failure();
  os << text;
  return success();
}

// Parses the module in `sources` and runs stages 1-4 on it for `targets`.
FailureOr<OwningOpRef<ModuleOp>> FormHostModule(MLIRContext& context, llvm::SourceMgr& sources,
                                                const CompileOptions& options, const Targets& targets) {
  RegisterCompilerPasses();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sources, &context);
  if (!module) return failure();
  PassManager host_pm(&context);
  ConfigureDumps(host_pm, options);
  BuildHostPipeline(host_pm, options, !targets.gpus.empty(), targets.cpu);
  if (failed(host_pm.run(*module))) return failure();
  return module;
}

// A diagnostic handler that takes remarks unless options.remarks (taken: not shown).
// Registered after the caller's handlers, it sees every diagnostic first; everything else
// falls through to the caller.
auto DropRemarksUnlessAsked(const CompileOptions& options) {
  return [&options](Diagnostic& diagnostic) {
    return success(!options.remarks && diagnostic.getSeverity() == DiagnosticSeverity::Remark);
  };
}

}  // namespace

LogicalResult DumpDispatchBenchmarksOfRun(MLIRContext& context, llvm::SourceMgr& sources,
                                          const CompileOptions& options, const DispatchRuns& runs) {
  ScopedDiagnosticHandler drop_remarks(&context, DropRemarksUnlessAsked(options));
  FailureOr<Targets> targets = ParseTargets(context, options);
  if (failed(targets)) return failure();
  FailureOr<OwningOpRef<ModuleOp>> module = FormHostModule(context, sources, options, *targets);
  if (failed(module)) return failure();
  ModuleOp executables = FindExecutables(**module);
  if (!executables) return (**module).emitError() << "the module makes no dispatch";
  return DumpDispatchBenchmarksOfRun(executables, options.dump_dispatch_benchmarks_dir, runs);
}

FailureOr<std::vector<uint8_t>> CompileSource(MLIRContext& context, llvm::SourceMgr& sources,
                                              const CompileOptions& options) {
  ScopedDiagnosticHandler drop_remarks(&context, DropRemarksUnlessAsked(options));
  FailureOr<Targets> targets = ParseTargets(context, options);
  if (failed(targets)) return failure();
  FailureOr<OwningOpRef<ModuleOp>> formed = FormHostModule(context, sources, options, *targets);
  if (failed(formed)) return failure();
  OwningOpRef<ModuleOp> module = std::move(*formed);

  std::string report;
  llvm::raw_string_ostream report_os(report);
  std::vector<HostExecutable> executables;
  if (ModuleOp executables_module = FindExecutables(*module)) {
    if (!options.dump_dispatches_dir.empty() &&
        failed(DumpDispatches(executables_module, options.dump_dispatches_dir))) {
      return failure();
    }
    if (!options.dump_dispatch_benchmarks_dir.empty() &&
        failed(DumpDispatchBenchmarks(executables_module, options.dump_dispatch_benchmarks_dir))) {
      return failure();
    }
    llvm::StringMap<vm::DispatchCostSpec> costs = ReadCosts(executables_module);
    // Each target lowers its own copy of the dispatch functions.
    auto compile = [&](auto&& compile_for_target) -> LogicalResult {
      OwningOpRef<ModuleOp> copy = executables_module.clone();
      HostExecutable executable{"kiln_executable", "", {}, {}};
      if (failed(compile_for_target(*copy, executable))) return failure();
      for (HostExecutableExport& e : executable.exports) {
        if (auto it = costs.find(e.name); it != costs.end()) e.cost = it->second;
      }
      executables.push_back(std::move(executable));
      return success();
    };
    if (targets->cpu && failed(compile([&](ModuleOp m, HostExecutable& e) {
          return CompileCpuExecutable(m, options, e);
        }))) {
      return failure();
    }
    for (const gpu::GpuTarget& target : targets->gpus) {
      if (failed(compile([&](ModuleOp m, HostExecutable& e) {
            return CompileGpuExecutable(m, target, options, e, report_os);
          }))) {
        return failure();
      }
    }
  } else {
    executables.push_back(HostExecutable{"kiln_executable", "elf-x86_64", {}, {}});
  }
  if (!options.report.empty() && failed(WriteReport(*module, options.report, report))) return failure();
  return WriteHostModule(*module, std::move(executables));
}

}  // namespace kiln::compiler
