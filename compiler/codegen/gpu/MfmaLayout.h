// Where the operands and results of a 32x32 MFMA (v_mfma_f32_32x32x2f32, ..._32x32x8f16,
// ..._32x32x8bf16_1k, v_mfma_i32_32x32x16_i8 and v_mfma_f32_32x32x16_{fp8,bf8}_{fp8,bf8}
// on gfx942, _32x32x8i8 on gfx90a; one block, wave64) live across the lanes of a wave. One place for
// the kernels that distribute fragments (kiln-gpu-tile-contractions) and the host twin
// that emulates the instruction (WorkItemLoops), so both read the same layout:
//
//   A (32 x k):  lane l holds A[l % 32][(l / 32) * kpl + r]      for r < kpl
//   B (k x 32):  lane l holds B[(l / 32) * kpl + r][l % 32]      for r < kpl
//   C, D (32 x 32, 16 values per lane):
//                lane l, value v is D[8 (v / 4) + 4 (l / 32) + v % 4][l % 32]
//
// where kpl = k / 2 values of A and of B per lane (1 for f32 with k = 2, 4 for f16 and
// bf16 with k = 8, 8 for i8 and f8 with k = 16 and 4 for i8 with k = 8). A lane's
// narrow values are packed into its registers in k order, the first in the lowest bits
// (an f8 or i8 fragment is one 64-bit register pair).
#pragma once

#include <cstdint>
#include <utility>

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace kiln::compiler::gpu {

inline constexpr int64_t kMfmaWave = 64;
inline constexpr int64_t kMfmaTile = 32;        // m = n = 32
inline constexpr int64_t kMfmaResultValues = 16;  // per lane

// The row of result value `v` of lane `lane` (its column is lane % 32).
inline constexpr int64_t MfmaResultRow(int64_t lane, int64_t v) { return 8 * (v / 4) + 4 * (lane / 32) + v % 4; }

// MfmaResultRow and the column as index arithmetic at `b`'s insertion point: the (row,
// column) of result value `v` of lane `lane`.
inline std::pair<mlir::Value, mlir::Value> BuildMfmaResultPosition(mlir::OpBuilder& b, mlir::Location loc,
                                                                   mlir::Value lane, mlir::Value v) {
  namespace arith = mlir::arith;
  auto c = [&](int64_t x) { return arith::ConstantIndexOp::create(b, loc, x).getResult(); };
  mlir::Value group = arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, v, c(4)), c(8));
  mlir::Value half = arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, lane, c(kMfmaTile)), c(4));
  mlir::Value row = arith::AddIOp::create(b, loc, arith::AddIOp::create(b, loc, group, half),
                                          arith::RemUIOp::create(b, loc, v, c(4)));
  return {row, arith::RemUIOp::create(b, loc, lane, c(kMfmaTile))};
}

}  // namespace kiln::compiler::gpu
