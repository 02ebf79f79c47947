// The only file of the simulator that uses LLVM: its AMDGPU MC disassembler decodes a kernel's
// machine code once, at load, into the executor's form (instruction.h). Compiled without RTTI,
// as LLVM is.
#include <algorithm>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCDisassembler/MCDisassembler.h>
#include <llvm/MC/MCExpr.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstPrinter.h>
#include <llvm/MC/MCInstrDesc.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include <cctype>
#include <cstring>
#include <charconv>
#include <memory>
#include <mutex>
#include <string_view>

#include "drivers/hip/sim/isa/program.h"
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/sim_api.h"

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUDisassembler();
}

namespace kiln::hsa_sim::isa {
namespace {

constexpr const char* kTriple = "amdgcn-amd-amdhsa";

// LLVM's MC objects for one processor. Not shared between threads: each load makes its own.
struct McTools {
  llvm::Triple triple{kTriple};
  const llvm::Target* target = nullptr;
  std::unique_ptr<llvm::MCRegisterInfo> registers;
  std::unique_ptr<llvm::MCAsmInfo> asm_info;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;
  std::unique_ptr<llvm::MCInstrInfo> instr_info;
  std::unique_ptr<llvm::MCContext> context;
  std::unique_ptr<llvm::MCDisassembler> disassembler;
  std::unique_ptr<llvm::MCInstPrinter> printer;
};

StatusOr<std::unique_ptr<McTools>> MakeTools(const std::string& processor) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
  });
  auto t = std::make_unique<McTools>();
  std::string error;
  t->target = llvm::TargetRegistry::lookupTarget(t->triple, error);
  if (!t->target) return InternalError("LLVM has no AMDGPU target: ", error);
  t->registers.reset(t->target->createMCRegInfo(t->triple));
  llvm::MCTargetOptions options;
  if (t->registers) t->asm_info.reset(t->target->createMCAsmInfo(*t->registers, t->triple, options));
  t->subtarget.reset(t->target->createMCSubtargetInfo(t->triple, processor, ""));
  t->instr_info.reset(t->target->createMCInstrInfo());
  if (!t->registers || !t->asm_info || !t->subtarget || !t->instr_info) {
    return InternalError("LLVM could not create the AMDGPU MC layer for ", processor);
  }
  t->context = std::make_unique<llvm::MCContext>(t->triple, t->asm_info.get(), t->registers.get(), t->subtarget.get());
  t->disassembler.reset(t->target->createMCDisassembler(*t->subtarget, *t->context));
  t->printer.reset(t->target->createMCInstPrinter(t->triple, 0, *t->asm_info, *t->instr_info, *t->registers));
  if (!t->disassembler || !t->printer) return InternalError("LLVM has no AMDGPU disassembler or printer");
  return t;
}

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// "SGPR4_SGPR5" -> first 4, 2 registers of the prefix; false when `name` is not such a tuple.
bool ParseTuple(std::string_view name, std::string_view prefix, uint32_t* first, uint32_t* count) {
  *count = 0;
  while (!name.empty()) {
    if (!StartsWith(name, prefix)) return false;
    name.remove_prefix(prefix.size());
    uint32_t n = 0;
    auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), n);
    if (ec != std::errc() || end == name.data()) return false;
    if ((*count)++ == 0) *first = n;
    name.remove_prefix(end - name.data());
    if (!name.empty()) {
      if (name.front() != '_') return false;
      name.remove_prefix(1);
    }
  }
  return *count > 0;
}

