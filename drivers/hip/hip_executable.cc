#include "drivers/hip/hip_executable.h"

#include <set>

#include "hal/abi/gpu_executable_generated.h"
#include "hal/abi/gpu_kernel_abi.h"

namespace kiln::hip {
namespace {

constexpr uint32_t kMaxExports = 1u << 16;
constexpr uint32_t kMaxBindings = 64;
constexpr uint32_t kMaxConstants = 1024;

uint32_t AlignUp(uint32_t value, uint32_t alignment) { return (value + alignment - 1) / alignment * alignment; }

StatusOr<const gpu_abi::GpuExecutableDef*> ParseContainer(std::span<const uint8_t> data) {
  if (data.size() < 8 || !gpu_abi::GpuExecutableDefBufferHasIdentifier(data.data())) {
    return InvalidArgumentError("it is not a kiln GPU executable (no 'KGPU' container identifier)");
  }
  flatbuffers::Verifier verifier(data.data(), data.size());
  if (!gpu_abi::VerifyGpuExecutableDefBuffer(verifier)) {
    return InvalidArgumentError("its GPU executable container is corrupt (flatbuffer verification failed)");
  }
  const gpu_abi::GpuExecutableDef* def = gpu_abi::GetGpuExecutableDef(data.data());
  if (def->abi_version() != KILN_GPU_KERNEL_ABI_VERSION) {
    return InvalidArgumentError("it uses GPU kernel ABI version ", def->abi_version(), "; this runtime supports version ",
                                KILN_GPU_KERNEL_ABI_VERSION);
  }
  return def;
}

StatusOr<std::vector<hal::ExportInfo>> ReadExports(const gpu_abi::GpuExecutableDef& def, const GpuAgent& gpu) {
  std::vector<hal::ExportInfo> exports;
  const auto* defs = def.exports();
  if (defs && defs->size() > kMaxExports) {
    return InvalidArgumentError("declares ", defs->size(), " exports; the limit is ", kMaxExports);
  }
  std::set<std::string> names;
  for (uint32_t i = 0; defs && i < defs->size(); ++i) {
    const gpu_abi::GpuExportDef* e = defs->Get(i);
    hal::ExportInfo info;
    info.name = e->name()->str();
    auto where = [&] { return StrCat("in export ", i, " '", info.name, "'"); };
    if (!names.insert(info.name).second) return InvalidArgumentError("duplicate export name").With(where());
    if (e->binding_count() > kMaxBindings) {
      return InvalidArgumentError(e->binding_count(), " bindings exceed the limit of ", kMaxBindings).With(where());
    }
    if (e->constant_count() > kMaxConstants) {
      return InvalidArgumentError(e->constant_count(), " constants exceed the limit of ", kMaxConstants).With(where());
    }
    if (!e->workgroup_size() || e->workgroup_size()->size() != 3) {
      return InvalidArgumentError("the workgroup size must have 3 entries").With(where());
    }
    uint64_t threads = 1;
    for (int d = 0; d < 3; ++d) {
      uint32_t size = e->workgroup_size()->Get(d);
      if (size == 0 || size > 1024) {
        return InvalidArgumentError("workgroup size ", size, " in dimension ", d, " is outside [1, 1024]").With(where());
      }
      info.workgroup_size[d] = size;
      threads *= size;
    }
    if (threads > gpu.max_workgroup_size) {
      return InvalidArgumentError("a workgroup of ", threads, " work-items exceeds ", gpu.name, "'s limit of ",
                                  gpu.max_workgroup_size)
          .With(where());
    }
    if (e->local_memory_bytes() > gpu.lds_bytes) {
      return InvalidArgumentError("needs ", e->local_memory_bytes(), " bytes of LDS; ", gpu.name, " has ", gpu.lds_bytes)
          .With(where());
    }
    info.binding_count = e->binding_count();
    info.constant_count = e->constant_count();
    info.local_memory_bytes = e->local_memory_bytes();
    if (e->source_location()) info.source_location = e->source_location()->str();
    if (const auto* sites = e->check_sites()) {
      for (const flatbuffers::String* site : *sites) info.index_check_sites.push_back(site->str());
    }
    exports.push_back(std::move(info));
  }
  return exports;
}

}  // namespace

StatusOr<Ref<hal::Executable>> HipExecutable::Load(const void* device_tag, std::shared_ptr<HsaRuntime> runtime,
                                                   const GpuAgent& gpu, const hal::ExecutableParams& params) {
  std::string name(params.debug_name.empty() ? "<unnamed>" : params.debug_name);
  auto context = [&] { return StrCat("while loading executable '", name, "' for ", gpu.name); };
  if (params.format != hal::kExecutableFormatAmdgpu) {
    return InvalidArgumentError("executable format '", params.format, "' is not supported by the hip driver; it loads '",
                                hal::kExecutableFormatAmdgpu, "'")
        .With(context());
  }
  KILN_ASSIGN_OR_RETURN(const gpu_abi::GpuExecutableDef* def, ParseContainer(params.data), context());
  if (def->target()->string_view() != gpu.name) {
    return InvalidArgumentError("its code object is for ", def->target()->string_view(), " but the device is ",
                                gpu.name, " (", gpu.isa, "); compile with --target=", gpu.name)
        .With(context());
  }
  if (def->wavefront_size() != gpu.wavefront_size) {
    return InvalidArgumentError("its code object assumes wave", def->wavefront_size(), " but ", gpu.name, " runs wave",
                                gpu.wavefront_size)
        .With(context());
  }
  KILN_ASSIGN_OR_RETURN(std::vector<hal::ExportInfo> exports, ReadExports(*def, gpu), context());

  const HsaLibrary& hsa = runtime->hsa();
  Ref<HipExecutable> exe(new HipExecutable(device_tag, name, exports, runtime));
  KILN_RETURN_IF_ERROR(exe->LoadCode(*def, gpu), context());
  for (uint32_t i = 0; i < exports.size(); ++i) {
    const hal::ExportInfo& info = exports[i];
    auto where = [&] { return StrCat("in export ", i, " '", info.name, "'; ", context()); };
    std::string symbol_name = info.name + ".kd";
    hsa_executable_symbol_t symbol;
    KILN_RETURN_IF_ERROR(hsa.Check(hsa.hsa_executable_get_symbol_by_name(exe->executable_, symbol_name.c_str(),
                                                                         &gpu.agent, &symbol),
                                   StrCat("looking up the kernel symbol '", symbol_name, "'")),
                         where());
    KernelInfo kernel;
    uint32_t kernarg_size = 0, kernarg_alignment = 0;
    auto query = [&](hsa_executable_symbol_info_t attribute, void* out, const char* what) {
      return hsa.Check(hsa.hsa_executable_symbol_get_info(symbol, attribute, out), StrCat("querying the kernel's ", what));
    };
    KILN_RETURN_IF_ERROR(query(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kernel.kernel_object, "object"), where());
    KILN_RETURN_IF_ERROR(query(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg_size, "kernarg size"),
                         where());
    KILN_RETURN_IF_ERROR(query(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT, &kernarg_alignment,
                               "kernarg alignment"),
                         where());
    KILN_RETURN_IF_ERROR(query(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &kernel.group_segment_size,
                               "group segment size"),
                         where());
    KILN_RETURN_IF_ERROR(query(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &kernel.private_segment_size,
                               "private segment size"),
                         where());
    // kiln fills exactly the ABI's block: a kernel that wants more (hidden arguments) or a
    // stricter alignment than the block gets would read garbage on the GPU.
    bool checked = !info.index_check_sites.empty();
    kernel.kernarg_size = kiln_gpu_kernarg_size(info.binding_count, info.constant_count, checked);
    if (kernarg_size < kernel.kernarg_size || kernarg_size > AlignUp(kernel.kernarg_size, KILN_GPU_KERNARG_ALIGNMENT)) {
      return InvalidArgumentError("the kernel takes ", kernarg_size, " bytes of arguments but kiln's GPU kernel ABI v",
                                  KILN_GPU_KERNEL_ABI_VERSION, " passes ", kernel.kernarg_size, " for ",
                                  info.binding_count, " bindings and ", info.constant_count, " constants",
                                  checked ? " and the index check records" : "",
                                  " (was it compiled with hidden arguments?)")
          .With(where());
    }
    if (kernarg_alignment == 0 || (kernarg_alignment & (kernarg_alignment - 1)) != 0 ||
        kernarg_alignment > KILN_GPU_KERNARG_ALIGNMENT) {
      return InvalidArgumentError("the kernel wants its arguments aligned to ", kernarg_alignment,
                                  " bytes; kiln aligns them to ", KILN_GPU_KERNARG_ALIGNMENT)
          .With(where());
    }
    if (kernel.group_segment_size > gpu.lds_bytes) {
      return InvalidArgumentError("the kernel uses ", kernel.group_segment_size, " bytes of LDS; ", gpu.name, " has ",
                                  gpu.lds_bytes)
          .With(where());
    }
    exe->kernels_.push_back(kernel);
  }
  return Ref<hal::Executable>(std::move(exe));
}

// Loads one code object into a new reader and executable; on failure nothing is kept.
hsa_status_t HipExecutable::LoadOne(const flatbuffers::Vector<uint8_t>& code, const GpuAgent& gpu, Status* status) {
  const HsaLibrary& hsa = runtime_->hsa();
  code_object_.assign(code.begin(), code.end());
  hsa_status_t result = hsa.hsa_code_object_reader_create_from_memory(code_object_.data(), code_object_.size(), &reader_);
  const char* step = "hsa_code_object_reader_create_from_memory";
  if (result == HSA_STATUS_SUCCESS) {
    result = hsa.hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr,
                                           &executable_);
    step = "hsa_executable_create_alt";
  }
  if (result == HSA_STATUS_SUCCESS) {
    result = hsa.hsa_executable_load_agent_code_object(executable_, gpu.agent, reader_, nullptr, nullptr);
    step = "loading the code object";
  }
  if (result == HSA_STATUS_SUCCESS) {
    result = hsa.hsa_executable_freeze(executable_, nullptr);
    step = "hsa_executable_freeze";
  }
  if (result != HSA_STATUS_SUCCESS) {
    *status = hsa.Check(result, step);  // before the clean-up calls replace the runtime's last error
    if (executable_.handle) hsa.hsa_executable_destroy(executable_);
    if (reader_.handle) hsa.hsa_code_object_reader_destroy(reader_);
    executable_ = {};
    reader_ = {};
    code_object_.clear();
  }
  return result;
}

