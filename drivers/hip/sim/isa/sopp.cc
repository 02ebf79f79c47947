// Program control: SOPP branches, s_endpgm, s_barrier and the no-ops (CDNA3 ISA, "Program
// Flow Control" and the SOPP opcode table), and s_getpc_b64. Branch targets were resolved at decode (inst.target).
#include "drivers/hip/sim/isa/program.h"
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/waitcnt.h"
#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {
namespace {

void SEndpgm(Wave& w, const Instruction&) {
  RetireAll(w);
  w.ended = true;
}
void SBranch(Wave& w, const Instruction& i) { w.pc = i.target; }
template <bool (*Taken)(const Wave&)>
void SCbranch(Wave& w, const Instruction& i) {
  if (Taken(w)) w.pc = i.target;
}
bool Scc0(const Wave& w) { return !w.scc; }
bool Scc1(const Wave& w) { return w.scc; }
bool Vccz(const Wave& w) { return w.vcc() == 0; }
bool Vccnz(const Wave& w) { return w.vcc() != 0; }
bool Execz(const Wave& w) { return w.exec() == 0; }
bool Execnz(const Wave& w) { return w.exec() != 0; }
void Nop(Wave&, const Instruction&) {}
// s_sleep gives the other waves their turn, as on hardware.
void SSleep(Wave& w, const Instruction&) { w.yielded = true; }
// S_BARRIER: the wave waits until every live wave of its workgroup has reached a barrier
// (the scheduler, executor.cc, releases them). It does not wait for memory: kernels put an
// s_waitcnt before it, as the ISA requires for their stores to be visible.
void SBarrier(Wave& w, const Instruction&) {
  w.at_barrier = true;
  w.yielded = true;
}
// S_GETPC_B64 (SOP1): D = the address of the next instruction (PC + 4), in the code object's
// loaded image (code_object.h, KernelCode::loaded_image), so PC-relative constants resolve.
void SGetpc(Wave& w, const Instruction& i) {
  const KernelCode& k = w.context->program->kernel;
  if (!k.loaded_image) return w.Fail(i, "the code object's image is not loaded");
  uint64_t pc = reinterpret_cast<uintptr_t>(k.loaded_image->data()) + k.entry_address + i.offset;
  w.SetSgpr64(i.dst[0].index, pc + 4);
}
void STrap(Wave& w, const Instruction& i) { w.Fail(i, "the kernel executed a trap"); }
void SCodeEnd(Wave& w, const Instruction& i) {
  w.Fail(i, "execution reached the code-end padding after the kernel (no s_endpgm before it)");
}

constexpr OpSemantics kSopp[] = {
    {"s_getpc_b64", &SGetpc},
    {"s_endpgm", &SEndpgm},
    {"s_branch", &SBranch},
    {"s_cbranch_scc0", &SCbranch<Scc0>},
    {"s_cbranch_scc1", &SCbranch<Scc1>},
    {"s_cbranch_vccz", &SCbranch<Vccz>},
    {"s_cbranch_vccnz", &SCbranch<Vccnz>},
    {"s_cbranch_execz", &SCbranch<Execz>},
    {"s_cbranch_execnz", &SCbranch<Execnz>},
    {"s_nop", &Nop},
    {"s_setprio", &Nop},
    {"s_sleep", &SSleep},
    {"s_barrier", &SBarrier},
    {"s_trap", &STrap},
    {"s_code_end", &SCodeEnd},
};

}  // namespace

std::span<const OpSemantics> SoppSemantics() { return kSopp; }

}  // namespace kiln::hsa_sim::isa
