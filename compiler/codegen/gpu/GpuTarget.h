// The AMD GPU chips kiln's compiler targets, and what code generation needs to know about
// each (DESIGN.md section 7).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "llvm/ADT/StringRef.h"

namespace kiln::compiler::gpu {

struct GpuTarget {
  std::string chip;             // the LLVM processor name: "gfx942"
  uint32_t wavefront_size = 64;  // the native wave size code is generated for
  uint32_t max_lds_bytes = 64 << 10;
  uint32_t vgprs_per_simd_lane = 512;  // register file per SIMD lane (VGPRs + AGPRs where unified)
  uint32_t max_waves_per_simd = 8;
  bool has_mfma = false;        // matrix fused multiply-add (CDNA)
  bool has_wmma = false;        // wave matrix multiply-accumulate (RDNA3)
  bool has_fp8_fnuz = false;    // MFMA on f8E4M3FNUZ / f8E5M2FNUZ
  int64_t mfma_i8_depth = 0;    // k of the 32x32 i8 MFMA: 16 (gfx942), 8 (gfx90a), 0 none

  // "amdgcn-amd-amdhsa--gfx942", the ISA name the HSA runtime reports for agents.
  std::string IsaName() const { return "amdgcn-amd-amdhsa--" + chip; }
};

inline constexpr llvm::StringLiteral kAmdgpuTriple = "amdgcn-amd-amdhsa";

// Waves of a kernel that can be resident on one SIMD at once (occupancy), limited by its
// registers, its LDS and its workgroup size; `vgprs` counts architectural and accumulation
// registers together (gfx90a/gfx942 allocate them from one file).
uint32_t WavesPerSimd(const GpuTarget& target, uint32_t vgprs, uint32_t sgprs, uint32_t lds_bytes,
                      uint32_t workgroup_size);

// The target for `chip`, or nullopt when kiln does not support it.
std::optional<GpuTarget> LookupGpuTarget(llvm::StringRef chip);

// The supported chips, for diagnostics: "gfx942, gfx90a, gfx1100".
std::string SupportedGpuChips();

}  // namespace kiln::compiler::gpu
