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

// The handler of `mnemonic` (encoding suffix already removed), or null.
Handler FindSemantics(std::string_view mnemonic);

// Handlers for instructions that must fail when executed.
void Unimplemented(Wave& wave, const Instruction& inst);  // no semantics for the mnemonic
void DecodeError(Wave& wave, const Instruction& inst);    // inst.text says what is wrong

}  // namespace kiln::hsa_sim::isa
