// SDWA, sub-dword addressing (CDNA3 ISA, "SDWA" and the VOP_SDWA microcode format): a VOP1,
// VOP2 or VOPC operation on fields of its 32-bit sources, writing a field of its destination.
// The SDWA dword (the instruction's second dword) holds
//   SRC0[7:0], then DST_SEL[10:8], DST_UNUSED[12:11], CLAMP[13], OMOD[15:14] (VOPC: SDST[14:8]
//   and SD[15] instead), SRC0_SEL[18:16], SRC0_SEXT[19], SRC0_NEG[20], SRC0_ABS[21], S0[23],
//   SRC1_SEL[26:24], SRC1_SEXT[27], SRC1_NEG[28], SRC1_ABS[29], S1[31].
// A source field (BYTE_0..3, WORD_0/1, DWORD) is moved to the low bits, zero- or (SEXT)
// sign-extended, then NEG/ABS apply as the operation's type defines them (the base handler
// reads them from its scratch operand). The result's low byte, word or dword goes to DST_SEL's
// field; the other bits are 0 (UNUSED_PAD), the field's sign (UNUSED_SEXT, above the field;
// 0 below) or the destination's previous bits (UNUSED_PRESERVE). Only the lanes of EXEC write.
//
// The decoder (PrepareSdwa) points the instruction's sources and destination at scratch VGPRs
// after the kernel's file, so the operation runs unchanged on the selected values.
#include <cstdint>

#include "drivers/hip/sim/isa/program.h"
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/wave.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim::isa {
namespace {

constexpr uint8_t kDword = 6, kUnusedSext = 1, kUnusedPreserve = 2;

// Field `sel`'s bit offset and width.
uint32_t Shift(uint8_t sel) { return sel < 4 ? 8 * sel : sel < 6 ? 16 * (sel - 4) : 0; }
uint32_t Width(uint8_t sel) { return sel < 4 ? 8 : sel < 6 ? 16 : 32; }

uint32_t Select(uint32_t value, uint8_t sel, bool sext) {
  if (sel >= kDword) return value;
  uint32_t width = Width(sel), field = (value >> Shift(sel)) & ((1u << width) - 1);
  if (sext && (field >> (width - 1)) & 1) field |= ~0u << width;
  return field;
}

uint32_t Place(uint32_t result, uint32_t old, uint8_t sel, uint8_t unused) {
  if (sel >= kDword) return result;
  uint32_t shift = Shift(sel), width = Width(sel), mask = ((1u << width) - 1) << shift;
  uint32_t field = (result << shift) & mask;
  if (unused == kUnusedPreserve) return field | (old & ~mask);
  if (unused == kUnusedSext && (result >> (width - 1)) & 1 && shift + width < 32) field |= ~0u << (shift + width);
  return field;
}

}  // namespace

bool PrepareSdwa(uint32_t dword, uint32_t scratch, Instruction* inst, SdwaForm* form, std::string* why) {
  if (form->sources < 1 || form->sources > 2 || inst->num_dst < 1) {
    *why = "an SDWA form with operands the executor does not represent";
    return false;
  }
  for (uint32_t k = 0; k < form->sources; ++k) {
    Operand& src = inst->src[k];
    if (src.kind == Operand::Kind::kVgpr || src.kind == Operand::Kind::kSgpr) {
      if (src.dwords != 1) {
        *why = "an SDWA source wider than 32 bits";
        return false;
      }
    }
    uint32_t base = k == 0 ? 16 : 24;
    form->src_sel[k] = (dword >> base) & 7;
    form->src_sext[k] = (dword >> (base + 3)) & 1;
    form->src[k] = src;
    form->src[k].modifiers = 0;
    Operand selected;
    selected.kind = Operand::Kind::kVgpr;
    selected.dwords = 1;
    selected.index = static_cast<uint16_t>(scratch + k);
    selected.modifiers = static_cast<uint8_t>(((dword >> (base + 4)) & 1 ? kModNeg : 0) |
                                              ((dword >> (base + 5)) & 1 ? kModAbs : 0));
    src = selected;
    if (form->src_sel[k] > kDword) {
      *why = StrCat("SDWA source select ", form->src_sel[k], " is reserved");
      return false;
    }
  }
  inst->num_imm = 0;
  if (!form->vopc) {
    form->dst_sel = (dword >> 8) & 7;
    form->dst_unused = (dword >> 11) & 3;
    if (form->dst_sel > kDword || form->dst_unused > kUnusedPreserve) {
      *why = "a reserved SDWA DST_SEL or DST_UNUSED";
      return false;
    }
    if (inst->dst[0].kind != Operand::Kind::kVgpr || inst->dst[0].dwords != 1) {
      *why = "an SDWA destination that is not one VGPR";
      return false;
    }
    form->dst = inst->dst[0];
    inst->dst[0].index = static_cast<uint16_t>(scratch + 2);
    // The base handlers' VOP3 output modifiers: imm[0] CLAMP, imm[1] OMOD.
    inst->imm[0] = (dword >> 13) & 1;
    inst->imm[1] = (dword >> 14) & 3;
    inst->num_imm = 2;
  }
  return true;
}

void ExecuteSdwa(Wave& w, const Instruction& i) {
  const SdwaForm& f = *i.sdwa;
  for (uint32_t k = 0; k < f.sources; ++k) {
    uint32_t value[kLanes];
    Lanes32(w, f.src[k], value);
    uint32_t* selected = w.v(i.src[k].index);
    for (uint32_t l = 0; l < kLanes; ++l) selected[l] = Select(value[l], f.src_sel[k], f.src_sext[k]);
  }
  f.base(w, i);
  if (f.vopc || w.stopped()) return;
  const uint32_t* result = w.v(i.dst[0].index);
  uint32_t* d = w.v(f.dst.index);
  uint64_t exec = w.exec();
  for (uint32_t l = 0; l < kLanes; ++l) {
    if ((exec >> l) & 1) d[l] = Place(result[l], d[l], f.dst_sel, f.dst_unused);
  }
}

}  // namespace kiln::hsa_sim::isa
