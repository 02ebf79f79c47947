// A decoded gfx9-family (gfx942) instruction in the executor's own form: what LLVM's AMDGPU
// disassembler found (decoder.cc), resolved once per kernel so that executing it needs no
// LLVM and no string work.
//
// Operands are normalised across encodings (VOP1/VOP2/VOPC "_e32" and their VOP3 "_e64"
// forms): `dst` holds the explicit definitions in order followed by an implicit VCC
// definition, `src` the explicit uses in order followed by an implicit VCC use, so that
// v_cmp_*_e32 and v_cmp_*_e64 both find their mask in dst[0], v_add_co_u32 finds its carry-out
// in dst[1] and v_cndmask_b32 its mask in src[2] whatever the encoding. The trailing immediate
// operands (offsets, cache policy, clamp, omod, simm16) are in `imm`, in order.
#pragma once

#include <cstdint>
#include <string>

#include "drivers/hip/sim/isa/counts.h"

namespace kiln::hsa_sim::isa {

struct Wave;
struct Instruction;

// Executes `inst` on `wave` (its exec mask, registers, memory). Control flow, the end of the
// program and failures are recorded in the wave (wave.h).
using Handler = void (*)(Wave& wave, const Instruction& inst);

// Scalar register numbers follow the hardware's operand encoding (CDNA3 ISA, "Scalar
// General-Purpose Registers" and the SSRC operand table), so VCC, M0 and EXEC are SGPR slots.
inline constexpr uint32_t kSgprSlots = 128;
inline constexpr uint16_t kFlatScratchLo = 102;
inline constexpr uint16_t kXnackMaskLo = 104;
inline constexpr uint16_t kVccLo = 106;
inline constexpr uint16_t kTtmp0 = 108;
inline constexpr uint16_t kM0 = 124;
inline constexpr uint16_t kExecLo = 126;
inline constexpr uint32_t kMaxAddressableSgprs = 102;  // s0..s101 on gfx9

// Source modifier bits as the disassembler reports them: VOP3 NEG and ABS; VOP3P reads ABS as
// NEG_HI (the high lane's negate) and OP_SEL_0/OP_SEL_1 as op_sel/op_sel_hi; VOP3 opcodes with
// op_sel take OP_SEL_0 as the source's op_sel bit (and src0's OP_SEL_1 as the destination's);
// SDWA integer sources have SEXT.
inline constexpr uint8_t kModNeg = 1;
inline constexpr uint8_t kModAbs = 2;
inline constexpr uint8_t kModNegHi = kModAbs;
inline constexpr uint8_t kModOpSel = 4;
inline constexpr uint8_t kModOpSelHi = 8;
inline constexpr uint8_t kModSext = 16;

struct Operand {
  enum class Kind : uint8_t {
    kNone,
    kSgpr,   // index = slot (0..127), dwords consecutive slots
    kVgpr,   // index = position in the wave's unified register file (AGPRs after accum_offset)
    kImm,    // an inline constant or a literal: imm (the disassembler's value)
    kOther,  // a register the executor does not model; `name` in the instruction's text
  };
  Kind kind = Kind::kNone;
  uint8_t dwords = 0;     // registers: how many consecutive 32-bit registers
  uint8_t modifiers = 0;  // kModNeg | kModAbs
  uint16_t index = 0;
  int64_t imm = 0;
};

// An SDWA instruction (CDNA3 ISA, "SDWA", the VOP_SDWA microcode format): the decoder points
// the instruction's sources and destination at scratch VGPRs after the kernel's file and keeps
// the real operands here; sdwa.cc selects the source fields into the scratch registers, runs
// the base operation, and writes its result's field into the real destination.
struct SdwaForm {
  Handler base = nullptr;  // the semantics of the mnemonic without "_sdwa"
  bool vopc = false;       // a compare: the mask goes to its SGPR destination, no DST_SEL
  uint8_t sources = 0;     // explicit sources (1 for VOP1, 2 for VOP2 and VOPC)
  uint8_t src_sel[2] = {6, 6};  // BYTE_0..3 = 0..3, WORD_0/1 = 4/5, DWORD = 6
  bool src_sext[2] = {};
  uint8_t dst_sel = 6;
  uint8_t dst_unused = 0;  // UNUSED_PAD 0, UNUSED_SEXT 1, UNUSED_PRESERVE 2
  Operand src[2];
  Operand dst;
};

// A DPP instruction (CDNA3 ISA, "DPP", the VOP_DPP microcode format): the decoder points SRC0
// at a scratch VGPR after the kernel's file and keeps the real SRC0 here; dpp.cc fills the
// scratch register with each lane's read and runs the base operation on the lanes that write.
struct DppForm {
  Handler base = nullptr;  // the semantics of the mnemonic without "_dpp"
  uint16_t ctrl = 0;       // DPP_CTRL
  uint8_t row_mask = 15, bank_mask = 15;
  bool bound_ctrl = false;  // invalid source lanes read 0 (else they do not write)
  Operand src0;
};

struct Instruction {
  static constexpr int kMaxDst = 2;
  static constexpr int kMaxSrc = 4;
  static constexpr int kMaxImm = 6;

  Handler handler = nullptr;
  uint32_t offset = 0;  // bytes from the kernel's entry point
  uint8_t size = 0;     // bytes
  uint8_t num_dst = 0, num_src = 0, num_imm = 0;
  // Set by the decoder from LLVM's opcode name, for encodings whose operand list depends on
  // the variant (global_* with or without SADDR; s_load_* with an SGPR or an immediate offset).
  bool has_saddr = false;
  bool smem_sgpr_offset = false;
  bool smem_imm_offset = false;
  bool valu = false;  // a vector ALU instruction (v_*): VGPR indexing applies to it
  OpClass op_class = OpClass::kSalu;  // what the per-dispatch counts count it as (counts.h)
  uint8_t mfma_op = 0;  // kMfma: the slot of ExecutionCounts::mfma_by_op (Program::mfma_mnemonics)
  uint32_t target = 0;  // branches: the index of the target instruction
  Operand dst[kMaxDst];
  Operand src[kMaxSrc];
  int64_t imm[kMaxImm] = {};
  const SdwaForm* sdwa = nullptr;  // SDWA forms only (owned by the Program)
  const DppForm* dpp = nullptr;    // DPP forms only (owned by the Program)
  std::string mnemonic;  // "v_add_co_u32_e32"
  std::string text;      // the disassembly, for messages
  std::string error;     // DecodeError: why the instruction cannot execute
};

}  // namespace kiln::hsa_sim::isa
