#include "tools/executable_files.h"

#include "hal/abi/gpu_executable_generated.h"
#include "hal/executable.h"
#include "vm/module_generated.h"

namespace kiln::tools {

namespace {

// The GPU container of `def`, verified.
StatusOr<const gpu_abi::GpuExecutableDef*> GpuContainer(const vm::fb::ExecutableDef& def) {
  if (!def.data() || def.data()->size() < 8 || !gpu_abi::GpuExecutableDefBufferHasIdentifier(def.data()->data())) {
    return InvalidArgumentError("executable '", def.name()->string_view(), "' has format '",
                                hal::kExecutableFormatAmdgpu, "' but is not a GPU executable container");
  }
  flatbuffers::Verifier verifier(def.data()->data(), def.data()->size());
  if (!gpu_abi::VerifyGpuExecutableDefBuffer(verifier)) {
    return InvalidArgumentError("the GPU executable container of '", def.name()->string_view(), "' is malformed");
  }
  return gpu_abi::GetGpuExecutableDef(def.data()->data());
}

bool IsGpu(const vm::fb::ExecutableDef& def) {
  return def.format() && def.format()->string_view() == hal::kExecutableFormatAmdgpu;
}

template <typename Vector>
std::vector<uint8_t> Bytes(const Vector* v) {
  return v ? std::vector<uint8_t>(v->begin(), v->end()) : std::vector<uint8_t>();
}

}  // namespace

StatusOr<std::vector<ExecutableFile>> ExecutableFiles(const vm::Module& module) {
  std::vector<ExecutableFile> files;
  const auto* defs = module.def().executables();
  for (uint32_t i = 0; defs && i < defs->size(); ++i) {
    const vm::fb::ExecutableDef& def = *defs->Get(i);
    std::string name(def.name()->string_view());
    if (!IsGpu(def)) {
      files.push_back({name + ".so", Bytes(def.data())});
      continue;
    }
    KILN_ASSIGN_OR_RETURN(const gpu_abi::GpuExecutableDef* gpu, GpuContainer(def));
    std::string chip = gpu->target()->str();
    if (gpu->hsaco() && gpu->hsaco()->size()) files.push_back({name + "." + chip + ".hsaco", Bytes(gpu->hsaco())});
    if (gpu->host_twin() && gpu->host_twin()->size()) {
      files.push_back({name + "." + chip + ".twin.so", Bytes(gpu->host_twin())});
    }
  }
  return files;
}

StatusOr<std::string> DescribeGpuKernels(const vm::Module& module) {
  std::string out;
  const auto* defs = module.def().executables();
  for (uint32_t i = 0; defs && i < defs->size(); ++i) {
    const vm::fb::ExecutableDef& def = *defs->Get(i);
    if (!IsGpu(def)) continue;
    KILN_ASSIGN_OR_RETURN(const gpu_abi::GpuExecutableDef* gpu, GpuContainer(def));
    for (uint32_t k = 0; gpu->exports() && k < gpu->exports()->size(); ++k) {
      const gpu_abi::GpuExportDef* e = gpu->exports()->Get(k);
      std::string size;
      for (uint32_t d = 0; e->workgroup_size() && d < e->workgroup_size()->size(); ++d) {
        size += StrCat(d ? "x" : "", e->workgroup_size()->Get(d));
      }
      out += StrCat("  ", gpu->target()->string_view(), " ", e->name()->string_view(), ": workgroup ", size, ", VGPR ",
                    e->vgpr_count(), ", SGPR ", e->sgpr_count(), ", AGPR ", e->agpr_count(), ", LDS ",
                    e->local_memory_bytes(), " B, scratch ", e->scratch_bytes(), " B/work-item, occupancy ",
                    e->waves_per_simd(), " waves per SIMD\n");
    }
  }
  return out;
}

}  // namespace kiln::tools
