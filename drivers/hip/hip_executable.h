// Executables of the hip driver: the "amdgpu-hsaco" container (hal/abi/gpu_executable.fbs)
// loaded through an HSA code object reader into an HSA executable and frozen. The container's
// HSACO is offered first; when the runtime refuses it as a code object it cannot run (hip-sim
// in its default twin mode) the host twin is loaded instead (LoadCode).
//
// Per export it keeps what a dispatch packet needs (kernel object, segment sizes), after
// checking the code object against the container's metadata and kiln's kernel ABI.
#pragma once

#include <memory>
#include <vector>

#include "drivers/hip/hsa_runtime.h"
#include "hal/abi/gpu_executable_generated.h"
#include "hal/executable.h"

namespace kiln::hip {

struct KernelInfo {
  uint64_t kernel_object = 0;
  uint32_t kernarg_size = 0;          // kiln_gpu_kernarg_size(bindings, constants, index checked)
  uint32_t group_segment_size = 0;    // static LDS
  uint32_t private_segment_size = 0;
};

class HipExecutable final : public hal::Executable {
 public:
  // Validates and loads `params` for `gpu`; errors name the executable and what is wrong
  // (another ISA, a kernel whose arguments do not follow the ABI, ...).
  static StatusOr<Ref<hal::Executable>> Load(const void* device_tag, std::shared_ptr<HsaRuntime> runtime,
                                             const GpuAgent& gpu, const hal::ExecutableParams& params);
  ~HipExecutable() override;

  // Precondition: ordinal < exports().size().
  const KernelInfo& kernel(uint32_t ordinal) const { return kernels_[ordinal]; }

 private:
  HipExecutable(const void* device_tag, std::string name, std::vector<hal::ExportInfo> exports,
                std::shared_ptr<HsaRuntime> runtime)
      : Executable(device_tag, std::move(name), std::move(exports)), runtime_(std::move(runtime)) {}

  Status LoadCode(const gpu_abi::GpuExecutableDef& def, const GpuAgent& gpu);
  hsa_status_t LoadOne(const flatbuffers::Vector<uint8_t>& code, const GpuAgent& gpu, Status* status);

  std::shared_ptr<HsaRuntime> runtime_;
  std::vector<uint8_t> code_object_;  // kept for the reader, which reads it in place
  hsa_code_object_reader_t reader_{};
  hsa_executable_t executable_{};
  std::vector<KernelInfo> kernels_;
};

}  // namespace kiln::hip