// Maps an LLVM register to the executor's operand. Registers it does not model become kOther.
Operand RegisterOperand(std::string_view name, uint32_t accum_offset) {
  struct Special {
    std::string_view name;
    uint16_t slot;
    uint8_t dwords;
  };
  static constexpr Special kSpecial[] = {
      {"VCC", kVccLo, 2},
      {"VCC_LO", kVccLo, 1},
      {"VCC_HI", kVccLo + 1, 1},
      {"EXEC", kExecLo, 2},
      {"EXEC_LO", kExecLo, 1},
      {"EXEC_HI", kExecLo + 1, 1},
      {"M0", kM0, 1},
      {"M0_gfxpre11", kM0, 1},  // LLVM 22's name for M0 before gfx11
      {"FLAT_SCR", kFlatScratchLo, 2},
      {"FLAT_SCR_LO", kFlatScratchLo, 1},
      {"FLAT_SCR_HI", kFlatScratchLo + 1, 1},
      {"XNACK_MASK", kXnackMaskLo, 2},
      {"XNACK_MASK_LO", kXnackMaskLo, 1},
      {"XNACK_MASK_HI", kXnackMaskLo + 1, 1},
  };
  Operand op;
  for (const Special& s : kSpecial) {
    if (name == s.name) {
      op.kind = Operand::Kind::kSgpr;
      op.index = s.slot;
      op.dwords = s.dwords;
      return op;
    }
  }
  uint32_t first = 0, count = 0;
  if (ParseTuple(name, "SGPR", &first, &count) && first + count <= kMaxAddressableSgprs) {
    op.kind = Operand::Kind::kSgpr;
  } else if (ParseTuple(name, "TTMP", &first, &count) && first + count <= 16) {
    op.kind = Operand::Kind::kSgpr;
    first += kTtmp0;
  } else if (ParseTuple(name, "VGPR", &first, &count) && first + count <= 256) {
    op.kind = Operand::Kind::kVgpr;
  } else if (ParseTuple(name, "AGPR", &first, &count) && first + count <= 256) {
    op.kind = Operand::Kind::kVgpr;
    first += accum_offset;  // gfx90a/gfx942: AccVGPRs follow the ArchVGPRs in the unified file
  } else {
    op.kind = Operand::Kind::kOther;
    return op;
  }
  op.index = static_cast<uint16_t>(first);
  op.dwords = static_cast<uint8_t>(count);
  return op;
}

// The mnemonic's key in the semantics table: the printed mnemonic without _e32/_e64 (LLVM's
// printer gives the mnemonic without the encoding suffix; the suffix is stripped in case).
std::string_view SemanticsKey(std::string_view mnemonic) {
  for (std::string_view suffix : {"_e32", "_e64"}) {
    if (mnemonic.size() > suffix.size() && mnemonic.substr(mnemonic.size() - suffix.size()) == suffix) {
      return mnemonic.substr(0, mnemonic.size() - suffix.size());
    }
  }
  return mnemonic;
}

bool IsBranch(std::string_view mnemonic) { return mnemonic == "s_branch" || StartsWith(mnemonic, "s_cbranch_"); }

void MarkError(Instruction* inst, std::string why) {
  if (!inst->error.empty()) return;
  inst->error = std::move(why);
  inst->handler = &DecodeError;
}

