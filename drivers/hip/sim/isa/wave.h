// The state of one wavefront (64 lanes on gfx942) while the executor runs it, and the helpers
// the instruction groups (salu.cc, valu_*.cc, smem.cc, global_memory.cc, ...) share.
//
// Registers (CDNA3 ISA, "Wave state"): 128 scalar slots in operand-encoding order (s0..s101,
// FLAT_SCRATCH, XNACK_MASK, VCC at 106/107, TTMPs, M0 at 124, EXEC at 126/127), SCC, and the
// unified vector register file stored register-major (v[r] is 64 consecutive lanes).
//
// Outstanding memory operations (waitcnt.cc): a load's destination registers hold kPoison from
// its issue until an s_waitcnt that covers it retires it, so an instruction that reads them
// early computes with a wrong value, as on hardware, only reliably so.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "drivers/hip/sim/isa/instruction.h"
#include "drivers/hip/sim/isa/program.h"

namespace kiln::hsa_sim {
class AllocationTable;
}

namespace kiln::hsa_sim::isa {

class LdsRaceShadow;   // lds_races.h
class GlobalWriteMap;  // global_races.h
class FloatAtomicLog;  // float_atomics.h

inline constexpr uint32_t kLanes = 64;
// What registers hold before they are written, and while a load into them is outstanding: a
// signalling NaN as f32, an unmapped address as a pointer, an odd number as an integer.
inline constexpr uint32_t kPoison = 0x7fbadbad;

// A host range a wave may read besides pool allocations (the dispatch packet, the queue).
struct ReadableRange {
  uintptr_t base = 0;
  size_t size = 0;
};

// Why a workgroup stopped early.
struct Failure {
  enum class Kind : uint8_t { kNone, kError, kMemoryFault };
  Kind kind = Kind::kNone;
  std::string message;
  uint64_t address = 0;  // kMemoryFault: the first faulting address
};

// What every wave of one workgroup shares.
struct WorkgroupContext {
  const Program* program = nullptr;
  const AllocationTable* memory = nullptr;
  uint8_t* group_segment = nullptr;  // the workgroup's LDS (for the ds_* group, not there yet)
  uint32_t group_segment_size = 0;
  std::vector<ReadableRange> readable;  // read-only extras for scalar loads
  Failure failure;                      // the first failure of the workgroup
  uint32_t workgroup_id[3] = {};
  uint32_t barriers = 0;  // s_barrier releases so far
  // The race detector (null when KILN_HSA_SIM_RACE_CHECK=off): the thread's LDS shadow and
  // the dispatch's global write map.
  LdsRaceShadow* lds_races = nullptr;
  GlobalWriteMap* global_writes = nullptr;
  // KILN_HSA_SIM_MODE=both: the dispatch's float-atomic log (float_atomics.h), else null.
  FloatAtomicLog* float_atomics = nullptr;
  ExecutionCounts counts;  // what the workgroup executed (counts.h)
};

// A memory operation between its issue and the s_waitcnt that retires it.
struct PendingOp {
  // Which unit it went to: vector memory (VM_CNT), scalar memory or LDS (both LGKM_CNT).
  enum class Unit : uint8_t { kVectorMemory, kScalarMemory, kLds };
  Unit unit = Unit::kVectorMemory;
  bool vector = false;         // destination in VGPRs (per lane) or SGPRs
  uint16_t reg = 0;            // first destination register (slot or VGPR file index)
  uint8_t dwords = 0;          // 0 for stores: they count, but write no register
  uint64_t lanes = 0;          // vector: the lanes it loads
  std::vector<uint32_t> data;  // vector: dwords x 64 lanes, register-major; scalar: dwords
  // LDS operations with the race detector on: how many entries of Wave::unretired_lds_writes
  // (the front ones when this op is the oldest LDS op) are this op's writes.
  uint16_t lds_writes = 0;
};

// An LDS write the race detector saw issue and no s_waitcnt has retired yet (lds_races.h).
struct UnretiredLdsWrite {
  uint32_t address = 0, size = 0;
  uint32_t instruction = 0;
  uint8_t lane = 0;
  bool atomic = false;
};

struct Wave {
  WorkgroupContext* context = nullptr;
  uint32_t wave_in_group = 0;
  uint32_t pc = 0;  // index of the next instruction
  bool ended = false;
  bool yielded = false;     // gave the scheduler a chance to run another wave (s_waitcnt)
  bool at_barrier = false;  // waits in s_barrier for the workgroup's other waves
  bool scc = false;
  bool gpr_idx_on = false;  // MODE.gpr_idx_en: s_set_gpr_idx_on until s_set_gpr_idx_off (gpr_index.cc)
  uint32_t s[kSgprSlots] = {};
  std::vector<uint8_t> scratch;  // private memory: kLanes x scratch_per_lane bytes, lane-major
  uint32_t scratch_per_lane = 0;
  std::vector<uint32_t> vgprs;  // (vgpr_file + Program::kScratchVgprs) x kLanes
  std::deque<PendingOp> vm_ops, lgkm_ops;
  // Race detector: the ranges of the LDS writes not yet retired, oldest first, and how many the
  // executing instruction added (IssueLdsStore/IssueLdsLoad give them to its PendingOp). What
  // is here when the wave reaches s_barrier was not waited for: the barrier does not order it.
  std::deque<UnretiredLdsWrite> unretired_lds_writes;
  uint16_t lds_writes_of_op = 0;
  std::vector<std::vector<uint32_t>> spare_buffers;  // recycled PendingOp::data

