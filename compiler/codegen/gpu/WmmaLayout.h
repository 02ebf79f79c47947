// Where the operands and results of a 16x16x16 WMMA on RDNA3 (gfx11, wave32:
// v_wmma_f32_16x16x16_f16, _bf16, v_wmma_i32_16x16x16_iu8) live across the lanes of a
// wave. One place for the kernels that distribute fragments (kiln-gpu-tile-contractions)
// and the host twin that emulates the instruction (WorkItemLoops), so both read the same
// layout:
//
//   A (16 x 16):  lane l holds A[l % 16][r]      for r < 16
//   B (16 x 16):  lane l holds B[r][l % 16]      for r < 16
//   C, D (16 x 16, 8 values of 32 bits per lane):
//                 lane l, value v is D[2 v + l / 16][l % 16]
//
// On gfx11 the operands are replicated: lanes l and l + 16 must hold the same A and B
// values (gfx12 dropped the replication; kiln does not target it). The twin reads each
// result's operands from the lanes of its own half, so a kernel that fills only one half
// computes wrong results on hip-sim too.
#pragma once

#include <cstdint>
#include <utility>

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace kiln::compiler::gpu {

inline constexpr int64_t kWmmaWave = 32;
inline constexpr int64_t kWmmaTile = 16;         // m = n = k = 16
inline constexpr int64_t kWmmaHalf = 16;         // lanes per replica of A and B
inline constexpr int64_t kWmmaResultValues = 8;  // per lane

// The row of result value `v` of lane `lane` (its column is lane % 16).
inline constexpr int64_t WmmaResultRow(int64_t lane, int64_t v) { return 2 * v + lane / kWmmaHalf; }

// WmmaResultRow and the column as index arithmetic at `b`'s insertion point: the (row,
// column) of result value `v` (< 8) of lane `lane`.
inline std::pair<mlir::Value, mlir::Value> BuildWmmaResultPosition(mlir::OpBuilder& b, mlir::Location loc,
                                                                   mlir::Value lane, mlir::Value v) {
  namespace arith = mlir::arith;
  auto c = [&](int64_t x) { return arith::ConstantIndexOp::create(b, loc, x).getResult(); };
  mlir::Value row = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, v, c(2)),
                                          arith::DivUIOp::create(b, loc, lane, c(kWmmaHalf)));
  return {row, arith::RemUIOp::create(b, loc, lane, c(kWmmaHalf))};
}

}  // namespace kiln::compiler::gpu
