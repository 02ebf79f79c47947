#include "compiler/codegen/gpu/GpuExecutable.h"

#include "compiler/codegen/gpu/HsacoEmitter.h"
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/TwinEmitter.h"
#include "compiler/dialect/KilnDialect.h"
#include "hal/abi/gpu_kernel_abi.h"

namespace kiln::compiler::gpu {

namespace {

using namespace mlir;

LogicalResult RunPipeline(ModuleOp module, llvm::function_ref<void(OpPassManager&)> build,
                          llvm::function_ref<void(PassManager&)> configure) {
  PassManager pm(module.getContext());
  configure(pm);
  build(pm);
  return pm.run(module);
}

// The export table, read off the kernels FormKernels added.
std::vector<GpuExport> CollectExports(ModuleOp executables) {
  std::vector<GpuExport> exports;
  SymbolTable symbols(executables);
  for (func::FuncOp kernel : executables.getOps<func::FuncOp>()) {
    if (!kernel->hasAttr(kKernelAttr)) continue;
    // The dispatch's attributes are on its body, or on the kernel a body was inlined into.
    Operation* body = kernel;
    if (auto ref = kernel->getAttrOfType<FlatSymbolRefAttr>(kKernelBodyAttr)) body = symbols.lookup(ref.getValue());
    GpuExport e;
    e.name = kernel.getName().str();
    if (auto sites = body->getAttrOfType<ArrayAttr>(kIndexCheckSitesAttr)) {
      for (Attribute site : sites) e.check_sites.push_back(cast<StringAttr>(site).str());
    }
    for (Type t : kernel.getArgumentTypes()) {
      if (isa<LLVM::LLVMPointerType>(t)) {
        ++e.binding_count;
      } else {
        ++e.constant_count;
      }
    }
    e.constant_count -= 3;  // the workgroup count
    if (!e.check_sites.empty()) --e.binding_count;  // the index check records
    ArrayRef<int32_t> size = kernel->getAttrOfType<DenseI32ArrayAttr>(kWorkgroupSizeAttr).asArrayRef();
    for (int d = 0; d < 3; ++d) e.workgroup_size[d] = static_cast<uint32_t>(size[d]);
    if (auto loc = body->getAttrOfType<StringAttr>(kSourceLocationAttr)) e.source_location = loc.str();
    e.distributed = body->hasAttr(kDistributedAttr);
    if (auto bound = kernel->getAttrOfType<DenseI64ArrayAttr>(kWorkgroupBoundAttr); bound && e.distributed) {
      e.workgroup_bound = WorkgroupBound{bound[0], bound[1], bound[2]};
    }
    exports.push_back(std::move(e));
  }
  return exports;
}

// The code object's description of each export, in export order, checked against the
// kernel ABI: a kernel whose kernarg block differs from the ABI's would read garbage.
FailureOr<std::vector<KernelResources>> MatchKernels(ModuleOp executables, const GpuTarget& target,
                                                     std::vector<GpuExport>& exports,
                                                     const std::vector<KernelResources>& kernels) {
  std::vector<KernelResources> matched;
  for (GpuExport& e : exports) {
    auto it = llvm::find_if(kernels, [&](const KernelResources& k) { return k.name == e.name; });
    if (it == kernels.end()) {
      return executables.emitError() << "the code object has no kernel '" << e.name << "'", failure();
    }
    uint32_t expected = kiln_gpu_kernarg_size(e.binding_count, e.constant_count, !e.check_sites.empty());
    if (it->kernarg_segment_size != expected) {
      return executables.emitError() << "kernel '" << e.name << "' takes " << it->kernarg_segment_size
                                     << " bytes of arguments; the GPU kernel ABI passes " << expected,
             failure();
    }
    e.local_memory_bytes = it->group_segment_size;
    e.vgpr_count = it->vgpr_count;
    e.sgpr_count = it->sgpr_count;
    e.agpr_count = it->agpr_count;
    e.scratch_bytes = it->private_segment_size;
    e.waves_per_simd = WavesPerSimd(target, it->vgpr_count + it->agpr_count, it->sgpr_count, it->group_segment_size,
                                    e.workgroup_size[0] * e.workgroup_size[1] * e.workgroup_size[2]);
    matched.push_back(*it);
  }
  return matched;
}

}  // namespace

void PrintResourceReport(llvm::raw_ostream& os, const GpuTarget& target, const std::vector<GpuExport>& exports) {
  for (const GpuExport& e : exports) {
    os << target.chip << " " << e.name << ": workgroup " << e.workgroup_size[0] << "x" << e.workgroup_size[1] << "x"
       << e.workgroup_size[2] << (e.distributed ? " (distributed)" : " (one workgroup)") << ", VGPR " << e.vgpr_count
       << ", SGPR " << e.sgpr_count << ", AGPR " << e.agpr_count << ", LDS " << e.local_memory_bytes << " B, scratch "
       << e.scratch_bytes << " B/work-item, occupancy " << e.waves_per_simd << "/" << target.max_waves_per_simd
       << " waves per SIMD";
    if (!e.source_location.empty()) os << ", at " << e.source_location;
    if (const std::optional<WorkgroupBound>& bound = e.workgroup_bound) {
      os << "; at most ";
      if (bound->word < 0) {
        int64_t count = std::max<int64_t>(1, llvm::divideCeil(bound->extent, bound->divisor));
        os << count << (count == 1 ? " workgroup" : " workgroups");
      } else {
        os << "ceil(c" << bound->word << " / " << bound->divisor << ") workgroups";
      }
    }
    os << "\n";
  }
}

FailureOr<GpuExecutable> CompileGpuExecutable(ModuleOp executables, const GpuTarget& target,
                                              const cpu::CpuTargetOptions& host, bool check_indices,
                                              llvm::function_ref<void(PassManager&)> configure) {
  if (failed(RunPipeline(
          executables, [&](OpPassManager& pm) { BuildGpuKernelPipeline(pm, target, check_indices); }, configure))) {
    return failure();
  }
  GpuExecutable result;
  result.exports = CollectExports(executables);
  // The twin starts from the same kernel IR; only the last lowering differs.
  OwningOpRef<ModuleOp> twin_module = executables.clone();
  if (failed(RunPipeline(
          executables, [&](OpPassManager& pm) { BuildGpuLowerToRocdlPipeline(pm, target); }, configure))) {
    return failure();
  }
  FailureOr<CodeObject> code = EmitHsaco(executables, target);
  if (failed(code)) return failure();
  FailureOr<std::vector<KernelResources>> resources = MatchKernels(executables, target, result.exports, code->kernels);
  if (failed(resources)) return failure();
  result.resources = std::move(*resources);
  if (failed(RunPipeline(*twin_module, [&](OpPassManager& pm) { BuildHostTwinLowerToLLVMPipeline(pm); }, configure))) {
    return failure();
  }
  FailureOr<std::vector<uint8_t>> twin = EmitHostTwin(*twin_module, target, result.resources, host);
  if (failed(twin)) return failure();
  result.container = WriteGpuContainer(target, result.exports, code->hsaco, *twin);
  return result;
}

}  // namespace kiln::compiler::gpu