// The HSACO first: it is what a GPU runs, and a runtime that cannot run it (hip-sim outside
// KILN_HSA_SIM_MODE=code-object) refuses it as INVALID_CODE_OBJECT or INVALID_ISA. Only on that
// refusal does the host twin get its turn; the runtime's answer decides, not who it is.
Status HipExecutable::LoadCode(const gpu_abi::GpuExecutableDef& def, const GpuAgent& gpu) {
  const flatbuffers::Vector<uint8_t>* hsaco = def.hsaco();
  const flatbuffers::Vector<uint8_t>* twin = def.host_twin();
  bool has_hsaco = hsaco && hsaco->size() > 0, has_twin = twin && twin->size() > 0;
  if (!has_hsaco && !has_twin) return InvalidArgumentError("it has no HSACO and no host twin");
  Status hsaco_status = OkStatus();
  if (has_hsaco) {
    hsa_status_t result = LoadOne(*hsaco, gpu, &hsaco_status);
    if (result == HSA_STATUS_SUCCESS) return OkStatus();
    bool refused = result == HSA_STATUS_ERROR_INVALID_CODE_OBJECT || result == HSA_STATUS_ERROR_INVALID_ISA;
    if (!refused || !has_twin) return hsaco_status;
  }
  Status twin_status = OkStatus();
  if (LoadOne(*twin, gpu, &twin_status) == HSA_STATUS_SUCCESS) return OkStatus();
  if (!has_hsaco) return twin_status;
  return InvalidArgumentError("the HSA runtime accepts neither its HSACO (", hsaco_status.message(),
                              ") nor its host twin (", twin_status.message(), ")");
}

HipExecutable::~HipExecutable() {
  const HsaLibrary& hsa = runtime_->hsa();
  if (executable_.handle) hsa.hsa_executable_destroy(executable_);
  if (reader_.handle) hsa.hsa_code_object_reader_destroy(reader_);
}

}  // namespace kiln::hip
