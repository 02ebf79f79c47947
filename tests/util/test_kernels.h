// Access to the kernels built from tests/kernels for tests and benchmarks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "hal/device.h"

namespace kiln::testing {

// Bytes of build/lib/kernels/<name>.so.
StatusOr<std::vector<uint8_t>> ReadKernelFile(const std::string& name);

// What a GPU executable container says of its code (hal/abi/gpu_executable.fbs).
struct GpuContainerOptions {
  std::string target = "gfx942";
  uint32_t wavefront_size = 64;
  uint32_t abi_version = 0;  // 0: the current KILN_GPU_KERNEL_ABI_VERSION
  std::vector<uint8_t> hsaco;
  std::vector<uint8_t> host_twin;
};
// A container holding the GPU test kernels' metadata (tests/kernels/gpu_test_kernels.def).
std::vector<uint8_t> GpuTestContainer(const GpuContainerOptions& options);
// The GPU test kernels' host twin for `chip` in a container, as the compiler would write it.
StatusOr<std::vector<uint8_t>> GpuTestKernels(const std::string& chip, uint32_t wavefront_size);

// Loads the test kernels on `device`: build/lib/kernels/<name>.so on CPU devices; on GPU
// devices (name "test_kernels" only) the GPU test kernels for the device's chip.
StatusOr<Ref<hal::Executable>> LoadKernelLibrary(hal::Device& device, const std::string& name = "test_kernels");

}  // namespace kiln::testing
