// Scalar memory loads: s_load_dword{,x2,x4,x8,x16} (CDNA3 ISA, "Scalar Memory Operations").
// The address is SBASE (an SGPR pair) plus the immediate byte offset and/or the SOFFSET SGPR;
// its two low bits are ignored (scalar loads are dword-aligned). The data is read at issue
// and lands in the SGPRs when the load retires (waitcnt.h): LGKM_CNT.
#include "drivers/hip/sim/isa/memory_window.h"
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/waitcnt.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim::isa {
namespace {

template <uint8_t kDwords>
void SLoad(Wave& w, const Instruction& i) {
  uint64_t address = Scalar64(w, i.src[0]);
  int ioff = 0;
  if (i.smem_sgpr_offset) address += Scalar32(w, i.src[1]);
  if (i.smem_imm_offset) address += static_cast<uint64_t>(i.imm[ioff]);
  address &= ~uint64_t{3};
  std::vector<uint32_t> data = TakeBuffer(w, kDwords);
  {
    MemoryWindow memory(*w.context);
    const uint8_t* bytes = memory.Find(address, 4u * kDwords, /*extras=*/true);
    if (!bytes) {
      w.Fault(i, address, StrCat("scalar load of ", 4 * kDwords, " bytes: ", memory.Describe(address, 4 * kDwords)));
      return;
    }
    std::memcpy(data.data(), bytes, 4u * kDwords);
  }
  IssueScalarLoad(w, i.dst[0].index, kDwords, std::move(data));
}

constexpr OpSemantics kSmem[] = {
    {"s_load_dword", &SLoad<1>},   {"s_load_dwordx2", &SLoad<2>},   {"s_load_dwordx4", &SLoad<4>},
    {"s_load_dwordx8", &SLoad<8>}, {"s_load_dwordx16", &SLoad<16>},
};

}  // namespace

std::span<const OpSemantics> SmemSemantics() { return kSmem; }

}  // namespace kiln::hsa_sim::isa
