// Decoded programs; see program.h (decoding itself is in decoder.cc).
#include "drivers/hip/sim/isa/program.h"

#include <algorithm>

namespace kiln::hsa_sim::isa {

int64_t Program::IndexAt(uint64_t offset) const {
  auto it = std::lower_bound(instructions.begin(), instructions.end(), offset,
                             [](const Instruction& inst, uint64_t o) { return inst.offset < o; });
  if (it == instructions.end() || it->offset != offset) return -1;
  return it - instructions.begin();
}

}  // namespace kiln::hsa_sim::isa
