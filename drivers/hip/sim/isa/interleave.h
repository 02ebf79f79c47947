// Seeded random interleaving of the waves of a workgroup (KILN_HSA_SIM_INTERLEAVE_SEED,
// config.h). Without a seed the scheduler (executor.cc) switches waves only where hardware must
// (s_waitcnt, s_sleep, s_barrier, s_endpgm), round robin. With one it also switches after a
// random number of instructions and picks the next wave at random, so a kernel that is only
// right under the round-robin order (a missing barrier or wait the default order happens to
// satisfy) can be made to fail.
//
// Contract: the stream depends only on (seed, dispatch id, workgroup id), never on the worker
// thread or on timing, so a seed reproduces the same interleaving of every workgroup on every
// run of the same program (the dispatch id is the packet's index in its queue).
#pragma once

#include <cstdint>

namespace kiln::hsa_sim::isa {

class Interleaver {
 public:
  // Quanta are 1..kMaxQuantum instructions, uniformly: short enough that any two
  // neighbouring instructions of a wave are often separated by another wave's, long enough
  // that a workgroup still makes progress in runs.
  static constexpr uint32_t kMaxQuantum = 16;

  Interleaver(uint64_t seed, uint64_t dispatch_id, const uint32_t workgroup_id[3])
      : state_(Mix(Mix(Mix(Mix(seed) ^ dispatch_id) ^ workgroup_id[0]) ^
                   (uint64_t{workgroup_id[1]} << 32 | workgroup_id[2]))) {}

  // How many instructions the next wave runs before it is switched out (unless it yields
  // first).
  uint32_t NextQuantum() { return 1 + static_cast<uint32_t>(Next() % kMaxQuantum); }
  // A uniformly random index in [0, n), n > 0.
  uint32_t Pick(uint32_t n) { return static_cast<uint32_t>(Next() % n); }

 private:
  // SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
  // OOPSLA 2014): a full-period 64-bit stream, and its finaliser as the seed mixer.
  static uint64_t Mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t Next() { return Mix(state_ += 0x9e3779b97f4a7c15ull); }

  uint64_t state_;
};

}  // namespace kiln::hsa_sim::isa
