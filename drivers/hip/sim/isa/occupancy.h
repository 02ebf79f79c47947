// The occupancy a gfx942 kernel's resources allow on one compute unit: an estimate from the
// resource model LLVM's AMDGPU backend uses for gfx90a and gfx940+ (AMDGPUBaseInfo.cpp,
// IsaInfo: getMaxWavesPerEU, getNumWavesPerEUWithNumVGPRs, getOccupancyWithNumSGPRs,
// getMaxWorkGroupsPerCU), not a measurement:
//   - a CU has 4 SIMDs; a SIMD holds at most 8 waves;
//   - VGPRs: 512 per SIMD lane, ArchVGPRs and AccVGPRs from one file, allocated in granules of
//     8: a wave of V registers leaves min(8, 512 / roundup(V, 8)) waves per SIMD;
//   - SGPRs: a wave needing more than 100 (the metadata's .sgpr_count, which includes VCC and
//     the flat-scratch/XNACK extras) leaves 7 waves per SIMD;
//   - LDS: 64 KiB per CU, shared by its workgroups (the dispatch's group segment each);
//   - workgroups: at most 32 / waves-per-workgroup per CU, and at most 16 of more than one
//     wave (barrier resources); a workgroup's waves all sit on the same CU.
#pragma once

#include <cstdint>

#include "drivers/hip/sim/isa/program.h"

namespace kiln::hsa_sim::isa {

struct Occupancy {
  uint32_t waves_per_simd = 0;      // the register limit: VGPRs, SGPRs, at most 8
  uint32_t workgroups_per_cu = 0;   // the workgroups one CU holds at once
  uint32_t waves_per_cu = 0;        // workgroups_per_cu x waves per workgroup
  const char* limit = "";           // what bounds workgroups_per_cu: "VGPRs", "SGPRs", "LDS", "waves", "barriers"
};

inline constexpr uint32_t kSimdsPerCu = 4;
inline constexpr uint32_t kMaxWavesPerSimd = 8;
inline constexpr uint32_t kVgprsPerSimdLane = 512;
inline constexpr uint32_t kVgprGranule = 8;
inline constexpr uint32_t kLdsBytesPerCu = 64 * 1024;
inline constexpr uint32_t kMaxBarriersPerCu = 16;

// `group_segment_size`: the dispatch's LDS per workgroup; `workgroup_items`: its work-items.
Occupancy EstimateOccupancy(const Program& program, uint32_t group_segment_size, uint32_t workgroup_items);

}  // namespace kiln::hsa_sim::isa
