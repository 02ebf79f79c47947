// A kernel ready to execute: its code object entry (descriptor, metadata) and its machine code
// decoded once, at load (decoder.cc), into the executor's instruction form.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "drivers/hip/sim/isa/code_object.h"
#include "drivers/hip/sim/isa/instruction.h"

namespace kiln::hsa_sim::isa {

struct Program {
  KernelCode kernel;
  std::vector<Instruction> instructions;  // in address order
  // The unified VGPR file of one work-item (ArchVGPRs [0, accum_offset), AccVGPRs after), in
  // registers, from the descriptor's granulated count.
  uint32_t vgpr_file = 0;
  uint32_t accum_offset = 0;
  uint32_t first_system_sgpr = 0;  // USER_SGPR_COUNT
  std::deque<SdwaForm> sdwa_forms;  // what the SDWA instructions point to (stable addresses)
  std::deque<DppForm> dpp_forms;    // what the DPP instructions point to
  // The distinct v_mfma_* mnemonics of the code, in order of first appearance: slot i of
  // ExecutionCounts::mfma_by_op counts mfma_mnemonics[i] (the last slot, all beyond it).
  std::vector<std::string> mfma_mnemonics;

  // Registers after the file that the executor uses for SDWA's selected sources and result
  // and DPP's lane reads (instruction.h, SdwaForm, DppForm): the waves allocate vgpr_file +
  // kScratchVgprs rows.
  static constexpr uint32_t kScratchVgprs = 3;

  // The instruction index at byte `offset` from the entry, or -1 when `offset` is not the
  // start of a decoded instruction.
  int64_t IndexAt(uint64_t offset) const;
};

// Decodes `kernel`'s code for `processor` ("gfx942") with LLVM's AMDGPU disassembler and
// binds each instruction to its semantics (semantics.h). Undecodable bytes and instructions
// without semantics become instructions that fail the dispatch when executed, naming the
// mnemonic, the kernel and the offset; they do not fail the load. (A unique_ptr: shared
// ownership is set up by the caller, outside the decoder's translation unit, which is compiled
// without RTTI like LLVM.)
StatusOr<std::unique_ptr<Program>> DecodeProgram(KernelCode kernel, const std::string& processor);

// False when this build has no decoder (LLVM's AMDGPU target was not found at configure time),
// with the reason in *why.
bool DecoderAvailable(std::string* why);

}  // namespace kiln::hsa_sim::isa
