// Where the operands and results of a 32x32 MFMA (v_mfma_f32_32x32x2f32, ..._32x32x8f16,
// ..._32x32x8bf16_1k, v_mfma_i32_32x32x16_i8 on gfx942 and _32x32x8i8 on gfx90a; one
// block, wave64) live across the lanes of a wave. One place for
// the kernels that distribute fragments (kiln-gpu-tile-contractions) and the host twin
// that emulates the instruction (WorkItemLoops), so both read the same layout:
//
//   A (32 x k):  lane l holds A[l % 32][(l / 32) * kpl + r]      for r < kpl
//   B (k x 32):  lane l holds B[(l / 32) * kpl + r][l % 32]      for r < kpl
//   C, D (32 x 32, 16 values per lane):
//                lane l, value v is D[8 (v / 4) + 4 (l / 32) + v % 4][l % 32]
//
// where kpl = k / 2 values of A and of B per lane (1 for f32 with k = 2, 4 for f16 and
// bf16 with k = 8, 8 for i8 with k = 16 and 4 with k = 8).
#pragma once

#include <cstdint>

namespace kiln::compiler::gpu {

inline constexpr int64_t kMfmaWave = 64;
inline constexpr int64_t kMfmaTile = 32;        // m = n = 32
inline constexpr int64_t kMfmaResultValues = 16;  // per lane

// The row of result value `v` of lane `lane` (its column is lane % 32).
inline constexpr int64_t MfmaResultRow(int64_t lane, int64_t v) { return 8 * (v / 4) + 4 * (lane / 32) + v % 4; }

}  // namespace kiln::compiler::gpu
