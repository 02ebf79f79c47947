// What float atomics added where in one dispatch, for KILN_HSA_SIM_MODE=both's comparison
// (docs/hip-sim-executor.md, "Both"): a float sum built by atomic adds depends on the order the
// work-items add in, which the ISA leaves open (CDNA3 ISA, "Flat, Scratch and Global
// Instructions": atomics to one address are serialised in an unspecified order). The twin adds
// in its own order, so the words these adds wrote may differ from the code object's in the last
// bits, and only those words: everything else is compared bit for bit.
//
// Contract.
// - Record(address, data, old) notes one f32 add of `data` to the word at `address` that found
//   `old` there (global_atomic_add_f32, per lane). Thread-safe: the workgroups of a dispatch run
//   on several worker threads; one lock per instruction (RecordLanes).
// - Find(address) is the word's record, or null when no float atomic wrote it.
// - F32SumsAgree(a, b, record): whether two f32 results of the same adds in any two orders may be
//   `a` and `b`. Each of the n adds rounds once, by at most 2^-24 of its result, and every
//   partial sum of the same addends in any order is bounded by M = (largest |old| any add found:
//   the word's value at the start among them) + (the sum of every |data|); two orders then differ
//   by at most 2n * 2^-24 * M, plus 2n * 2^-126 for denormals flushed by one side and not the
//   other. Equal bits always agree; a NaN agrees only with a NaN, an infinity only with itself.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>

namespace kiln::hsa_sim::isa {

struct FloatAtomicRecord {
  uint64_t adds = 0;
  double sum_of_magnitudes = 0;  // of every |data|
  double largest_old = 0;        // the largest |old| an add found
};

class FloatAtomicLog {
 public:
  // One instruction's adds: lane l of `lanes` added AsFloat(data[l]) at address[l], finding old[l].
  void RecordLanes(const uint64_t* address, const uint32_t* data, const uint32_t* old, uint64_t lanes);
  // Null when no float atomic wrote the word at `address` in this dispatch.
  const FloatAtomicRecord* Find(uint64_t address) const;

 private:
  mutable std::mutex mu_;
  std::map<uint64_t, FloatAtomicRecord> words_;
};

// Whether f32 bits `a` and `b` may both be the result of `record`'s adds, in two orders.
bool F32SumsAgree(uint32_t a, uint32_t b, const FloatAtomicRecord& record);

}  // namespace kiln::hsa_sim::isa
