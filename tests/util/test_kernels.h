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
// Loads build/lib/kernels/<name>.so on `device`.
StatusOr<Ref<hal::Executable>> LoadKernelLibrary(hal::Device& device, const std::string& name = "test_kernels");

}  // namespace kiln::testing
