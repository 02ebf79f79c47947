// Global memory: global_load_* and global_store_*, and flat_load_*/flat_store_* (CDNA3 ISA, "Flat, Scratch and Global
// Instructions"). Each active lane's address is
//   SADDR (an SGPR pair) + VADDR (a 32-bit VGPR offset) + the instruction offset, or
//   VADDR (a 64-bit VGPR pair) + the instruction offset when SADDR is "off".
// Every byte a lane touches must lie in one allocation; the first lane that does not stops the
// workgroup with a memory fault at its address. Loads read at issue and write their VGPRs when
// they retire (waitcnt.h); stores write at issue. Both count in VM_CNT. With the race detector
// on, each store's bytes go into the dispatch's write map (global_races.h).
// Operands: loads dst[0] VDST, src[0] SADDR/VADDR, src[1] VADDR (with SADDR), imm[0] OFFSET;
// stores src[0] VADDR, src[1] VDATA, src[2] SADDR.
// FLAT (flat_load_*, flat_store_*: a 64-bit VADDR, no SADDR) is modelled as global memory: an
// address in the LDS or private apertures is a memory fault, not an LDS or scratch access.
// Flat loads count in VM_CNT only (hardware counts them in LGKM_CNT too; kernels wait for
// both).
#include <bit>
#include <cstring>

#include "drivers/hip/sim/isa/global_races.h"
#include "drivers/hip/sim/isa/memory_window.h"
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/waitcnt.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim::isa {
namespace {

// Loads of kBytes per lane (4 x dwords, or a sub-dword zero/sign-extended to 32 bits). Flat
// loads may also read the workgroup's readable extras (the code object's constants).
template <uint32_t kBytes, bool kSigned, bool kFlat = false>
void GlobalLoad(Wave& w, const Instruction& i) {
  constexpr uint32_t kDwords = kBytes < 4 ? 1 : kBytes / 4;
  uint64_t address[kLanes];
  GlobalAddresses(w, i, i.src[i.has_saddr ? 1 : 0], i.has_saddr ? &i.src[0] : nullptr, address);
  uint64_t exec = w.exec();
  std::vector<uint32_t> data = TakeBuffer(w, size_t{kDwords} * kLanes);
  {
    MemoryWindow memory(*w.context);
    for (uint32_t l = 0; l < kLanes; ++l) {
      if (!((exec >> l) & 1)) continue;
      const uint8_t* bytes = memory.Find(address[l], kBytes, kFlat);
      if (!bytes) return w.Fault(i, address[l], AccessFaultText(memory, "load", l, address[l], kBytes));
      CopyLoadedLane<kBytes, kSigned>(bytes, l, data);
    }
  }
  w.context->counts.global_read_bytes += uint64_t{kBytes} * std::popcount(exec);
  IssueVectorLoad(w, i.dst[0].index, kDwords, exec, std::move(data));
}

template <uint32_t kBytes>
void GlobalStore(Wave& w, const Instruction& i) {
  if (i.num_src < (i.has_saddr ? 3 : 2)) return w.Fail(i, "the operands are missing");
  uint64_t address[kLanes];
  GlobalAddresses(w, i, i.src[0], i.has_saddr ? &i.src[2] : nullptr, address);
  const Operand& vdata = i.src[1];
  uint64_t exec = w.exec();
  {
    MemoryWindow memory(*w.context);
    for (uint32_t l = 0; l < kLanes; ++l) {
      if (!((exec >> l) & 1)) continue;
      uint8_t* bytes = memory.Find(address[l], kBytes);
      if (!bytes) return w.Fault(i, address[l], AccessFaultText(memory, "store", l, address[l], kBytes));
      if constexpr (kBytes >= 4) {
        for (uint32_t d = 0; d < kBytes / 4; ++d) std::memcpy(bytes + 4 * d, &w.v(vdata.index + d)[l], 4);
      } else {
        std::memcpy(bytes, &w.v(vdata.index)[l], kBytes);  // the low bytes (little-endian)
      }
    }
  }
  w.context->counts.global_written_bytes += uint64_t{kBytes} * std::popcount(exec);
  if (w.context->global_writes && !CheckGlobalWrite(w, i, address, exec, kBytes, false)) return;
  IssueVectorStore(w);
}

constexpr OpSemantics kGlobalMemory[] = {
    {"global_load_ubyte", &GlobalLoad<1, false>},    {"global_load_sbyte", &GlobalLoad<1, true>},
    {"global_load_ushort", &GlobalLoad<2, false>},   {"global_load_sshort", &GlobalLoad<2, true>},
    {"global_load_dword", &GlobalLoad<4, false>},    {"global_load_dwordx2", &GlobalLoad<8, false>},
    {"global_load_dwordx3", &GlobalLoad<12, false>}, {"global_load_dwordx4", &GlobalLoad<16, false>},
    {"global_store_byte", &GlobalStore<1>},          {"global_store_short", &GlobalStore<2>},
    {"global_store_dword", &GlobalStore<4>},         {"global_store_dwordx2", &GlobalStore<8>},
    {"global_store_dwordx3", &GlobalStore<12>},      {"global_store_dwordx4", &GlobalStore<16>},
    {"flat_load_ubyte", &GlobalLoad<1, false, true>},    {"flat_load_sbyte", &GlobalLoad<1, true, true>},
    {"flat_load_ushort", &GlobalLoad<2, false, true>},   {"flat_load_sshort", &GlobalLoad<2, true, true>},
    {"flat_load_dword", &GlobalLoad<4, false, true>},    {"flat_load_dwordx2", &GlobalLoad<8, false, true>},
    {"flat_load_dwordx3", &GlobalLoad<12, false, true>}, {"flat_load_dwordx4", &GlobalLoad<16, false, true>},
    {"flat_store_byte", &GlobalStore<1>},                {"flat_store_short", &GlobalStore<2>},
    {"flat_store_dword", &GlobalStore<4>},               {"flat_store_dwordx2", &GlobalStore<8>},
    {"flat_store_dwordx3", &GlobalStore<12>},            {"flat_store_dwordx4", &GlobalStore<16>},
};

}  // namespace

std::span<const OpSemantics> GlobalMemorySemantics() { return kGlobalMemory; }

}  // namespace kiln::hsa_sim::isa
