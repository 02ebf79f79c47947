// KILN_HSA_SIM_MODE=both (docs/hip-sim-executor.md, "Both"): a dispatch of a twin kernel that
// has a paired code-object kernel (the HSACO's kernel of the same symbol name, kept when the
// HSACO was refused so that the driver loads the twin) runs twice: the twin on the
// application's buffers, the code object on copies of them, and the dispatch completes only
// when both left the same bytes.
//
// Contract:
// - Prepare copies every allocation a global_buffer argument of the code object's metadata
//   points into (once per allocation, so arguments that share a slab share the copy; same pool,
//   same size, the bytes at dispatch start) and builds the code object's kernarg block: the
//   driver's block with those pointers moved into the copies by the same offsets.
// - Compare, after both halves ran, reads every original allocation against its copy and
//   describes the first 4-byte word that differs (the element size kiln's kernels use most;
//   the kernarg metadata gives no element type): which argument points there, the element
//   index from that argument's pointer, both values. Bit-exact, except the words the code
//   object's float atomics wrote (float_atomics(), float_atomics.h): those agree when the two
//   f32 values may be the same adds in two orders (F32SumsAgree), and a difference beyond that
//   names the adds and the tolerance. Instructions whose documented rounding differs from the
//   twin's (v_exp_f32 and the like, 1 ULP) report a difference.
// - Release frees the copies and the kernarg block; the last workgroup to finish calls it. A
//   dispatch whose workgroups never all finish (its queue failed) leaves them to
//   hsa_shut_down, which frees every allocation: the destructor does not touch the allocation
//   table, which may be gone by then.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "drivers/hip/sim/isa/float_atomics.h"

namespace kiln::hsa_sim {

class AllocationTable;
struct Pool;
namespace isa {
struct Program;
}

class PairedDispatch {
 public:
  // `kernarg` is the driver's block of `kernarg_size` bytes; `program` the paired kernel.
  static StatusOr<std::unique_ptr<PairedDispatch>> Prepare(AllocationTable& memory, const isa::Program& program,
                                                           const void* kernarg, uint32_t kernarg_size);
  PairedDispatch(const PairedDispatch&) = delete;
  PairedDispatch& operator=(const PairedDispatch&) = delete;

  const isa::Program& program() const { return program_; }
  const void* kernarg() const { return kernarg_; }  // the code object's block (into the copies)
  // Where the code object's float atomics note their adds (addresses in the copies).
  isa::FloatAtomicLog* float_atomics() { return &float_atomics_; }

  // OK when the twin's and the code object's bytes agree; else an error naming the first
  // difference (see above).
  Status Compare() const;
  // Frees the copies (idempotent).
  void Release();

 private:
  PairedDispatch(AllocationTable& memory, const isa::Program& program) : memory_(memory), program_(program) {}

  struct Copy {
    uintptr_t original = 0;
    size_t size = 0;
    uint8_t* copy = nullptr;
  };
  struct PointerArg {
    uint32_t index = 0;  // in the metadata's argument list
    uintptr_t pointer = 0;
    size_t copy = 0;  // into copies_
  };
  AllocationTable& memory_;
  const isa::Program& program_;
  std::vector<Copy> copies_;
  std::vector<PointerArg> pointers_;
  void* kernarg_ = nullptr;
  isa::FloatAtomicLog float_atomics_;
};

}  // namespace kiln::hsa_sim
