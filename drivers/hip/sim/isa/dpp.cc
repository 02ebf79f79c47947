// DPP, data-parallel primitives (CDNA3 ISA, "DPP" and the VOP_DPP microcode format): a VOP1,
// VOP2 or VOPC operation whose SRC0 each lane reads from another lane of the wave. The DPP
// dword (the instruction's second dword) holds
//   SRC0[7:0] (a VGPR), DPP_CTRL[16:8], BOUND_CTRL[19], SRC0_NEG[20], SRC0_ABS[21],
//   SRC1_NEG[22], SRC1_ABS[23], BANK_MASK[27:24], ROW_MASK[31:28].
// DPP_CTRL (rows are 16 lanes, banks 4 lanes of a row, quads 4 lanes):
//   0x000-0x0FF quad_perm:[a,b,c,d]  lane q*4+k reads lane q*4 + field k (2 bits each, k=0 low)
//   0x101-0x10F row_shl:n            lane reads lane + n of its row
//   0x111-0x11F row_shr:n            lane reads lane - n of its row
//   0x121-0x12F row_ror:n            lane reads (lane - n) mod 16 within its row
//   0x130 wave_shl:1, 0x134 wave_rol:1, 0x138 wave_shr:1, 0x13C wave_ror:1: by one lane across
//                                    the wave (shl/rol read lane + 1, shr/ror lane - 1)
//   0x140 row_mirror                 lane reads 15 - lane within its row
//   0x141 row_half_mirror            lane reads 7 - lane within its half row
//   0x142 row_bcast:15               every lane of rows 1-3 reads lane 15 of the row before
//   0x143 row_bcast:31               every lane of rows 2 and 3 reads lane 31
// A source lane outside the row (or wave), or whose EXEC bit is 0, is invalid: with BOUND_CTRL
// the lane reads 0, without it the lane does not write (its destination keeps its value).
// row_bcast has no source for rows 0 (bcast:15) and 0-1 (bcast:31): invalid too (LLVM's wave
// reductions mask those rows with ROW_MASK). ROW_MASK bit r and BANK_MASK bit b disable the
// writes of row r and of bank b of every row; they do not change which lanes SRC0 is read from.
// Other DPP_CTRL values (row_newbcast and the reserved ones) are refused at decode.
//
// The decoder (PrepareDpp) points SRC0 at a scratch VGPR after the kernel's file; ExecuteDpp
// fills it with each lane's read and runs the base operation with EXEC narrowed to the lanes
// that write, then restores EXEC (the base operation's mask results are 0 in the other lanes,
// as for any inactive lane).
#include <cstdint>

#include "drivers/hip/sim/isa/program.h"
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/wave.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim::isa {
namespace {

constexpr int kInvalid = -1;

// The lane `lane` reads under `ctrl`, or kInvalid when it is out of the row or wave.
int SourceLane(uint16_t ctrl, int lane) {
  int row = lane & ~15, in_row = lane & 15;
  if (ctrl <= 0xff) return (lane & ~3) | ((ctrl >> (2 * (lane & 3))) & 3);
  int n = ctrl & 15;
  switch (ctrl & 0x1f0) {
    case 0x100: return in_row + n < 16 ? lane + n : kInvalid;  // row_shl
    case 0x110: return in_row - n >= 0 ? lane - n : kInvalid;  // row_shr
    case 0x120: return row | ((in_row - n) & 15);              // row_ror
    default: break;
  }
  switch (ctrl) {
    case 0x130: return lane + 1 < static_cast<int>(kLanes) ? lane + 1 : kInvalid;  // wave_shl:1
    case 0x134: return (lane + 1) % static_cast<int>(kLanes);                       // wave_rol:1
    case 0x138: return lane - 1;                                                    // wave_shr:1
    case 0x13c: return (lane + static_cast<int>(kLanes) - 1) % static_cast<int>(kLanes);  // wave_ror:1
    case 0x140: return row | (15 - in_row);                                         // row_mirror
    case 0x141: return (lane & ~7) | (7 - (lane & 7));                              // row_half_mirror
    case 0x142: return row >= 16 ? row - 1 : kInvalid;                              // row_bcast:15
    case 0x143: return row >= 32 ? 31 : kInvalid;                                   // row_bcast:31
    default: return kInvalid;
  }
}

bool KnownControl(uint16_t ctrl) {
  if (ctrl <= 0xff) return true;
  uint16_t group = ctrl & 0x1f0, n = ctrl & 15;
  if ((group == 0x100 || group == 0x110 || group == 0x120) && n != 0) return true;
  return ctrl == 0x130 || ctrl == 0x134 || ctrl == 0x138 || ctrl == 0x13c || (ctrl >= 0x140 && ctrl <= 0x143);
}

}  // namespace

bool PrepareDpp(uint32_t dword, uint32_t scratch, Instruction* inst, DppForm* form, std::string* why) {
  form->ctrl = static_cast<uint16_t>((dword >> 8) & 0x1ff);
  form->bound_ctrl = (dword >> 19) & 1;
  form->bank_mask = static_cast<uint8_t>((dword >> 24) & 15);
  form->row_mask = static_cast<uint8_t>((dword >> 28) & 15);
  if (!KnownControl(form->ctrl)) {
    *why = StrCat("DPP_CTRL ", Hex(form->ctrl), " (row_newbcast or reserved) is not modelled");
    return false;
  }
  if (inst->num_src < 1 || inst->src[0].kind != Operand::Kind::kVgpr || inst->src[0].dwords != 1) {
    *why = "a DPP form whose SRC0 is not one VGPR";
    return false;
  }
  form->src0 = inst->src[0];
  inst->src[0].index = static_cast<uint16_t>(scratch);  // keeps the modifiers: the base applies them
  inst->num_imm = 0;  // DPP_CTRL, ROW_MASK, BANK_MASK, BOUND_CTRL: no CLAMP or OMOD in VOP_DPP
  return true;
}

void ExecuteDpp(Wave& w, const Instruction& i) {
  const DppForm& f = *i.dpp;
  uint64_t exec = w.exec(), writes = 0;
  const uint32_t* source = w.v(f.src0.index);
  uint32_t* read = w.v(i.src[0].index);
  for (int l = 0; l < static_cast<int>(kLanes); ++l) {
    if (!((exec >> l) & 1) || !((f.row_mask >> (l / 16)) & 1) || !((f.bank_mask >> ((l & 15) / 4)) & 1)) continue;
    int s = SourceLane(f.ctrl, l);
    if (s != kInvalid && ((exec >> s) & 1)) {
      read[l] = source[s];
    } else if (f.bound_ctrl) {
      read[l] = 0;
    } else {
      continue;  // no write
    }
    writes |= uint64_t{1} << l;
  }
  w.SetSgpr64(kExecLo, writes);
  f.base(w, i);
  w.SetSgpr64(kExecLo, exec);
}

}  // namespace kiln::hsa_sim::isa
