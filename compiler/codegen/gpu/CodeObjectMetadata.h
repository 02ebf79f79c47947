// What an AMDGPU code object's metadata note (NT_AMDGPU_METADATA, msgpack) says about each
// kernel: the figures the driver checks at load and the resource report prints.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace kiln::compiler::gpu {

struct KernelResources {
  std::string name;    // ".name"
  std::string symbol;  // ".symbol": name + ".kd"
  uint32_t kernarg_segment_size = 0;
  uint32_t kernarg_segment_alignment = 0;
  uint32_t group_segment_size = 0;    // static LDS bytes
  uint32_t private_segment_size = 0;  // scratch bytes per work-item
  uint32_t vgpr_count = 0, sgpr_count = 0, agpr_count = 0;
  uint32_t vgpr_spill_count = 0, sgpr_spill_count = 0;
  uint32_t wavefront_size = 0;
  uint32_t max_flat_workgroup_size = 0;
};

// The kernels described by the metadata note of the ELF code object `elf`.
llvm::Expected<std::vector<KernelResources>> ReadKernelResources(llvm::ArrayRef<uint8_t> elf);

}  // namespace kiln::compiler::gpu
