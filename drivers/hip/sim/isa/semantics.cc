// The mnemonic table over every instruction group; see semantics.h.
#include "drivers/hip/sim/isa/semantics.h"

#include <string>
#include <unordered_map>

#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {
namespace {

const std::unordered_map<std::string_view, const OpSemantics*>& Table() {
  static const auto* table = [] {
    auto* t = new std::unordered_map<std::string_view, const OpSemantics*>;
    for (auto group : {SaluSemantics(), SoppSemantics(), SmemSemantics(), WaitcntSemantics(), ValuIntSemantics(),
                       ValuFloatSemantics(), VopcSemantics(), GlobalMemorySemantics(), LdsSemantics(),
                       MfmaSemantics(), ValuNarrowIntSemantics(), ValuFloatSpecialSemantics(), ValuF16Semantics(),
                       ValuPackedSemantics(), GprIndexSemantics(), GlobalAtomicSemantics(), CacheControlSemantics(),
                       ScratchMemorySemantics(), ValuF64Semantics()}) {
      for (const OpSemantics& op : group) t->emplace(op.mnemonic, &op);
    }
    return t;
  }();
  return *table;
}

}  // namespace

const OpSemantics* FindSemantics(std::string_view mnemonic) {
  auto it = Table().find(mnemonic);
  return it == Table().end() ? nullptr : it->second;
}

void Unimplemented(Wave& wave, const Instruction& inst) {
  wave.Fail(inst, "this instruction is not implemented by hip-sim's code-object executor");
}

void DecodeError(Wave& wave, const Instruction& inst) { wave.Fail(inst, inst.error); }

}  // namespace kiln::hsa_sim::isa
