// The global-memory half of the race detector (docs/hip-sim-executor.md, "Race detector"): a
// per-dispatch map of the bytes written so far, keyed by address ranges.
//
// Contract. Two writes to the same global byte within one dispatch race unless both are
// atomics (global_atomic_*) or they are ordered: by the same wave (its instructions execute in
// issue order), or by waves of the same workgroup with an s_barrier release between them.
// Writes of different workgroups are never ordered within a dispatch. Two lanes of one store
// instruction writing the same byte race too (which lane's value lands is undefined). Reads
// are not tracked (a read racing a write of another workgroup is not reported).
//
// The map is shared by every workgroup of the dispatch, on every worker thread: Record takes
// its lock once per instruction. A coalesced store (lane k at base + k * size) is one range,
// so a dispatch's map holds about one entry per store instruction executed.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <span>

namespace kiln::hsa_sim::isa {

struct Wave;
struct Instruction;

// Who wrote a range, and where in the code.
struct GlobalWriter {
  uint32_t instruction = 0;  // index in the program
  uint32_t workgroup[3] = {};
  uint32_t barrier_epoch = 0;  // s_barrier releases of its workgroup before the write
  uint16_t wave = 0;
  bool atomic = false;
};

// A range one instruction wrote: lane `lane` wrote from `begin`; with `lane_bytes` > 0, lane
// `lane` + k wrote the bytes from begin + k * lane_bytes (a coalesced run), else only `lane`
// is known (atomic ranges merged across lanes).
struct GlobalWriteRange {
  uint64_t begin = 0, end = 0;
  uint8_t lane = 0;
  uint8_t lane_bytes = 0;

  uint32_t LaneAt(uint64_t address) const {
    return lane_bytes ? lane + static_cast<uint32_t>((address - begin) / lane_bytes) : lane;
  }
};

struct GlobalWriteConflict {
  uint64_t address = 0;  // the first byte both wrote
  GlobalWriter earlier;
  uint32_t earlier_lane = 0, lane = 0;
};

class GlobalWriteMap {
 public:
  // Checks `ranges` (one instruction's, sorted and disjoint) against the dispatch's earlier
  // writes, then records the bytes no ordered earlier write covers. Returns the first conflict;
  // nothing is recorded then.
  std::optional<GlobalWriteConflict> Record(std::span<const GlobalWriteRange> ranges, const GlobalWriter& writer);

 private:
  struct Entry {
    uint64_t end = 0;
    GlobalWriteRange range;  // the instruction's range this entry is part of (for its lanes)
    GlobalWriter writer;
  };
  std::mutex mu_;
  std::map<uint64_t, Entry> entries_;  // by first byte; disjoint
};

// The dispatch-facing check, for global_memory.cc and global_atomics.cc: the `bytes` each lane
// of `exec` wrote at `address[lane]`. False (the dispatch failed naming the kernel, both
// instructions, lanes, waves and workgroups, and the address) on a race.
bool CheckGlobalWrite(Wave& w, const Instruction& inst, const uint64_t* address, uint64_t exec, uint32_t bytes,
                      bool atomic);

}  // namespace kiln::hsa_sim::isa
