// Matrix fused multiply-add (MFMA) and the accumulation registers' moves (CDNA3 ISA, chapter 7
// "Matrix Arithmetic Instructions": 7.1 the operand and result layouts of the dense
// V_MFMA_* instructions, and the VOP3P-MAI opcode table; V_ACCVGPR_* in the VOP3P table).
//
// V_MFMA_<out>_<M>x<N>x<K>_<in> D, A, B, C computes D = A x B + C for one M x N block (M = N =
// 32 or 16) over K, as a whole wave (EXEC is ignored: a matrix instruction reads and writes all
// 64 lanes). With G = 64 / M lane groups, each lane holds E = K / G consecutive K-elements of A
// and of B, packed low to high in its source registers:
//   A[i][k] is element k % E of lane  i + M * (k / E)
//   B[k][j] is element k % E of lane  j + M * (k / E)
// and C and D are M * N / 64 registers (16 for 32x32, 4 for 16x16), rows in groups of 4:
//   D[i][j] is in register (i / (4 * G)) * 4 + i % 4 of lane  j + M * ((i / 4) % G).
// C and D may be ArchVGPRs or AccVGPRs (the decoder maps both into the unified file).
//
// Products of f16, bf16, fp8/bf8 and i8 inputs are exact in the accumulator's type; the sum
// runs over k in increasing order onto C, one rounding per addition (f32) or wrapping (i32).
// The ISA does not specify the hardware's internal summation order or precision, so results
// of f32 inputs may differ from the hardware in the last bits; this order is the natural one,
// and the one a K-loop over the same products follows.
//
// Not modelled (the instruction fails): CBSZ/ABID broadcast and BLGP lane-group swizzles other
// than 0, multi-block shapes, f64, the sparse SMFMAC forms. The result is visible to the next
// instruction: the hazard waits the compiler inserts (s_nop) are not checked.
#include <cstdint>
#include <cstring>

