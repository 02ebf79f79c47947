// The per-dispatch global write map and its report (see global_races.h for the contract).
#include "drivers/hip/sim/isa/global_races.h"

#include <algorithm>
#include <vector>

#include "drivers/hip/sim/isa/wave.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim::isa {
namespace {

bool SameWorkgroup(const GlobalWriter& a, const GlobalWriter& b) {
  return a.workgroup[0] == b.workgroup[0] && a.workgroup[1] == b.workgroup[1] && a.workgroup[2] == b.workgroup[2];
}

// Whether `earlier`'s write happens before `later`'s (or both are atomics).
bool Ordered(const GlobalWriter& earlier, const GlobalWriter& later) {
  if (earlier.atomic && later.atomic) return true;
  return SameWorkgroup(earlier, later) && (earlier.wave == later.wave || earlier.barrier_epoch != later.barrier_epoch);
}

struct LaneWrite {
  uint64_t begin;
  uint32_t lane;
};

}  // namespace

std::optional<GlobalWriteConflict> GlobalWriteMap::Record(std::span<const GlobalWriteRange> ranges,
                                                          const GlobalWriter& writer) {
  std::lock_guard lock(mu_);
  // The first entry that may overlap [begin, ...): the one before `begin` if it reaches past it.
  auto first_overlap = [&](uint64_t begin) {
    auto it = entries_.upper_bound(begin);
    if (it != entries_.begin() && std::prev(it)->second.end > begin) --it;
    return it;
  };
  for (const GlobalWriteRange& r : ranges) {
    for (auto it = first_overlap(r.begin); it != entries_.end() && it->first < r.end; ++it) {
      if (Ordered(it->second.writer, writer)) continue;
      uint64_t address = std::max(it->first, r.begin);
      return GlobalWriteConflict{address, it->second.writer, it->second.range.LaneAt(address), r.LaneAt(address)};
    }
  }
  // Every overlapped byte now belongs to the new write (later writes must be ordered with it):
  // trim the entries it overlaps, keeping their parts outside it, and insert it whole.
  for (const GlobalWriteRange& r : ranges) {
    auto it = first_overlap(r.begin);
    while (it != entries_.end() && it->first < r.end) {
      Entry old = it->second;
      uint64_t old_begin = it->first;
      it = entries_.erase(it);
      if (old_begin < r.begin) entries_.emplace(old_begin, Entry{r.begin, old.range, old.writer});
      if (old.end > r.end) it = entries_.emplace(r.end, Entry{old.end, old.range, old.writer}).first;
    }
    entries_.emplace(r.begin, Entry{r.end, r, writer});
  }
  return std::nullopt;
}

bool CheckGlobalWrite(Wave& w, const Instruction& inst, const uint64_t* address, uint64_t exec, uint32_t bytes,
                      bool atomic) {
  WorkgroupContext& c = *w.context;
  // The lanes' writes by address (usually already in order: lane k at base + k * bytes).
  LaneWrite writes[kLanes];
  uint32_t n = 0;
  bool sorted = true;
  for (uint32_t l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1)) continue;
    if (n > 0 && address[l] < writes[n - 1].begin) sorted = false;
    writes[n++] = {address[l], l};
  }
  if (n == 0) return true;
  if (!sorted) {
    std::stable_sort(writes, writes + n, [](const LaneWrite& a, const LaneWrite& b) { return a.begin < b.begin; });
  }
  // Coalesce into ranges; two lanes of a non-atomic store on one byte race.
  GlobalWriteRange ranges[kLanes];
  uint32_t count = 0;
  uint32_t last_lane = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const LaneWrite& lw = writes[k];
    GlobalWriteRange* r = count > 0 ? &ranges[count - 1] : nullptr;
    if (r && lw.begin < r->end) {
      if (!atomic) {
        w.Fail(inst, StrCat("global write race at ", Hex(lw.begin), ": lanes ", r->LaneAt(lw.begin), " and ", lw.lane,
                            " of this instruction both write it, not atomically"));
        return false;
      }
      r->end = std::max(r->end, lw.begin + bytes);
      r->lane_bytes = 0;
    } else if (r && lw.begin == r->end && r->lane_bytes && lw.lane == last_lane + 1) {
      r->end += bytes;
    } else {
      ranges[count++] = {lw.begin, lw.begin + bytes, static_cast<uint8_t>(lw.lane),
                         static_cast<uint8_t>(atomic ? 0 : bytes)};
    }
    last_lane = lw.lane;
  }
  GlobalWriter writer;
  writer.instruction = w.pc - 1;
  std::copy(std::begin(c.workgroup_id), std::end(c.workgroup_id), writer.workgroup);
  writer.barrier_epoch = c.barriers;
  writer.wave = static_cast<uint16_t>(w.wave_in_group);
  writer.atomic = atomic;
  std::optional<GlobalWriteConflict> conflict = c.global_writes->Record({ranges, count}, writer);
  if (!conflict) return true;
  const GlobalWriter& e = conflict->earlier;
  const Instruction& other = c.program->instructions[e.instruction];
  bool same_workgroup = SameWorkgroup(e, writer);
  w.Fail(inst, StrCat("global write race at ", Hex(conflict->address), ": lane ", conflict->lane, " writes it",
                      atomic ? " atomically" : "", " after lane ", conflict->earlier_lane, " of wave ", e.wave,
                      same_workgroup ? " of this workgroup" : StrCat(" of workgroup (", e.workgroup[0], ", ",
                                                                     e.workgroup[1], ", ", e.workgroup[2], ")"),
                      " wrote it", e.atomic ? " atomically" : "", " with ", other.mnemonic, " at offset ",
                      Hex(other.offset), " (", other.text, ") in this dispatch, ",
                      same_workgroup ? "with no s_barrier between" : "and nothing orders two workgroups' writes",
                      "; overlapping writes of different work-items must be atomics"));
  return false;
}

}  // namespace kiln::hsa_sim::isa