// Fills `out` from one decoded MCInst; `bytes` are its machine code (SDWA reads its second dword).
void Translate(const McTools& t, const llvm::MCInst& mc, llvm::ArrayRef<uint8_t> bytes, Program& program,
               Instruction* out) {
  const llvm::MCInstrDesc& desc = t.instr_info->get(mc.getOpcode());
  std::string_view opcode_name = t.instr_info->getName(mc.getOpcode());
  out->has_saddr = opcode_name.find("_SADDR") != std::string_view::npos;
  out->smem_sgpr_offset = opcode_name.find("_SGPR") != std::string_view::npos;
  out->smem_imm_offset = opcode_name.find("_IMM") != std::string_view::npos;
  const char* mnemonic = t.printer->getMnemonic(mc).first;
  // The first word: the printer's mnemonic string may carry operand text ("scratch_store_dword off,").
  std::string_view first_word = Trim(mnemonic ? mnemonic : opcode_name);
  first_word = first_word.substr(0, std::min(first_word.find(' '), first_word.size()));
  out->mnemonic = std::string(first_word);
  {
    std::string text;
    llvm::raw_string_ostream os(text);
    t.printer->printInst(&mc, out->offset, "", *t.subtarget, os);
    os.flush();
    out->text = std::string(Trim(text));
  }
  std::string_view key = SemanticsKey(out->mnemonic);
  bool sdwa = opcode_name.find("_sdwa") != std::string_view::npos;
  if (sdwa && key.size() > 5 && key.substr(key.size() - 5) == "_sdwa") key.remove_suffix(5);
  bool dpp = opcode_name.find("_dpp") != std::string_view::npos;
  if (dpp && key.size() > 4 && key.substr(key.size() - 4) == "_dpp") key.remove_suffix(4);
  const OpSemantics* semantics = FindSemantics(key);
  out->handler = semantics ? semantics->handler : &Unimplemented;
  out->valu = StartsWith(out->mnemonic, "v_");
  out->op_class = ClassOf(out->mnemonic);
  if (out->op_class == OpClass::kMfma) {
    auto known = std::find(program.mfma_mnemonics.begin(), program.mfma_mnemonics.end(), out->mnemonic);
    size_t slot = known - program.mfma_mnemonics.begin();
    if (known == program.mfma_mnemonics.end()) program.mfma_mnemonics.push_back(out->mnemonic);
    out->mfma_op = static_cast<uint8_t>(std::min<size_t>(slot, kMfmaOpSlots - 1));
  }
  // The modifier bits the handler reads; SDWA's SEXT is read by sdwa.cc from the encoding.
  uint8_t accepted = kModNeg | kModAbs | (semantics ? semantics->modifiers : 0) | (sdwa ? kModSext : 0);

  auto check_register = [&](const Operand& op, std::string_view name) {
    if (op.kind == Operand::Kind::kOther) {
      MarkError(out, StrCat("register ", name, " is not modelled by the executor"));
    } else if (op.kind == Operand::Kind::kVgpr && op.index + op.dwords > program.vgpr_file) {
      MarkError(out, StrCat("it uses register ", name, " but the kernel descriptor allocates ", program.vgpr_file,
                            " VGPRs per work-item (accum_offset ", program.accum_offset, ")"));
    }
  };
  uint32_t defs = desc.getNumDefs();
  uint8_t pending_modifiers = 0;
  bool have_modifiers = false;
  for (unsigned i = 0; i < mc.getNumOperands(); ++i) {
    const llvm::MCOperand& mo = mc.getOperand(i);
    int16_t reg_class = i < desc.getNumOperands() ? desc.operands()[i].RegClass : -1;
    if (i < defs) {
      if (!mo.isReg() || out->num_dst == Instruction::kMaxDst) {
        MarkError(out, "a definition the executor cannot represent");
        continue;
      }
      std::string_view name = t.registers->getName(mo.getReg());
      Operand op = RegisterOperand(name, program.accum_offset);
      check_register(op, name);
      out->dst[out->num_dst++] = op;
      continue;
    }
    // V_FMAMK/V_FMAAK (and MADMK/MADAK) carry their literal K among the sources.
    bool k_literal = StartsWith(out->mnemonic, "v_fmamk") || StartsWith(out->mnemonic, "v_fmaak") ||
                     StartsWith(out->mnemonic, "v_madmk") || StartsWith(out->mnemonic, "v_madak");
    bool is_source = mo.isReg() || reg_class != -1 || (k_literal && mo.isImm());
    // DPP's `old` operand is tied to VDST: the lanes that do not write keep it, as VDST does.
    if (dpp && is_source && desc.getOperandConstraint(i, llvm::MCOI::TIED_TO) != -1) continue;
    if (!is_source) {
      int64_t value = mo.isImm() ? mo.getImm() : mo.isDFPImm() ? static_cast<int64_t>(mo.getDFPImm()) : 0;
      if (!mo.isImm() && !mo.isDFPImm()) MarkError(out, "an operand the executor cannot represent");
      // An immediate right before a source is that source's modifiers (VOP3 src*_modifiers).
      bool next_is_source = i + 1 < mc.getNumOperands() && i + 1 < desc.getNumOperands() &&
                            (desc.operands()[i + 1].RegClass != -1 || mc.getOperand(i + 1).isReg());
      if (next_is_source) {
        if (value & ~int64_t{accepted}) {
          MarkError(out, StrCat("source modifier bits ", Hex(static_cast<uint64_t>(value)),
                                " (op_sel, sext) are not modelled for this instruction"));
        }
        pending_modifiers = static_cast<uint8_t>(value & accepted);
        have_modifiers = true;
        continue;
      }
      if (out->num_imm == Instruction::kMaxImm) {
        MarkError(out, "more immediates than the executor represents");
        continue;
      }
      out->imm[out->num_imm++] = value;
      continue;
    }
    if (out->num_src == Instruction::kMaxSrc) {
      MarkError(out, "more sources than the executor represents");
      continue;
    }
    Operand op;
    if (mo.isReg()) {
      std::string_view name = t.registers->getName(mo.getReg());
      op = RegisterOperand(name, program.accum_offset);
      check_register(op, name);
    } else if (mo.isImm() || mo.isDFPImm()) {
      op.kind = Operand::Kind::kImm;
      op.imm = mo.isImm() ? mo.getImm() : static_cast<int64_t>(mo.getDFPImm());
    } else if (int64_t value = 0; mo.isExpr() && mo.getExpr()->evaluateAsAbsolute(value)) {
      op.kind = Operand::Kind::kImm;  // a literal the disassembler keeps as lit(...)
      op.imm = value;
    } else {
      MarkError(out, "a source the executor cannot represent (an expression)");
    }
    if (have_modifiers) op.modifiers = pending_modifiers;
    have_modifiers = false;
    pending_modifiers = 0;
    out->src[out->num_src++] = op;
  }
  uint8_t explicit_sources = out->num_src;
  // Implicit VCC (VOPC _e32 results, carry in/out of VOP2 _e32, v_cndmask_b32_e32's mask).
  for (llvm::MCPhysReg reg : desc.implicit_defs()) {
    if (std::string_view(t.registers->getName(reg)) == "VCC" && out->num_dst < Instruction::kMaxDst) {
      out->dst[out->num_dst++] = RegisterOperand("VCC", 0);
    }
  }
  for (llvm::MCPhysReg reg : desc.implicit_uses()) {
    if (std::string_view(t.registers->getName(reg)) == "VCC" && out->num_src < Instruction::kMaxSrc) {
      out->src[out->num_src++] = RegisterOperand("VCC", 0);
    }
  }
  if (dpp && semantics && out->error.empty()) {
    DppForm& form = program.dpp_forms.emplace_back();
    form.base = semantics->handler;
    uint32_t dword = 0;
    if (bytes.size() >= 8) std::memcpy(&dword, bytes.data() + 4, 4);
    std::string why;
    if (StartsWith(key, "v_cmpx")) {
      MarkError(out, "a DPP v_cmpx (it writes EXEC, which the DPP form narrows) is not modelled");
    } else if (bytes.size() < 8 || !PrepareDpp(dword, program.vgpr_file, out, &form, &why)) {
      MarkError(out, bytes.size() < 8 ? std::string("a DPP instruction without its DPP dword") : why);
    } else {
      out->dpp = &form;
      out->handler = &ExecuteDpp;
    }
  }
  if (sdwa && semantics && out->error.empty()) {
    SdwaForm& form = program.sdwa_forms.emplace_back();
    form.base = semantics->handler;
    form.vopc = StartsWith(key, "v_cmp");
    form.sources = explicit_sources;
    uint32_t dword = 0;
    if (bytes.size() >= 8) std::memcpy(&dword, bytes.data() + 4, 4);
    std::string why;
    if (bytes.size() < 8 || !PrepareSdwa(dword, program.vgpr_file, out, &form, &why)) {
      MarkError(out, bytes.size() < 8 ? std::string("an SDWA instruction without its SDWA dword") : why);
    } else {
      out->sdwa = &form;
      out->handler = &ExecuteSdwa;
    }
  }
}

}  // namespace

