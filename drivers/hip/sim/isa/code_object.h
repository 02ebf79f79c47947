// An AMDGPU code object (HSACO) read as the HSA loader reads it: the ELF64 file for EM_AMDGPU,
// each kernel's 64-byte kernel descriptor (the "NAME.kd" symbol), the AMDGPU metadata note
// (msgpack, code object v3+) and the machine code the descriptor points at.
//
// Facts from LLVM's AMDGPUUsage ("Kernel Descriptor", "Code Object V3 Metadata" and later,
// "Initial Kernel Execution State"); the field names below are the document's.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace kiln::hsa_sim::isa {

// kernel_descriptor_t, 64 bytes, every field little-endian.
struct KernelDescriptor {
  uint32_t group_segment_fixed_size = 0;      // bytes 0-3
  uint32_t private_segment_fixed_size = 0;    // bytes 4-7
  uint32_t kernarg_size = 0;                  // bytes 8-11
  int64_t kernel_code_entry_byte_offset = 0;  // bytes 16-23, from the descriptor's address
  uint32_t compute_pgm_rsrc3 = 0;             // bytes 44-47
  uint32_t compute_pgm_rsrc1 = 0;             // bytes 48-51
  uint32_t compute_pgm_rsrc2 = 0;             // bytes 52-55
  uint16_t kernel_code_properties = 0;        // bytes 56-57
  uint16_t kernarg_preload = 0;               // bytes 58-59 (code object v5+)

  // kernel_code_properties bits.
  bool private_segment_buffer() const { return kernel_code_properties & (1u << 0); }  // 4 SGPRs
  bool dispatch_ptr() const { return kernel_code_properties & (1u << 1); }            // 2 SGPRs
  bool queue_ptr() const { return kernel_code_properties & (1u << 2); }               // 2 SGPRs
  bool kernarg_segment_ptr() const { return kernel_code_properties & (1u << 3); }     // 2 SGPRs
  bool dispatch_id() const { return kernel_code_properties & (1u << 4); }             // 2 SGPRs
  bool flat_scratch_init() const { return kernel_code_properties & (1u << 5); }       // 2 SGPRs
  bool private_segment_size() const { return kernel_code_properties & (1u << 6); }    // 1 SGPR
  bool wavefront_size32() const { return kernel_code_properties & (1u << 10); }
  // compute_pgm_rsrc2 fields.
  bool private_segment_wave_offset() const { return compute_pgm_rsrc2 & 1u; }  // ENABLE_PRIVATE_SEGMENT
  uint32_t user_sgpr_count() const { return (compute_pgm_rsrc2 >> 1) & 0x1f; }
  bool workgroup_id(int axis) const { return compute_pgm_rsrc2 & (1u << (7 + axis)); }
  bool workgroup_info() const { return compute_pgm_rsrc2 & (1u << 10); }
  uint32_t workitem_id_dims() const { return (compute_pgm_rsrc2 >> 11) & 3; }  // 0: X, 1: X,Y, 2: X,Y,Z
  // compute_pgm_rsrc1: GRANULATED_WORKITEM_VGPR_COUNT; gfx90a/gfx942 allocate the unified
  // register file (ArchVGPRs then AccVGPRs) in granules of 8.
  uint32_t vgpr_count_unified() const { return ((compute_pgm_rsrc1 & 0x3f) + 1) * 8; }
  // compute_pgm_rsrc3 (gfx90a, gfx942): ACCUM_OFFSET, the first AccVGPR, in units of 4 minus 1.
  uint32_t accum_offset() const { return ((compute_pgm_rsrc3 & 0x3f) + 1) * 4; }
  uint32_t kernarg_preload_length() const { return kernarg_preload & 0x7f; }
};

// One entry of a kernel's ".args" metadata.
struct KernelArg {
  std::string name;        // ".name", may be empty
  uint32_t offset = 0;     // ".offset" in the kernarg segment
  uint32_t size = 0;       // ".size"
  std::string value_kind;  // ".value_kind": "global_buffer", "by_value", "hidden_..."
};

// A kernel's metadata map (".name", ".symbol", ...) with its descriptor and code.
struct KernelCode {
  std::string name;    // ".name"
  std::string symbol;  // ".symbol": "NAME.kd"
  KernelDescriptor descriptor;
  uint32_t kernarg_segment_size = 0;
  uint32_t kernarg_segment_align = 0;
  uint32_t group_segment_fixed_size = 0;
  uint32_t private_segment_fixed_size = 0;
  uint32_t wavefront_size = 0;
  uint32_t sgpr_count = 0;
  uint32_t vgpr_count = 0;
  uint32_t agpr_count = 0;
  uint32_t max_flat_workgroup_size = 0;
  std::vector<KernelArg> args;
  // The machine code from the entry point to the end of the entry's function symbol (or of
  // its section), copied out of the image; entry_address is its virtual address.
  std::vector<uint8_t> code;
  uint64_t entry_address = 0;
  // The code object's allocated sections laid out at their virtual addresses (NOBITS zeroed),
  // shared by its kernels: what s_getpc_b64 points into, so that PC-relative scalar loads of
  // constants (.rodata) read what the loader would have placed there.
  std::shared_ptr<const std::vector<uint8_t>> loaded_image;
};

struct CodeObject {
  std::string processor;  // "gfx942", from e_flags' EF_AMDGPU_MACH
  uint32_t e_flags = 0;
  std::vector<KernelCode> kernels;
};

// EF_AMDGPU_MACH (e_flags & 0xff) as a processor name ("gfx942"), or "EF_AMDGPU_MACH 0x.." .
std::string AmdgpuProcessorName(uint32_t e_flags);

// Parses an HSACO. Errors say which kernel, field or byte is wrong.
StatusOr<CodeObject> ParseCodeObject(std::span<const uint8_t> image);

}  // namespace kiln::hsa_sim::isa
