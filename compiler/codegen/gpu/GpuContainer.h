// Writes the GPU executable container (hal/abi/gpu_executable.fbs, format "amdgpu-hsaco"):
// the code object, its host twin and the export table the driver checks them against.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/utils/WorkgroupBound.h"

#include "compiler/codegen/gpu/GpuTarget.h"

namespace kiln::compiler::gpu {

struct GpuExport {
  std::string name;  // the kernel; its symbol is name + ".kd"
  uint32_t binding_count = 0;
  uint32_t constant_count = 0;  // 32-bit push-constant words
  uint32_t workgroup_size[3] = {1, 1, 1};
  uint32_t local_memory_bytes = 0;
  std::string source_location;
  // From the code object's metadata (KernelResources) and WavesPerSimd.
  uint32_t vgpr_count = 0, sgpr_count = 0, agpr_count = 0, scratch_bytes = 0, waves_per_simd = 0;
  bool distributed = false;  // may run as any number of workgroups (not in the container)
  std::optional<WorkgroupBound> workgroup_bound;  // of a distributed kernel, when known (not in the container)
  std::vector<std::string> check_sites;  // index check sites (checked mode); the kernel then takes the records
};

std::vector<uint8_t> WriteGpuContainer(const GpuTarget& target, const std::vector<GpuExport>& exports,
                                       const std::vector<uint8_t>& hsaco, const std::vector<uint8_t>& host_twin);

}  // namespace kiln::compiler::gpu
