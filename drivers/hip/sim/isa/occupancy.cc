// The occupancy estimate (see occupancy.h for the model and its source).
#include "drivers/hip/sim/isa/occupancy.h"

#include <algorithm>

namespace kiln::hsa_sim::isa {

Occupancy EstimateOccupancy(const Program& program, uint32_t group_segment_size, uint32_t workgroup_items) {
  Occupancy o;
  // The unified VGPR file a wave is allocated: (GRANULATED_WORKITEM_VGPR_COUNT + 1) * 8.
  uint32_t vgprs = program.vgpr_file;
  uint32_t by_vgprs = kMaxWavesPerSimd;
  if (vgprs >= kVgprGranule) {
    uint32_t rounded = (vgprs + kVgprGranule - 1) / kVgprGranule * kVgprGranule;
    by_vgprs = std::min(kMaxWavesPerSimd, std::max(1u, kVgprsPerSimdLane / rounded));
  }
  uint32_t by_sgprs = program.kernel.sgpr_count > 100 ? 7 : kMaxWavesPerSimd;
  o.waves_per_simd = std::min(by_vgprs, by_sgprs);
  uint32_t waves = std::max(1u, (workgroup_items + 63) / 64);
  struct Limit {
    uint32_t workgroups;
    const char* what;
  };
  const char* registers = o.waves_per_simd == kMaxWavesPerSimd ? "waves" : by_vgprs <= by_sgprs ? "VGPRs" : "SGPRs";
  const Limit limits[] = {
      {o.waves_per_simd * kSimdsPerCu / waves, registers},
      {group_segment_size ? kLdsBytesPerCu / group_segment_size : UINT32_MAX, "LDS"},
      {waves > 1 ? kMaxBarriersPerCu : UINT32_MAX, "barriers"},
  };
  const Limit* least = std::min_element(std::begin(limits), std::end(limits),
                                        [](const Limit& a, const Limit& b) { return a.workgroups < b.workgroups; });
  o.workgroups_per_cu = least->workgroups;
  o.limit = least->what;
  o.waves_per_cu = o.workgroups_per_cu * waves;
  return o;
}

}  // namespace kiln::hsa_sim::isa
