#include "drivers/cpu/cpu_executable.h"

#include <set>

#include "drivers/cpu/processor_state.h"

namespace kiln::cpu {
namespace {

constexpr uint32_t kMaxExports = 1u << 16;
constexpr uint32_t kMaxBindings = 64;
constexpr uint32_t kMaxConstants = 1024;
constexpr uint32_t kMaxCheckSites = 1u << 16;

StatusOr<std::vector<hal::ExportInfo>> ReadExports(const kiln_executable_library_v2_t& library,
                                                   const ExecutableLimits& limits) {
  if (library.export_count > kMaxExports) {
    return InvalidArgumentError("declares ", library.export_count, " exports; the limit is ", kMaxExports);
  }
  if (library.export_count > 0 && library.exports == nullptr) {
    return InvalidArgumentError("declares ", library.export_count, " exports but no export table");
  }
  std::vector<hal::ExportInfo> exports;
  std::set<std::string> names;
  for (uint32_t i = 0; i < library.export_count; ++i) {
    const kiln_export_v2_t& e = library.exports[i];
    if (e.name == nullptr || e.entry == nullptr) return InvalidArgumentError("export ", i, " has no name or no entry");
    hal::ExportInfo info;
    info.name = e.name;
    auto where = [&] { return StrCat("in export ", i, " '", info.name, "'"); };
    if (!names.insert(info.name).second) return InvalidArgumentError("duplicate export name").With(where());
    if (e.binding_count > kMaxBindings) {
      return InvalidArgumentError(e.binding_count, " bindings exceed the limit of ", kMaxBindings).With(where());
    }
    if (e.constant_count > kMaxConstants) {
      return InvalidArgumentError(e.constant_count, " constants exceed the limit of ", kMaxConstants).With(where());
    }
    if (e.local_memory_bytes > limits.max_local_memory_bytes) {
      return InvalidArgumentError("needs ", e.local_memory_bytes, " bytes of workgroup-local memory; the device has ",
                                  limits.max_local_memory_bytes)
          .With(where());
    }
    for (int d = 0; d < 3; ++d) {
      if (e.workgroup_size[d] == 0) return InvalidArgumentError("workgroup size is zero in dimension ", d).With(where());
      info.workgroup_size[d] = e.workgroup_size[d];
    }
    info.binding_count = e.binding_count;
    info.constant_count = e.constant_count;
    info.local_memory_bytes = e.local_memory_bytes;
    if (e.source_location) info.source_location = e.source_location;
    if (e.check_site_count > kMaxCheckSites) {
      return InvalidArgumentError(e.check_site_count, " index check sites exceed the limit of ", kMaxCheckSites)
          .With(where());
    }
    if (e.check_site_count > 0 && e.check_sites == nullptr) {
      return InvalidArgumentError("declares ", e.check_site_count, " index check sites but no table").With(where());
    }
    for (uint32_t s = 0; s < e.check_site_count; ++s) {
      if (e.check_sites[s] == nullptr) return InvalidArgumentError("index check site ", s, " is NULL").With(where());
      info.index_check_sites.emplace_back(e.check_sites[s]);
    }
    exports.push_back(std::move(info));
  }
  return exports;
}

}  // namespace

StatusOr<Ref<hal::Executable>> CpuExecutable::Load(const void* device_tag, const hal::ExecutableParams& params,
                                                   const ExecutableLimits& limits) {
  std::string name(params.debug_name.empty() ? "<unnamed>" : params.debug_name);
  auto context = [&] { return StrCat("while loading executable '", name, "'"); };
  if (params.format != hal::kExecutableFormatElfX86_64) {
    return InvalidArgumentError("executable format '", params.format, "' is not supported by the CPU drivers; they load '",
                                hal::kExecutableFormatElfX86_64, "'")
        .With(context());
  }
  StatusOr<std::unique_ptr<SharedObject>> object = SharedObject::LoadFromMemory(params.data, name);
  if (!object.ok()) return object.status().With(context());
  auto fail = [&](Status status) { return status.With(context()); };
  auto query = reinterpret_cast<kiln_executable_query_fn_t>((*object)->Symbol(KILN_EXECUTABLE_QUERY_SYMBOL));
  if (!query) return fail(InvalidArgumentError("it does not export '", KILN_EXECUTABLE_QUERY_SYMBOL, "'"));
  const kiln_executable_library_v2_t* library = query(KILN_EXECUTABLE_ABI_VERSION);
  if (!library) {
    return fail(InvalidArgumentError("it does not provide executable ABI version ", KILN_EXECUTABLE_ABI_VERSION,
                                     ", the version this runtime supports"));
  }
  if (library->abi_version != KILN_EXECUTABLE_ABI_VERSION) {
    return fail(InvalidArgumentError("it provides executable ABI version ", library->abi_version,
                                     "; this runtime supports version ", KILN_EXECUTABLE_ABI_VERSION));
  }
  if (auto* needs = static_cast<const uint32_t*>((*object)->Symbol(KILN_EXECUTABLE_NEEDS_SYMBOL))) {
    if (Status state = ObtainProcessorState(*needs); !state.ok()) return fail(state);
  }
  StatusOr<std::vector<hal::ExportInfo>> exports = ReadExports(*library, limits);
  if (!exports.ok()) return fail(exports.status());
  return Ref<hal::Executable>(
      new CpuExecutable(device_tag, std::move(name), std::move(*exports), std::move(*object), library));
}

CpuExecutable::~CpuExecutable() = default;

}  // namespace kiln::cpu
