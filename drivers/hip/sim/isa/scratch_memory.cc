// Private memory: scratch_load_* and scratch_store_* (CDNA3 ISA, "Flat, Scratch and Global
// Instructions", scratch; gfx942 has architected flat scratch, so the hardware adds each
// wave's scratch base and interleaves the lanes itself). Each active lane's address is
//   VADDR (a 32-bit VGPR, or "off") + SADDR (an SGPR, or "off") + the 13-bit signed OFFSET,
// a byte offset in that work-item's private segment of the descriptor's
// PRIVATE_SEGMENT_FIXED_SIZE bytes (the wave's own memory here: no other wave sees it, as on
// hardware). An access outside it fails the dispatch naming the lane and the address (a kernel
// bug; a dynamic stack is not modelled). Loads read at issue and land when they retire, stores
// write at issue; both count in VM_CNT.
// Operands: loads dst[0] VDST, src[] the address operands present; stores src[0] VDATA, then
// the address operands present; a VGPR is VADDR, an SGPR SADDR; imm[0] OFFSET.
#include <cstring>

#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/waitcnt.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim::isa {
namespace {

// Lane addresses from the address operands src[first..num_src).
void PrivateAddresses(const Wave& w, const Instruction& i, int first, uint64_t out[kLanes]) {
  int64_t base = FlatOffset(i);
  for (int k = first; k < i.num_src; ++k) {
    if (i.src[k].kind == Operand::Kind::kSgpr) base += w.s[i.src[k].index];
  }
  const Operand* vaddr = nullptr;
  for (int k = first; k < i.num_src; ++k) {
    if (i.src[k].kind == Operand::Kind::kVgpr) vaddr = &i.src[k];
  }
  for (uint32_t l = 0; l < kLanes; ++l) {
    out[l] = static_cast<uint32_t>(base + (vaddr ? w.v(vaddr->index)[l] : 0));
  }
}

// Lane `lane`'s bytes [address, address + size) of its private segment, or null after failing.
uint8_t* PrivateBytes(Wave& w, const Instruction& i, uint32_t lane, uint64_t address, uint32_t size) {
  if (address > w.scratch_per_lane || size > w.scratch_per_lane - address) {
    w.Fail(i, StrCat("lane ", lane, " accesses private bytes [", Hex(address), ", +", size, ") outside its ",
                     w.scratch_per_lane, "-byte private segment"));
    return nullptr;
  }
  return w.scratch.data() + size_t{lane} * w.scratch_per_lane + address;
}

template <uint32_t kBytes, bool kSigned>
void ScratchLoad(Wave& w, const Instruction& i) {
  constexpr uint32_t kDwords = kBytes < 4 ? 1 : kBytes / 4;
  uint64_t address[kLanes];
  PrivateAddresses(w, i, 0, address);
  uint64_t exec = w.exec();
  std::vector<uint32_t> data = TakeBuffer(w, size_t{kDwords} * kLanes);
  for (uint32_t l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1)) continue;
    const uint8_t* bytes = PrivateBytes(w, i, l, address[l], kBytes);
    if (!bytes) return;
    CopyLoadedLane<kBytes, kSigned>(bytes, l, data);
  }
  IssueVectorLoad(w, i.dst[0].index, kDwords, exec, std::move(data));
}

template <uint32_t kBytes>
void ScratchStore(Wave& w, const Instruction& i) {
  if (i.num_src < 1) return w.Fail(i, "the data operand is missing");
  uint64_t address[kLanes];
  PrivateAddresses(w, i, 1, address);
  const Operand& vdata = i.src[0];
  uint64_t exec = w.exec();
  for (uint32_t l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1)) continue;
    uint8_t* bytes = PrivateBytes(w, i, l, address[l], kBytes);
    if (!bytes) return;
    if constexpr (kBytes >= 4) {
      for (uint32_t d = 0; d < kBytes / 4; ++d) std::memcpy(bytes + 4 * d, &w.v(vdata.index + d)[l], 4);
    } else {
      std::memcpy(bytes, &w.v(vdata.index)[l], kBytes);
    }
  }
  IssueVectorStore(w);
}

constexpr OpSemantics kScratchMemory[] = {
    {"scratch_load_ubyte", &ScratchLoad<1, false>},    {"scratch_load_sbyte", &ScratchLoad<1, true>},
    {"scratch_load_ushort", &ScratchLoad<2, false>},   {"scratch_load_sshort", &ScratchLoad<2, true>},
    {"scratch_load_dword", &ScratchLoad<4, false>},    {"scratch_load_dwordx2", &ScratchLoad<8, false>},
    {"scratch_load_dwordx3", &ScratchLoad<12, false>}, {"scratch_load_dwordx4", &ScratchLoad<16, false>},
    {"scratch_store_byte", &ScratchStore<1>},          {"scratch_store_short", &ScratchStore<2>},
    {"scratch_store_dword", &ScratchStore<4>},         {"scratch_store_dwordx2", &ScratchStore<8>},
    {"scratch_store_dwordx3", &ScratchStore<12>},      {"scratch_store_dwordx4", &ScratchStore<16>},
};

}  // namespace

std::span<const OpSemantics> ScratchMemorySemantics() { return kScratchMemory; }

}  // namespace kiln::hsa_sim::isa
