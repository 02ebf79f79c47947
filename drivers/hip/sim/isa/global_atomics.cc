// Global atomics, 32-bit and some 64-bit (CDNA3 ISA, "Flat, Scratch and Global Instructions", GLOBAL_ATOMIC_*):
// each active lane, in lane order, replaces the dword at its address (as global_memory.cc
// computes it) with OP(old, data) as one indivisible step, and the forms with a destination
// (sc0/glc: LLVM's *_RTN opcodes) return `old` in it. Workgroups run on several host threads,
// so the step is a compare-and-swap loop on host memory. The address must be 4-byte aligned.
// Each atomic counts in VM_CNT; the returned value lands when it retires, as a load's does.
// GLOBAL_ATOMIC_ADD_F32 rounds to nearest even and flushes f32 denormals (inputs and result) to
// zero: global FP atomics have a fixed FP mode without f32 denormals (LLVM's SIISelLowering,
// which uses them only for functions that flush f32 denormals, or that allow unsafe atomics).
// GLOBAL_ATOMIC_CMPSWAP: DATA[0] is the new value, DATA[1] the compared one.
// With the race detector on, the bytes go into the dispatch's write map as atomic writes
// (global_races.h): atomics never race with each other, but do with plain stores.
// In KILN_HSA_SIM_MODE=both, GLOBAL_ATOMIC_ADD_F32 notes each lane's add in the dispatch's
// float-atomic log (float_atomics.h), whose words the comparison with the twin allows to
// differ by the order of the adds.
// Operands: [dst[0] VDST,] src[0] VADDR, src[1] VDATA, src[2] SADDR (has_saddr), imm[0] OFFSET.
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>

#include "drivers/hip/sim/isa/float_atomics.h"
#include "drivers/hip/sim/isa/global_races.h"
#include "drivers/hip/sim/isa/memory_window.h"
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/waitcnt.h"

