// The table from mnemonics to semantics. Each instruction group has its own file and table
// (salu.cc, sopp.cc, smem.cc, waitcnt.cc, valu_int.cc, valu_float.cc, vopc.cc,
// global_memory.cc, lds.cc, mfma.cc, ...); a new group adds its accessor here.
#pragma once

#include <span>
#include <string_view>

#include "drivers/hip/sim/isa/instruction.h"

namespace kiln::hsa_sim::isa {

struct OpSemantics {
  std::string_view mnemonic;  // without the encoding suffix (_e32, _e64)
  Handler handler;
  // Source modifier bits beyond NEG and ABS (instruction.h: kModOpSel, kModOpSelHi) that the
  // handler reads; the decoder refuses an instruction with any other bit set.
  uint8_t modifiers = 0;
};

std::span<const OpSemantics> SaluSemantics();
std::span<const OpSemantics> SoppSemantics();
std::span<const OpSemantics> SmemSemantics();
std::span<const OpSemantics> WaitcntSemantics();
std::span<const OpSemantics> ValuIntSemantics();
std::span<const OpSemantics> ValuFloatSemantics();
std::span<const OpSemantics> VopcSemantics();
std::span<const OpSemantics> GlobalMemorySemantics();
std::span<const OpSemantics> LdsSemantics();
std::span<const OpSemantics> MfmaSemantics();
std::span<const OpSemantics> ValuNarrowIntSemantics();
std::span<const OpSemantics> ValuFloatSpecialSemantics();
std::span<const OpSemantics> ValuF16Semantics();
std::span<const OpSemantics> ValuPackedSemantics();
std::span<const OpSemantics> GprIndexSemantics();
std::span<const OpSemantics> GlobalAtomicSemantics();
std::span<const OpSemantics> CacheControlSemantics();
std::span<const OpSemantics> ScratchMemorySemantics();
std::span<const OpSemantics> ValuF64Semantics();

// The semantics of `mnemonic` (encoding suffix already removed), or null.
const OpSemantics* FindSemantics(std::string_view mnemonic);

// SDWA (sdwa.cc): runs inst.sdwa's base operation on the selected fields.
void ExecuteSdwa(Wave& wave, const Instruction& inst);
// Fills `form` from the SDWA dword (the instruction's second dword) and points `inst`'s
// sources and destination at the scratch VGPRs from `scratch` on; false (with *why) when the
// instruction cannot run in this form.
bool PrepareSdwa(uint32_t sdwa_dword, uint32_t scratch, Instruction* inst, SdwaForm* form, std::string* why);
// DPP (dpp.cc): runs inst.dpp's base operation with SRC0 read across lanes.
void ExecuteDpp(Wave& wave, const Instruction& inst);
// Fills `form` from the DPP dword and points SRC0 at the scratch VGPR `scratch`; false (with
// *why) when the instruction cannot run in this form.
bool PrepareDpp(uint32_t dpp_dword, uint32_t scratch, Instruction* inst, DppForm* form, std::string* why);
// VGPR indexing (gpr_index.cc): runs a VALU instruction with the M0 index added to the VGPR
// operands s_set_gpr_idx_on enabled.
void RunIndexed(Wave& wave, const Instruction& inst);

// Handlers for instructions that must fail when executed.
void Unimplemented(Wave& wave, const Instruction& inst);  // no semantics for the mnemonic
void DecodeError(Wave& wave, const Instruction& inst);    // inst.text says what is wrong

}  // namespace kiln::hsa_sim::isa
