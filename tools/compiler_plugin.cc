#include "tools/compiler_plugin.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>

namespace kiln::tools {

namespace {

// Candidate paths, in order of preference.
std::vector<std::string> PluginPaths() {
  if (const char* env = std::getenv("KILN_COMPILER_PLUGIN"); env && *env) return {env};
  std::vector<std::string> paths;
  std::error_code ignored;
  std::filesystem::path self = std::filesystem::canonical("/proc/self/exe", ignored);
  if (!self.empty()) {
    for (const std::filesystem::path& dir : {self.parent_path(), self.parent_path().parent_path() / "lib"}) {
      paths.push_back((dir / kCompilerPluginLibrary).string());
    }
  }
  // Linked into a shared object (the Python extension): beside that object too.
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&PluginPaths), &info) && info.dli_fname) {
    std::filesystem::path object = std::filesystem::canonical(info.dli_fname, ignored);
    if (!object.empty() && object != self) paths.push_back((object.parent_path() / kCompilerPluginLibrary).string());
  }
  return paths;
}

StatusOr<const CompilerPlugin*> Load() {
  std::string tried;
  for (const std::string& path : PluginPaths()) {
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) {
      tried += (tried.empty() ? "" : ", ") + path;
      continue;
    }
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) return UnavailableError("cannot load the compiler plugin ", path, ": ", dlerror());
    auto entry = reinterpret_cast<const CompilerPlugin* (*)()>(dlsym(library, kCompilerPluginSymbol));
    const CompilerPlugin* plugin = entry ? entry() : nullptr;
    if (!plugin) return UnavailableError("the compiler plugin ", path, " has no ", kCompilerPluginSymbol);
    if (plugin->version != kCompilerPluginVersion) {
      return UnavailableError("the compiler plugin ", path, " is version ", plugin->version, "; these tools need ",
                              kCompilerPluginVersion, " (it comes from another build)");
    }
    return plugin;  // never unloaded: its table lives as long as the process
  }
  return UnavailableError("compiling .mlir needs the compiler plugin ", kCompilerPluginLibrary,
                          ", not found (looked at ", tried.empty() ? std::string("nothing") : tried,
                          "; KILN_COMPILER_PLUGIN names it); compile with kiln-compile and pass the .kiln file");
}

}  // namespace

StatusOr<const CompilerPlugin*> LoadCompilerPlugin() {
  static std::once_flag once;
  static StatusOr<const CompilerPlugin*>* loaded = nullptr;
  std::call_once(once, [] { loaded = new StatusOr<const CompilerPlugin*>(Load()); });
  return *loaded;
}

}  // namespace kiln::tools
