#include "compiler/codegen/gpu/GpuTarget.h"

#include <algorithm>
#include <array>

namespace kiln::compiler::gpu {

namespace {

GpuTarget Cdna(llvm::StringRef chip, bool fp8_fnuz, int64_t mfma_i8_depth) {
  GpuTarget t;
  t.chip = chip.str();
  t.wavefront_size = 64;
  t.has_mfma = true;
  t.has_fp8_fnuz = fp8_fnuz;
  t.mfma_i8_depth = mfma_i8_depth;
  return t;
}

GpuTarget Rdna3(llvm::StringRef chip) {
  GpuTarget t;
  t.chip = chip.str();
  t.wavefront_size = 32;
  t.vgprs_per_simd_lane = 1536;  // wave32: 1536 VGPRs per SIMD, 16 waves
  t.max_waves_per_simd = 16;
  t.has_wmma = true;
  return t;
}

const std::array<GpuTarget, 3>& Targets() {
  static const std::array<GpuTarget, 3> targets = {Cdna("gfx942", true, 16), Cdna("gfx90a", false, 8),
                                                       Rdna3("gfx1100")};
  return targets;
}

}  // namespace

uint32_t WavesPerSimd(const GpuTarget& target, uint32_t vgprs, uint32_t sgprs, uint32_t lds_bytes,
                      uint32_t workgroup_size) {
  auto align = [](uint32_t value, uint32_t granule) { return (value + granule - 1) / granule * granule; };
  uint32_t waves = target.max_waves_per_simd;
  // VGPRs are allocated in granules of 8 (wave64 CDNA) or 16 (wave32 RDNA3).
  uint32_t vgpr_granule = target.wavefront_size == 64 ? 8 : 16;
  if (vgprs > 0) waves = std::min(waves, target.vgprs_per_simd_lane / align(vgprs, vgpr_granule));
  // gfx9 SIMDs have 800 SGPRs, allocated in granules of 16; RDNA gives every wave 106.
  if (target.wavefront_size == 64 && sgprs > 0) waves = std::min(waves, 800u / align(sgprs, 16));
  // A compute unit has 4 SIMDs (CDNA) or 2 (RDNA3, per half of a workgroup processor) and
  // its LDS; a workgroup's waves spread over the SIMDs.
  uint32_t simds = target.wavefront_size == 64 ? 4 : 2;
  uint32_t waves_per_group = std::max(1u, (workgroup_size + target.wavefront_size - 1) / target.wavefront_size);
  if (lds_bytes > 0) {
    uint32_t groups = target.max_lds_bytes / lds_bytes;
    waves = std::min(waves, std::max(groups * waves_per_group / simds, groups > 0 ? 1u : 0u));
  }
  return waves;
}

std::optional<GpuTarget> LookupGpuTarget(llvm::StringRef chip) {
  for (const GpuTarget& t : Targets()) {
    if (t.chip == chip) return t;
  }
  return std::nullopt;
}

std::string SupportedGpuChips() {
  std::string names;
  for (const GpuTarget& t : Targets()) names += (names.empty() ? "" : ", ") + t.chip;
  return names;
}

}  // namespace kiln::compiler::gpu