namespace kiln::hsa_sim::isa {
namespace {

uint32_t Add(uint32_t old, uint32_t data, uint32_t) { return old + data; }
uint32_t Sub(uint32_t old, uint32_t data, uint32_t) { return old - data; }
uint32_t Smin(uint32_t old, uint32_t data, uint32_t) {
  return static_cast<int32_t>(data) < static_cast<int32_t>(old) ? data : old;
}
uint32_t Smax(uint32_t old, uint32_t data, uint32_t) {
  return static_cast<int32_t>(data) > static_cast<int32_t>(old) ? data : old;
}
uint32_t Umin(uint32_t old, uint32_t data, uint32_t) { return data < old ? data : old; }
uint32_t Umax(uint32_t old, uint32_t data, uint32_t) { return data > old ? data : old; }
uint32_t And(uint32_t old, uint32_t data, uint32_t) { return old & data; }
uint32_t Or(uint32_t old, uint32_t data, uint32_t) { return old | data; }
uint32_t Xor(uint32_t old, uint32_t data, uint32_t) { return old ^ data; }
uint32_t Swap(uint32_t, uint32_t data, uint32_t) { return data; }
uint32_t Cmpswap(uint32_t old, uint32_t data, uint32_t cmp) { return old == cmp ? data : old; }
float FlushDenormal(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }
uint32_t AddF32(uint32_t old, uint32_t data, uint32_t) {
  return AsBits(FlushDenormal(FlushDenormal(AsFloat(old)) + FlushDenormal(AsFloat(data))));
}

// 64-bit forms (*_x2): DATA is a VGPR pair (cmpswap_x2: two pairs, new value then compared).
uint64_t Add64(uint64_t old, uint64_t data, uint64_t) { return old + data; }
uint64_t Swap64(uint64_t, uint64_t data, uint64_t) { return data; }
uint64_t Cmpswap64(uint64_t old, uint64_t data, uint64_t cmp) { return old == cmp ? data : old; }

template <typename T, T (*Op)(T, T, T), bool kCompare = false, bool kFloatAdd = false>
void GlobalAtomic(Wave& w, const Instruction& i) {
  constexpr uint32_t kBytes = sizeof(T), kDwords = kBytes / 4;
  if (i.num_src < (i.has_saddr ? 3 : 2)) return w.Fail(i, "the operands are missing");
  uint64_t address[kLanes];
  GlobalAddresses(w, i, i.src[0], i.has_saddr ? &i.src[2] : nullptr, address);
  const Operand& vdata = i.src[1];
  bool returns = i.num_dst > 0;
  uint64_t exec = w.exec();
  std::vector<uint32_t> old;
  if (returns) old = TakeBuffer(w, size_t{kDwords} * kLanes);
  auto operand = [&](uint32_t first, uint32_t l) {
    T value = w.v(vdata.index + first)[l];
    if constexpr (kDwords == 2) value |= T{w.v(vdata.index + first + 1)[l]} << 32;
    return value;
  };
  FloatAtomicLog* log = kFloatAdd ? w.context->float_atomics : nullptr;
  uint32_t added[kLanes] = {}, found[kLanes] = {};
  {
    MemoryWindow memory(*w.context);
    for (uint32_t l = 0; l < kLanes; ++l) {
      if (!((exec >> l) & 1)) continue;
      uint8_t* bytes = memory.Find(address[l], kBytes);
      if (!bytes) return w.Fault(i, address[l], AccessFaultText(memory, "atomic", l, address[l], kBytes));
      if (address[l] % kBytes) {
        return w.Fail(i, StrCat("lane ", l, "'s address ", Hex(address[l]), " is not ", kBytes, "-byte aligned"));
      }
      T data = operand(0, l), cmp = kCompare ? operand(kDwords, l) : 0;
      std::atomic_ref<T> word(*reinterpret_cast<T*>(bytes));
      T value = word.load();
      while (!word.compare_exchange_weak(value, Op(value, data, cmp))) {
      }
      if (log) {
        added[l] = static_cast<uint32_t>(data);
        found[l] = static_cast<uint32_t>(value);
      }
      if (returns) {
        for (uint32_t d = 0; d < kDwords; ++d) old[size_t{d} * kLanes + l] = static_cast<uint32_t>(value >> (32 * d));
      }
    }
  }
  if (log) log->RecordLanes(address, added, found, exec);
  w.context->counts.global_read_bytes += uint64_t{kBytes} * std::popcount(exec);
  w.context->counts.global_written_bytes += uint64_t{kBytes} * std::popcount(exec);
  if (w.context->global_writes && !CheckGlobalWrite(w, i, address, exec, kBytes, true)) return;
  if (returns) {
    IssueVectorLoad(w, i.dst[0].index, kDwords, exec, std::move(old));
  } else {
    IssueVectorStore(w);
  }
}

constexpr OpSemantics kGlobalAtomics[] = {
    {"global_atomic_add", &GlobalAtomic<uint32_t, Add>},
    {"global_atomic_sub", &GlobalAtomic<uint32_t, Sub>},
    {"global_atomic_smin", &GlobalAtomic<uint32_t, Smin>},
    {"global_atomic_smax", &GlobalAtomic<uint32_t, Smax>},
    {"global_atomic_umin", &GlobalAtomic<uint32_t, Umin>},
    {"global_atomic_umax", &GlobalAtomic<uint32_t, Umax>},
    {"global_atomic_and", &GlobalAtomic<uint32_t, And>},
    {"global_atomic_or", &GlobalAtomic<uint32_t, Or>},
    {"global_atomic_xor", &GlobalAtomic<uint32_t, Xor>},
    {"global_atomic_swap", &GlobalAtomic<uint32_t, Swap>},
    {"global_atomic_cmpswap", &GlobalAtomic<uint32_t, Cmpswap, true>},
    {"global_atomic_add_f32", &GlobalAtomic<uint32_t, AddF32, false, true>},
    {"global_atomic_add_x2", &GlobalAtomic<uint64_t, Add64>},
    {"global_atomic_swap_x2", &GlobalAtomic<uint64_t, Swap64>},
    {"global_atomic_cmpswap_x2", &GlobalAtomic<uint64_t, Cmpswap64, true>},
};

}  // namespace

std::span<const OpSemantics> GlobalAtomicSemantics() { return kGlobalAtomics; }

}  // namespace kiln::hsa_sim::isa