#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/small_float.h"
#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {
namespace {

// Input element types: how many bits one element takes and its value in the accumulator type.
struct F32In {
  static constexpr uint32_t kBits = 32;
  static float Value(uint32_t raw) { return AsFloat(raw); }
};
struct F16In {
  static constexpr uint32_t kBits = 16;
  static float Value(uint32_t raw) { return F16ToF32(static_cast<uint16_t>(raw)); }
};
struct Bf16In {
  static constexpr uint32_t kBits = 16;
  static float Value(uint32_t raw) { return Bf16ToF32(static_cast<uint16_t>(raw)); }
};
struct Fp8In {
  static constexpr uint32_t kBits = 8;
  static float Value(uint32_t raw) { return Fp8E4M3ToF32(static_cast<uint8_t>(raw)); }
};
struct Bf8In {
  static constexpr uint32_t kBits = 8;
  static float Value(uint32_t raw) { return Bf8E5M2ToF32(static_cast<uint8_t>(raw)); }
};
struct I8In {
  static constexpr uint32_t kBits = 8;
  static int32_t Value(uint32_t raw) { return static_cast<int8_t>(raw); }
};

// Element e of lane `lane` of a packed source starting at VGPR file index `reg`.
template <typename In>
uint32_t RawElement(const Wave& w, uint32_t reg, uint32_t lane, uint32_t e) {
  constexpr uint32_t kPerDword = 32 / In::kBits;
  uint32_t dword = w.v(reg + e / kPerDword)[lane];
  if constexpr (In::kBits == 32) {
    return dword;
  } else {
    return (dword >> (In::kBits * (e % kPerDword))) & ((1u << In::kBits) - 1);
  }
}

template <uint32_t kM, uint32_t kK, typename InA, typename InB, bool kInteger>
void Mfma(Wave& w, const Instruction& i) {
  constexpr uint32_t kGroups = kLanes / kM;
  constexpr uint32_t kPerLane = kK / kGroups;
  constexpr uint32_t kResultRegs = kM * kM / kLanes;
  static_assert(kK % kGroups == 0 && kPerLane * InA::kBits % 32 == 0, "a whole number of registers per lane");
  const Operand &d = i.dst[0], &a = i.src[0], &b = i.src[1], &c = i.src[2];
  if (i.num_src < 3 || d.kind != Operand::Kind::kVgpr || a.kind != Operand::Kind::kVgpr ||
      b.kind != Operand::Kind::kVgpr) {
    return w.Fail(i, "its A, B and D operands must be vector registers");
  }
  // Trailing immediates: CBSZ, ABID, BLGP (VOP3P-MAI).
  for (uint32_t n = 0; n < i.num_imm; ++n) {
    if (i.imm[n] != 0) return w.Fail(i, "the CBSZ/ABID/BLGP broadcast and swizzle controls are not modelled yet");
  }
  if (d.dwords < kResultRegs || a.dwords * 32 < kPerLane * InA::kBits || b.dwords * 32 < kPerLane * InB::kBits) {
    return w.Fail(i, "its operands are narrower than the shape needs");
  }
  // Read everything first: D may overlap C (and the hardware reads its sources before writing).
  uint32_t result[kResultRegs][kLanes];
  for (uint32_t r = 0; r < kResultRegs; ++r) {
    if (c.kind == Operand::Kind::kVgpr) {
      std::memcpy(result[r], w.v(c.index + r), sizeof(result[r]));
    } else {
      uint32_t value = Scalar32(w, c);  // an inline constant (0) as C
      for (uint32_t l = 0; l < kLanes; ++l) result[r][l] = value;
    }
  }
  for (uint32_t row = 0; row < kM; ++row) {
    uint32_t reg = (row / (4 * kGroups)) * 4 + row % 4;
    uint32_t lane_base = kM * ((row / 4) % kGroups);
    for (uint32_t col = 0; col < kM; ++col) {
      uint32_t& out = result[reg][lane_base + col];
      if constexpr (kInteger) {
        uint32_t acc = out;
        for (uint32_t k = 0; k < kK; ++k) {
          int32_t x = InA::Value(RawElement<InA>(w, a.index, row + kM * (k / kPerLane), k % kPerLane));
          int32_t y = InB::Value(RawElement<InB>(w, b.index, col + kM * (k / kPerLane), k % kPerLane));
          acc += static_cast<uint32_t>(x * y);
        }
        out = acc;
      } else {
        float acc = AsFloat(out);
        for (uint32_t k = 0; k < kK; ++k) {
          float x = InA::Value(RawElement<InA>(w, a.index, row + kM * (k / kPerLane), k % kPerLane));
          float y = InB::Value(RawElement<InB>(w, b.index, col + kM * (k / kPerLane), k % kPerLane));
          float product = x * y;
          acc = acc + product;
        }
        out = AsBits(acc);
      }
    }
  }
  for (uint32_t r = 0; r < kResultRegs; ++r) std::memcpy(w.v(d.index + r), result[r], sizeof(result[r]));
}

// V_ACCVGPR_WRITE_B32 (AccVGPR = VGPR or constant), V_ACCVGPR_READ_B32 (VGPR = AccVGPR),
// V_ACCVGPR_MOV_B32 (AccVGPR = AccVGPR): plain 32-bit moves in the lanes of EXEC.
void AccvgprMove(Wave& w, const Instruction& i) {
  uint32_t value[kLanes];
  Lanes32(w, i.src[0], value);
  WriteLanes32(w, i.dst[0], value, w.exec());
}

constexpr OpSemantics kMfma[] = {
    {"v_mfma_f32_32x32x2_f32", &Mfma<32, 2, F32In, F32In, false>},
    {"v_mfma_f32_16x16x4_f32", &Mfma<16, 4, F32In, F32In, false>},
    {"v_mfma_f32_32x32x8_f16", &Mfma<32, 8, F16In, F16In, false>},
    {"v_mfma_f32_16x16x16_f16", &Mfma<16, 16, F16In, F16In, false>},
    {"v_mfma_f32_32x32x8_bf16", &Mfma<32, 8, Bf16In, Bf16In, false>},
    {"v_mfma_f32_16x16x16_bf16", &Mfma<16, 16, Bf16In, Bf16In, false>},
    {"v_mfma_i32_32x32x16_i8", &Mfma<32, 16, I8In, I8In, true>},
    {"v_mfma_i32_16x16x32_i8", &Mfma<16, 32, I8In, I8In, true>},
    {"v_mfma_f32_32x32x16_fp8_fp8", &Mfma<32, 16, Fp8In, Fp8In, false>},
    {"v_mfma_f32_32x32x16_fp8_bf8", &Mfma<32, 16, Fp8In, Bf8In, false>},
    {"v_mfma_f32_32x32x16_bf8_fp8", &Mfma<32, 16, Bf8In, Fp8In, false>},
    {"v_mfma_f32_32x32x16_bf8_bf8", &Mfma<32, 16, Bf8In, Bf8In, false>},
    {"v_mfma_f32_16x16x32_fp8_fp8", &Mfma<16, 32, Fp8In, Fp8In, false>},
    {"v_mfma_f32_16x16x32_fp8_bf8", &Mfma<16, 32, Fp8In, Bf8In, false>},
    {"v_mfma_f32_16x16x32_bf8_fp8", &Mfma<16, 32, Bf8In, Fp8In, false>},
    {"v_mfma_f32_16x16x32_bf8_bf8", &Mfma<16, 32, Bf8In, Bf8In, false>},
    {"v_accvgpr_write_b32", &AccvgprMove},
    {"v_accvgpr_read_b32", &AccvgprMove},
    {"v_accvgpr_mov_b32", &AccvgprMove},
};

}  // namespace

std::span<const OpSemantics> MfmaSemantics() { return kMfma; }

}  // namespace kiln::hsa_sim::isa
