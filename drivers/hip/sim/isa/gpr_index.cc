// VGPR indexing (CDNA3 ISA, "VGPR Indexing" and the SOPC/SOPP opcodes S_SET_GPR_IDX_*):
//   s_set_gpr_idx_on S0, SIMM4: M0[7:0] = S0[7:0], M0[15:12] = SIMM4, MODE.gpr_idx_en = 1;
//   s_set_gpr_idx_off: MODE.gpr_idx_en = 0;
//   s_set_gpr_idx_idx S0: M0[7:0] = S0[7:0];  s_set_gpr_idx_mode SIMM4: M0[15:12] = SIMM4.
// While enabled, a VALU instruction adds M0[7:0] to the VGPR number of each operand whose bit
// is set in M0[15:12]: bit 0 SRC0, 1 SRC1, 2 SRC2, 3 VDST (LLVM's "imask" operand reference).
// An indexed register outside the kernel's VGPR allocation fails the dispatch: it is a kernel
// bug, and stricter than what the hardware does with it.
// Operands: s_set_gpr_idx_on src[0] S0, imm[0] SIMM4; _idx src[0]; _mode imm[0].
#include <cstdint>

#include "drivers/hip/sim/isa/program.h"
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/wave.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim::isa {
namespace {

constexpr uint32_t kIndexMask = 0xff, kModeShift = 12, kModeMask = 0xfu << kModeShift;

void SetIndex(Wave& w, uint32_t index) { w.s[kM0] = (w.s[kM0] & ~kIndexMask) | (index & kIndexMask); }
void SetMode(Wave& w, int64_t mode) {
  w.s[kM0] = (w.s[kM0] & ~kModeMask) | ((static_cast<uint32_t>(mode) & 0xf) << kModeShift);
}

void GprIdxOn(Wave& w, const Instruction& i) {
  if (i.num_src < 1 || i.num_imm < 1) return w.Fail(i, "the operands are missing");
  SetIndex(w, Scalar32(w, i.src[0]));
  SetMode(w, i.imm[0]);
  w.gpr_idx_on = true;
}
void GprIdxOff(Wave& w, const Instruction&) { w.gpr_idx_on = false; }
void GprIdxIdx(Wave& w, const Instruction& i) {
  if (i.num_src < 1) return w.Fail(i, "the operand is missing");
  SetIndex(w, Scalar32(w, i.src[0]));
}
void GprIdxMode(Wave& w, const Instruction& i) {
  if (i.num_imm < 1) return w.Fail(i, "the operand is missing");
  SetMode(w, i.imm[0]);
}

constexpr OpSemantics kGprIndex[] = {
    {"s_set_gpr_idx_on", &GprIdxOn},
    {"s_set_gpr_idx_off", &GprIdxOff},
    {"s_set_gpr_idx_idx", &GprIdxIdx},
    {"s_set_gpr_idx_mode", &GprIdxMode},
};

}  // namespace

void RunIndexed(Wave& w, const Instruction& i) {
  if (i.sdwa) return w.Fail(i, "an SDWA instruction under VGPR indexing is not modelled");
  uint32_t index = w.s[kM0] & kIndexMask, mode = (w.s[kM0] & kModeMask) >> kModeShift;
  uint32_t file = w.context->program->vgpr_file;
  // A copy per execution: indexing is on for one or two instructions at a time.
  thread_local Instruction indexed;
  indexed = i;
  auto shift = [&](Operand& op, const char* field) {
    if (op.kind != Operand::Kind::kVgpr) return true;
    op.index = static_cast<uint16_t>(op.index + index);
    if (op.index + op.dwords <= file) return true;
    w.Fail(i, StrCat("VGPR indexing (M0 index ", index, ") moves ", field, " to v", op.index,
                     ", outside the kernel's ", file, " VGPRs"));
    return false;
  };
  if ((mode & 1) && indexed.num_src > 0 && !shift(indexed.src[0], "SRC0")) return;
  if ((mode & 2) && indexed.num_src > 1 && !shift(indexed.src[1], "SRC1")) return;
  if ((mode & 4) && indexed.num_src > 2 && !shift(indexed.src[2], "SRC2")) return;
  if ((mode & 8) && indexed.num_dst > 0 && !shift(indexed.dst[0], "VDST")) return;
  indexed.handler(w, indexed);
}

std::span<const OpSemantics> GprIndexSemantics() { return kGprIndex; }

}  // namespace kiln::hsa_sim::isa