bool DecoderAvailable(std::string* why) { return true; }

StatusOr<std::unique_ptr<Program>> DecodeProgram(KernelCode kernel, const std::string& processor) {
  KILN_ASSIGN_OR_RETURN(std::unique_ptr<McTools> tools, MakeTools(processor));
  auto program = std::make_unique<Program>();
  program->kernel = std::move(kernel);
  const KernelDescriptor& d = program->kernel.descriptor;
  program->vgpr_file = d.vgpr_count_unified();
  program->accum_offset = std::min(d.accum_offset(), program->vgpr_file);
  program->first_system_sgpr = d.user_sgpr_count();
  llvm::ArrayRef<uint8_t> bytes(program->kernel.code.data(), program->kernel.code.size());
  uint64_t offset = 0;
  while (offset < bytes.size()) {
    Instruction inst;
    inst.offset = static_cast<uint32_t>(offset);
    llvm::MCInst mc;
    uint64_t size = 0;
    auto status = tools->disassembler->getInstruction(mc, size, bytes.slice(offset), offset, llvm::nulls());
    if (status != llvm::MCDisassembler::Success || size == 0 || size > bytes.size() - offset) {
      size = std::min<uint64_t>(4, bytes.size() - offset);
      uint32_t word = 0;
      std::memcpy(&word, bytes.data() + offset, size);
      inst.mnemonic = "<undecodable>";
      inst.text = StrCat(".long ", Hex(word));
      MarkError(&inst, "LLVM's AMDGPU disassembler cannot decode these bytes");
    } else {
      Translate(*tools, mc, bytes.slice(offset, size), *program, &inst);
    }
    inst.size = static_cast<uint8_t>(size);
    program->instructions.push_back(std::move(inst));
    offset += size;
  }
  // Branch targets: SOPP simm16 counts dwords from the next instruction (CDNA3 ISA, "SOPP").
  for (Instruction& inst : program->instructions) {
    if (!IsBranch(inst.mnemonic) || !inst.error.empty()) continue;
    if (inst.num_imm < 1) {
      MarkError(&inst, "a branch without an offset");
      continue;
    }
    int64_t target = int64_t{inst.offset} + 4 + 4 * static_cast<int16_t>(inst.imm[0]);
    int64_t index = target >= 0 ? program->IndexAt(static_cast<uint64_t>(target)) : -1;
    if (index < 0) {
      MarkError(&inst, StrCat("its target, offset ", target, ", is not the start of an instruction of the kernel"));
    } else {
      inst.target = static_cast<uint32_t>(index);
    }
  }
  return program;
}

}  // namespace kiln::hsa_sim::isa