  uint32_t* v(uint32_t reg) { return vgprs.data() + size_t{reg} * kLanes; }
  const uint32_t* v(uint32_t reg) const { return vgprs.data() + size_t{reg} * kLanes; }
  uint64_t Sgpr64(uint32_t slot) const { return s[slot] | (uint64_t{s[slot + 1]} << 32); }
  void SetSgpr64(uint32_t slot, uint64_t value) {
    s[slot] = static_cast<uint32_t>(value);
    s[slot + 1] = static_cast<uint32_t>(value >> 32);
  }
  uint64_t exec() const { return Sgpr64(kExecLo); }
  uint64_t vcc() const { return Sgpr64(kVccLo); }

  // Stops the workgroup with an error about `inst`: "kernel K: mnemonic at offset 0x.. (text): why".
  void Fail(const Instruction& inst, const std::string& why);
  // Stops the workgroup with a memory fault at `address` (an access outside every allocation).
  void Fault(const Instruction& inst, uint64_t address, const std::string& why);
  bool stopped() const { return ended || context->failure.kind != Failure::Kind::kNone; }
};

// ---- Operand access ---------------------------------------------------------------------
// A scalar operand's 32- or 64-bit value: an SGPR slot (pair), or an immediate.
inline uint32_t Scalar32(const Wave& w, const Operand& op) {
  return op.kind == Operand::Kind::kSgpr ? w.s[op.index] : static_cast<uint32_t>(op.imm);
}
inline uint64_t Scalar64(const Wave& w, const Operand& op) {
  return op.kind == Operand::Kind::kSgpr ? w.Sgpr64(op.index) : static_cast<uint64_t>(op.imm);
}
inline void SetScalar32(Wave& w, const Operand& op, uint32_t value) { w.s[op.index] = value; }
inline void SetScalar64(Wave& w, const Operand& op, uint64_t value) { w.SetSgpr64(op.index, value); }

// The 64 lane values of a 32-bit vector-ALU source (VGPR, SGPR or constant), raw bits.
inline void Lanes32(const Wave& w, const Operand& op, uint32_t out[kLanes]) {
  if (op.kind == Operand::Kind::kVgpr) {
    std::memcpy(out, w.v(op.index), kLanes * sizeof(uint32_t));
  } else {
    uint32_t value = Scalar32(w, op);
    for (uint32_t l = 0; l < kLanes; ++l) out[l] = value;
  }
}
// As Lanes32, with the f32 input modifiers applied (CDNA3 ISA, VOP3 "ABS" then "NEG").
inline void LanesF32Bits(const Wave& w, const Operand& op, uint32_t out[kLanes]) {
  Lanes32(w, op, out);
  if (op.modifiers & kModAbs)
    for (uint32_t l = 0; l < kLanes; ++l) out[l] &= 0x7fffffffu;
  if (op.modifiers & kModNeg)
    for (uint32_t l = 0; l < kLanes; ++l) out[l] ^= 0x80000000u;
}
// The 64 lane values of a 64-bit source (a VGPR pair, an SGPR pair or a constant).
inline void Lanes64(const Wave& w, const Operand& op, uint64_t out[kLanes]) {
  if (op.kind == Operand::Kind::kVgpr) {
    const uint32_t* lo = w.v(op.index);
    const uint32_t* hi = w.v(op.index + 1);
    for (uint32_t l = 0; l < kLanes; ++l) out[l] = lo[l] | (uint64_t{hi[l]} << 32);
  } else {
    uint64_t value = Scalar64(w, op);
    for (uint32_t l = 0; l < kLanes; ++l) out[l] = value;
  }
}

// As Lanes64, with the f64 input modifiers applied (ABS then NEG, on bit 63).
inline void LanesF64Bits(const Wave& w, const Operand& op, uint64_t out[kLanes]) {
  Lanes64(w, op, out);
  if (op.modifiers & kModAbs)
    for (uint32_t l = 0; l < kLanes; ++l) out[l] &= ~(uint64_t{1} << 63);
  if (op.modifiers & kModNeg)
    for (uint32_t l = 0; l < kLanes; ++l) out[l] ^= uint64_t{1} << 63;
}

// Writes the lanes of `exec` of a VGPR destination.
inline void WriteLanes32(Wave& w, const Operand& dst, const uint32_t values[kLanes], uint64_t exec) {
  uint32_t* d = w.v(dst.index);
  for (uint32_t l = 0; l < kLanes; ++l)
    if ((exec >> l) & 1) d[l] = values[l];
}
inline void WriteLanes64(Wave& w, const Operand& dst, const uint64_t values[kLanes], uint64_t exec) {
  uint32_t* lo = w.v(dst.index);
  uint32_t* hi = w.v(dst.index + 1);
  for (uint32_t l = 0; l < kLanes; ++l) {
    if ((exec >> l) & 1) {
      lo[l] = static_cast<uint32_t>(values[l]);
      hi[l] = static_cast<uint32_t>(values[l] >> 32);
    }
  }
}

// D = F(SRC0) in the lanes of EXEC; kFloatInput applies the f32 input modifiers to SRC0.
template <uint32_t (*F)(uint32_t), bool kFloatInput>
void UnaryLanes32(Wave& w, const Instruction& i) {
  uint32_t a[kLanes], r[kLanes];
  if (kFloatInput) {
    LanesF32Bits(w, i.src[0], a);
  } else {
    Lanes32(w, i.src[0], a);
  }
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = F(a[l]);
  WriteLanes32(w, i.dst[0], r, w.exec());
}

// D = F(SRC0, SRC1) and D = F(SRC0, SRC1, SRC2) on raw 32-bit lanes, in the lanes of EXEC.
template <uint32_t (*F)(uint32_t, uint32_t)>
void BinaryLanes32(Wave& w, const Instruction& i) {
  uint32_t a[kLanes], b[kLanes], r[kLanes];
  Lanes32(w, i.src[0], a);
  Lanes32(w, i.src[1], b);
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = F(a[l], b[l]);
  WriteLanes32(w, i.dst[0], r, w.exec());
}
template <uint32_t (*F)(uint32_t, uint32_t, uint32_t)>
void TernaryLanes32(Wave& w, const Instruction& i) {
  uint32_t a[kLanes], b[kLanes], c[kLanes], r[kLanes];
  Lanes32(w, i.src[0], a);
  Lanes32(w, i.src[1], b);
  Lanes32(w, i.src[2], c);
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = F(a[l], b[l], c[l]);
  WriteLanes32(w, i.dst[0], r, w.exec());
}

// The OFFSET (imm[0]) of a FLAT/GLOBAL/SCRATCH instruction: a 13-bit signed field (CDNA3 ISA,
// "Flat, Scratch and Global Instructions"). LLVM's disassembler gives the raw field
// (offset:-8 is 8184), its assembler the signed value; both sign-extend to the same offset.
inline int64_t FlatOffset(const Instruction& i) {
  int64_t field = i.num_imm > 0 ? i.imm[0] & 0x1fff : 0;
  return field >= 0x1000 ? field - 0x2000 : field;
}

// Copies lane `lane`'s loaded `kBytes` at `bytes` into `data` (dwords x 64, register-major):
// whole dwords, or a byte/short zero- or sign-extended to 32 bits.
template <uint32_t kBytes, bool kSigned>
void CopyLoadedLane(const uint8_t* bytes, uint32_t lane, std::vector<uint32_t>& data) {
  if constexpr (kBytes >= 4) {
    for (uint32_t d = 0; d < kBytes / 4; ++d) std::memcpy(&data[size_t{d} * kLanes + lane], bytes + 4 * d, 4);
  } else {
    uint32_t value = 0;
    std::memcpy(&value, bytes, kBytes);
    if (kSigned && (value >> (8 * kBytes - 1)) & 1) value |= ~0u << (8 * kBytes);
    data[lane] = value;
  }
}

// Bit 31 - n of the result is bit n of `a` (V_BFREV_B32, S_BREV_B32).
inline uint32_t ReverseBits32(uint32_t a) {
  uint32_t r = 0;
  for (int bit = 0; bit < 32; ++bit) r |= ((a >> bit) & 1) << (31 - bit);
  return r;
}
// The `width` bits of `a` from `offset` on, sign-extended from the top one; 0 for width 0
// (V_BFE_I32, S_BFE_I32).
inline uint32_t SignedBitfield(uint32_t a, uint32_t offset, uint32_t width) {
  if (width == 0) return 0;
  if (offset + width >= 32) return static_cast<uint32_t>(static_cast<int32_t>(a) >> offset);
  uint32_t shift = 32 - width - offset;
  return static_cast<uint32_t>(static_cast<int32_t>(a << shift) >> (32 - width));
}

inline float AsFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
inline uint32_t AsBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

}  // namespace kiln::hsa_sim::isa
