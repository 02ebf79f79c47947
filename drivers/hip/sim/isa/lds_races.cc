// The LDS race shadow and its report (see lds_races.h for the contract).
#include "drivers/hip/sim/isa/lds_races.h"

#include <algorithm>

#include "drivers/hip/sim/isa/wave.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim::isa {

void LdsRaceShadow::NextEpoch() {
  if (++epoch_ == UINT32_MAX) {  // wrapped: old epochs would look current again
    std::fill(cells_.begin(), cells_.end(), Cell{});
    epoch_ = 1;
  }
}

void LdsRaceShadow::BeginWorkgroup(uint32_t bytes) {
  if (cells_.size() < bytes) cells_.resize(bytes);
  NextEpoch();
}

std::optional<LdsConflict> LdsRaceShadow::Access(uint32_t address, uint32_t size, LdsAccessKind kind,
                                                 const LdsAccess& who) {
  const bool reads = kind != LdsAccessKind::kWrite, writes = kind != LdsAccessKind::kRead;
  // Another wave's access of this epoch that is not ordered with `who`'s.
  auto races = [&](const Slot& s) {
    return s.epoch == epoch_ && s.access.wave != who.wave && !(s.access.atomic && who.atomic);
  };
  for (uint32_t b = address; b < address + size; ++b) {
    const Cell& c = cells_[b];
    if (reads && races(c.writer)) return LdsConflict{b, c.writer.access, true};
    if (writes) {
      if (races(c.reader0)) return LdsConflict{b, c.reader0.access, false};
      if (races(c.reader1)) return LdsConflict{b, c.reader1.access, false};
    }
  }
  for (uint32_t b = address; b < address + size; ++b) {
    Cell& c = cells_[b];
    if (writes) c.writer = {epoch_, who};
    if (reads) {
      if (c.reader0.epoch != epoch_ || c.reader0.access.wave == who.wave) {
        c.reader0 = {epoch_, who};
      } else {
        c.reader1 = {epoch_, who};
      }
    }
  }
  return std::nullopt;
}

void LdsRaceShadow::LateWrite(uint32_t address, uint32_t size, const LdsAccess& who) {
  for (uint32_t b = address; b < address + size; ++b) cells_[b].writer = {epoch_, who};
}

bool CheckLdsAccess(Wave& w, const Instruction& inst, uint32_t lane, uint32_t address, uint32_t size,
                    LdsAccessKind kind) {
  WorkgroupContext& c = *w.context;
  LdsAccess who{w.pc - 1, static_cast<uint16_t>(w.wave_in_group), static_cast<uint8_t>(lane),
                kind == LdsAccessKind::kAtomic};
  std::optional<LdsConflict> conflict = c.lds_races->Access(address, size, kind, who);
  if (!conflict) return true;
  const Instruction& other = c.program->instructions[conflict->earlier.instruction];
  const char* verb = kind == LdsAccessKind::kRead ? "reads" : kind == LdsAccessKind::kWrite ? "writes" : "updates";
  w.Fail(inst, StrCat("LDS race at address ", Hex(conflict->address), ": lane ", lane, " ", verb,
                      " it after lane ", uint32_t{conflict->earlier.lane}, " of wave ", conflict->earlier.wave,
                      conflict->earlier_wrote ? " wrote" : " read", " it with ", other.mnemonic, " at offset ",
                      Hex(other.offset), " (", other.text, ")",
                      conflict->earlier.unwaited
                          ? ", which had not completed when its wave reached s_barrier (no s_waitcnt lgkmcnt(0) "
                            "before it), so the barrier does not order them"
                          : ", with no s_barrier between"));
  return false;
}

}  // namespace kiln::hsa_sim::isa
