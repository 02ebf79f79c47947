// The LDS half of the race detector (docs/hip-sim-executor.md, "Race detector"): a shadow of
// the workgroup's group segment with, per byte, the last write and the last reads of the
// current barrier epoch.
//
// Contract. Within one workgroup, two accesses to the same LDS byte by different waves race
// when no s_barrier release separates them and at least one is a write, unless both are LDS
// atomics (ds_add_*):
//   - a read of a byte another wave wrote in the same epoch (read after write), and
//   - a write of a byte another wave read in the same epoch (write after read: the missing
//     barrier between one k-step's reads and the next step's writes)
// are reported, whichever order the scheduler ran them in, so the report does not depend on
// the interleaving. An LDS write still outstanding when its wave reaches s_barrier (no
// s_waitcnt lgkmcnt(0) between them: the barrier does not wait for memory) counts as made
// after the barrier (LateWrite), so the other waves' accesses after it race with it.
// Not reported: two writes without a read between (a value several waves store alike, as
// kernels initialise a counter, is common and harmless), and accesses by
// different lanes of one wave: one wave's LDS instructions execute in issue order on the
// hardware (CDNA3 ISA, "Data Share Operations": LDS returns in order), and LLVM removes
// s_barrier from workgroups of one wave, so requiring one there would reject correct code.
//
// The shadow belongs to the thread that runs workgroups (one per worker): BeginWorkgroup
// forgets everything earlier in O(1) by starting a new epoch.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace kiln::hsa_sim::isa {

struct Wave;
struct Instruction;

// One access: who (wave and lane) and where in the code (the instruction's index).
struct LdsAccess {
  uint32_t instruction = 0;
  uint16_t wave = 0;
  uint8_t lane = 0;
  bool atomic = false;
  bool unwaited = false;  // a write its wave had not waited for (s_waitcnt) when it reached s_barrier
};

enum class LdsAccessKind : uint8_t { kRead, kWrite, kAtomic };

// An earlier access the new one races with.
struct LdsConflict {
  uint32_t address = 0;  // the first byte both touched
  LdsAccess earlier;
  bool earlier_wrote = false;  // the earlier access wrote (read after write) or read (write after read)
};

class LdsRaceShadow {
 public:
  // A new workgroup with `bytes` of group segment: no earlier access counts any more.
  void BeginWorkgroup(uint32_t bytes);
  // Every live wave of the workgroup passed an s_barrier: accesses before it are ordered
  // before every access after it.
  void Barrier() { NextEpoch(); }
  // After Barrier: a write of [address, address + size) that its wave had not retired when it
  // reached the barrier (no s_waitcnt lgkmcnt(0) before it): it belongs to the new epoch, so
  // another wave's access after the barrier races with it.
  void LateWrite(uint32_t address, uint32_t size, const LdsAccess& who);
  // Checks an access of bytes [address, address + size) (inside the group segment) by `who`
  // against the current epoch's accesses of other waves, then records it. Returns the first
  // conflict; nothing is recorded then.
  std::optional<LdsConflict> Access(uint32_t address, uint32_t size, LdsAccessKind kind, const LdsAccess& who);

 private:
  struct Slot {
    uint32_t epoch = 0;  // 0: never
    LdsAccess access;
  };
  // reader1, when of the current epoch, is a read by another wave than reader0's, so any
  // wave that did not make every read of the epoch differs from one of the two.
  struct Cell {
    Slot writer, reader0, reader1;
  };
  void NextEpoch();

  std::vector<Cell> cells_;
  uint32_t epoch_ = 0;
};

// The dispatch-facing check, for lds.cc: checks lane `lane`'s access of `inst` on the wave's
// workgroup shadow; false (the dispatch failed naming the kernel, both instructions, the lanes
// and waves and the LDS address) on a race.
bool CheckLdsAccess(Wave& w, const Instruction& inst, uint32_t lane, uint32_t address, uint32_t size,
                    LdsAccessKind kind);

}  // namespace kiln::hsa_sim::isa
