// Executables for the CPU drivers: x86-64 ELF shared objects loaded from memory (a memfd
// opened with dlopen), described by the query function of hal/abi/executable_abi.h.
#pragma once

#include <memory>
#include <span>

#include "base/shared_object.h"
#include "hal/abi/executable_abi.h"
#include "hal/executable.h"

namespace kiln::cpu {

struct ExecutableLimits {
  uint32_t max_local_memory_bytes;
};

class CpuExecutable final : public hal::Executable {
 public:
  // Validates and loads `params.data`; the errors name the executable and what is wrong.
  static StatusOr<Ref<hal::Executable>> Load(const void* device_tag, const hal::ExecutableParams& params,
                                             const ExecutableLimits& limits);
  ~CpuExecutable() override;

  // Precondition: ordinal < exports().size().
  const kiln_export_v2_t& entry(uint32_t ordinal) const { return library_->exports[ordinal]; }

 private:
  CpuExecutable(const void* device_tag, std::string name, std::vector<hal::ExportInfo> exports,
                std::unique_ptr<SharedObject> object, const kiln_executable_library_v2_t* library)
      : Executable(device_tag, std::move(name), std::move(exports)), object_(std::move(object)), library_(library) {}

  std::unique_ptr<SharedObject> object_;
  const kiln_executable_library_v2_t* library_;
};

}  // namespace kiln::cpu
