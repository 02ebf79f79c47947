// The copies and the comparison of KILN_HSA_SIM_MODE=both (see paired_dispatch.h).
#include "drivers/hip/sim/paired_dispatch.h"

#include <cstring>

#include "drivers/hip/sim/agents.h"
#include "drivers/hip/sim/isa/program.h"
#include "drivers/hip/sim/memory.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim {

StatusOr<std::unique_ptr<PairedDispatch>> PairedDispatch::Prepare(AllocationTable& memory,
                                                                  const isa::Program& program, const void* kernarg,
                                                                  uint32_t kernarg_size) {
  std::unique_ptr<PairedDispatch> paired(new PairedDispatch(memory, program));
  const auto* block = static_cast<const uint8_t*>(kernarg);
  // Which allocations to copy, from which pools (the table's lock is not held while allocating).
  std::vector<Pool*> pools;
  Pool* kernarg_pool = nullptr;
  {
    auto lock = memory.LockShared();
    const Allocation* k = memory.FindLocked(reinterpret_cast<uintptr_t>(kernarg), kernarg_size);
    if (!k) return InvalidArgumentError("the kernarg block is not inside one allocation");
    kernarg_pool = k->pool;
    const std::vector<isa::KernelArg>& args = program.kernel.args;
    for (uint32_t i = 0; i < args.size(); ++i) {
      if (args[i].value_kind != "global_buffer" || args[i].size != 8 || args[i].offset + 8 > kernarg_size) continue;
      uint64_t pointer;
      std::memcpy(&pointer, block + args[i].offset, 8);
      if (pointer == 0) continue;
      const Allocation* a = memory.FindLocked(pointer, 1);
      if (!a) {
        return InvalidArgumentError("argument ", i, " '", args[i].name, "' holds ", Hex(pointer),
                                    ", which is not in any allocation");
      }
      size_t copy = 0;
      while (copy < paired->copies_.size() && paired->copies_[copy].original != a->base) ++copy;
      if (copy == paired->copies_.size()) {
        paired->copies_.push_back({a->base, a->size, nullptr});
        pools.push_back(a->pool);
      }
      paired->pointers_.push_back({i, pointer, copy});
    }
  }
  for (size_t c = 0; c < paired->copies_.size(); ++c) {
    void* copy = nullptr;
    if (memory.Allocate(pools[c], paired->copies_[c].size, &copy) != HSA_STATUS_SUCCESS) {
      paired->Release();
      return ResourceExhaustedError("no memory for the code object's copy of a ", paired->copies_[c].size,
                                    "-byte buffer (", pools[c]->description, ")");
    }
    paired->copies_[c].copy = static_cast<uint8_t*>(copy);
  }
  if (memory.Allocate(kernarg_pool, kernarg_size, &paired->kernarg_) != HSA_STATUS_SUCCESS) {
    paired->kernarg_ = nullptr;
    paired->Release();
    return ResourceExhaustedError("no memory for the code object's kernarg block");
  }
  auto lock = memory.LockShared();
  for (const Copy& c : paired->copies_) std::memcpy(c.copy, reinterpret_cast<const void*>(c.original), c.size);
  auto* moved = static_cast<uint8_t*>(paired->kernarg_);
  std::memcpy(moved, block, kernarg_size);
  for (const PointerArg& p : paired->pointers_) {
    const Copy& c = paired->copies_[p.copy];
    uint64_t pointer = reinterpret_cast<uintptr_t>(c.copy) + (p.pointer - c.original);
    std::memcpy(moved + program.kernel.args[p.index].offset, &pointer, 8);
  }
  return paired;
}

void PairedDispatch::Release() {
  for (Copy& c : copies_) {
    if (c.copy) memory_.Free(c.copy);
    c.copy = nullptr;
  }
  if (kernarg_) memory_.Free(kernarg_);
  kernarg_ = nullptr;
}

Status PairedDispatch::Compare() const {
  auto lock = memory_.LockShared();
  for (size_t c = 0; c < copies_.size(); ++c) {
    const auto* twin = reinterpret_cast<const uint8_t*>(copies_[c].original);
    const uint8_t* code = copies_[c].copy;
    if (!code || std::memcmp(twin, code, copies_[c].size) == 0) continue;
    // The first differing 4-byte word that is not a float atomic's sum within its tolerance.
    const isa::FloatAtomicRecord* sum = nullptr;
    size_t at = 0;
    for (;; at += 4) {
      if (at >= copies_[c].size) break;
      if (std::memcmp(twin + at, code + at, std::min<size_t>(4, copies_[c].size - at)) == 0) continue;
      sum = at + 4 <= copies_[c].size ? float_atomics_.Find(reinterpret_cast<uintptr_t>(code + at)) : nullptr;
      if (!sum) break;
      uint32_t a, b;
      std::memcpy(&a, twin + at, 4);
      std::memcpy(&b, code + at, 4);
      if (!isa::F32SumsAgree(a, b, *sum)) break;
    }
    if (at >= copies_[c].size) continue;  // every difference is a float-atomic order
    uint32_t twin_word = 0, code_word = 0;
    std::memcpy(&twin_word, twin + at, std::min<size_t>(4, copies_[c].size - at));
    std::memcpy(&code_word, code + at, std::min<size_t>(4, copies_[c].size - at));
    // The argument whose pointer is closest below the difference names it.
    const PointerArg* arg = nullptr;
    for (const PointerArg& p : pointers_) {
      if (p.copy == c && p.pointer <= copies_[c].original + at && (!arg || p.pointer > arg->pointer)) arg = &p;
    }
    std::string where;
    if (arg) {
      const isa::KernelArg& meta = program_.kernel.args[arg->index];
      uint64_t offset = copies_[c].original + at - arg->pointer;
      where = StrCat("argument ", arg->index, " '", meta.name, "', 4-byte element ", offset / 4, " (byte offset ",
                     Hex(offset), ")");
    } else {
      where = StrCat("byte ", Hex(at), " of the ", copies_[c].size, "-byte allocation at ", Hex(copies_[c].original));
    }
    std::string atomics;
    if (sum) {
      atomics = StrCat(" (", sum->adds, " float atomic adds, sum of magnitudes ", sum->sum_of_magnitudes,
                       ", largest old value ", sum->largest_old, ": more than their order can change)");
    }
    return InternalError("KILN_HSA_SIM_MODE=both: kernel ", program_.kernel.name,
                         ": the host twin and the code object disagree at ", where, ": twin wrote ", Hex(twin_word),
                         ", code object ", Hex(code_word), atomics);
  }
  return OkStatus();
}

}  // namespace kiln::hsa_sim
