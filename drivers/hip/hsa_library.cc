#include "drivers/hip/hsa_library.h"

#include <dlfcn.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <vector>

namespace kiln::hip {
namespace {

std::string DlError() {
  const char* error = dlerror();
  return error ? error : "unknown dlopen error";
}

StatusOr<std::unique_ptr<HsaLibrary>> Load(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return UnavailableError("cannot load the HSA runtime '", path, "': ", DlError());
  auto library = std::make_unique<HsaLibrary>();
  library->path = path;
#define KILN_HSA_FN(name)                                                                             \
  library->name = reinterpret_cast<decltype(library->name)>(dlsym(handle, #name));                  \
  if (!library->name) {                                                                               \
    return UnavailableError("the HSA runtime '", path, "' lacks the function " #name " that kiln needs"); \
  }
#include "drivers/hip/hsa_symbols.def"
#undef KILN_HSA_FN
  library->sim_last_error = reinterpret_cast<const char* (*)()>(dlsym(handle, "kiln_hsa_sim_last_error"));
  library->sim_last_dispatch_counts = reinterpret_cast<decltype(library->sim_last_dispatch_counts)>(
      dlsym(handle, "kiln_hsa_sim_last_dispatch_counts"));
  library->sim_dispatches_completed = reinterpret_cast<decltype(library->sim_dispatches_completed)>(
      dlsym(handle, "kiln_hsa_sim_dispatches_completed"));
  // The handle is deliberately never closed (see Open).
  return library;
}

}  // namespace

StatusOr<const HsaLibrary*> HsaLibrary::Open(const std::string& path) {
  static std::mutex mutex;
  static auto* libraries = new std::map<std::string, std::unique_ptr<HsaLibrary>>();
  std::lock_guard lock(mutex);
  if (auto it = libraries->find(path); it != libraries->end()) return it->second.get();
  KILN_ASSIGN_OR_RETURN(std::unique_ptr<HsaLibrary> library, Load(path));
  const HsaLibrary* result = library.get();
  libraries->emplace(path, std::move(library));
  return result;
}

std::string HsaLibrary::Describe(hsa_status_t status) const {
  const char* text = nullptr;
  std::string out = StrCat("HSA status 0x", std::hex, static_cast<uint32_t>(status));
  if (hsa_status_string(status, &text) == HSA_STATUS_SUCCESS && text && *text) out = StrCat(out, " (", text, ")");
  if (sim_last_error) {
    if (const char* detail = sim_last_error(); detail && *detail) out = StrCat(out, ": ", detail);
  }
  return out;
}

Status HsaLibrary::Check(hsa_status_t status, std::string_view what) const {
  if (status == HSA_STATUS_SUCCESS) return OkStatus();
  std::string text = StrCat(what, " failed: ", Describe(status));
  switch (status) {
    case HSA_STATUS_ERROR_OUT_OF_RESOURCES:
    case HSA_STATUS_ERROR_INVALID_ALLOCATION:  // larger than the pool can ever give
      return ResourceExhaustedError(text);
    case HSA_STATUS_ERROR_INVALID_ARGUMENT:
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT:
    case HSA_STATUS_ERROR_INVALID_ISA:
    case HSA_STATUS_ERROR_INVALID_ISA_NAME:
    case HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS:
      return InvalidArgumentError(text);
    default:
      return UnavailableError(text);
  }
}

std::string DefaultHsaLibraryPath() {
  if (const char* env = std::getenv("KILN_HSA_LIBRARY"); env && *env) return env;
  return "libhsa-runtime64.so.1";
}

std::string DefaultSimulatorLibraryPath() {
  if (const char* env = std::getenv("KILN_HSA_SIM_LIBRARY"); env && *env) return env;
  constexpr const char* kName = "libkiln_hsa_sim.so";
  // The binary that holds this code: a shared library (libkiln.so) names itself through
  // dladdr; the main program's name there is argv[0], so it is read from /proc/self/exe.
  std::vector<std::filesystem::path> binaries = {"/proc/self/exe"};
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&DefaultSimulatorLibraryPath), &info) && info.dli_fname &&
      info.dli_fname[0] == '/') {
    binaries.insert(binaries.begin(), info.dli_fname);
  }
  for (const std::filesystem::path& binary : binaries) {
    std::error_code ignored;
    std::filesystem::path self = std::filesystem::canonical(binary, ignored);
    if (self.empty()) continue;
    for (const std::filesystem::path& dir : {self.parent_path(), self.parent_path().parent_path() / "lib"}) {
      std::filesystem::path candidate = dir / kName;
      if (std::filesystem::exists(candidate, ignored)) return candidate.string();
    }
  }
  return kName;  // the dynamic loader's search path
}

}  // namespace kiln::hip
