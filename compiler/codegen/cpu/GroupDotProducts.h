// Matmuls of small types on the CPU's mixed-precision dot-product instructions
// (ContractionKernel::kPackedGroupDotProduct): which contractions they compute, the
// packing of a cache block of the right-hand operand, and the vector code of the tiles.
//
// An instruction multiplies groups of g consecutive k (g = 2 for bf16, 4 for i8) in each
// 32-bit lane and adds them to a 32-bit accumulator. So that one load of the right-hand
// operand gives 16 columns' groups, each cache block of it (kc x 32 elements, kc a multiple
// of g) is packed into a [kc / g, 32, g] buffer on the stack; the left-hand operand's group
// of a row (32 bits, contiguous in k) is broadcast to every lane.
//
// vpdpbusd multiplies unsigned by signed bytes. A signed left-hand byte a becomes the
// unsigned a + 128 (its sign bit flipped), which adds 128 * (the column's sum of b) to
// each output; the block's column sums are computed once from the packed block and
// subtracted from the accumulators as they are loaded. Each step is a linalg op whose
// scalar semantics is exactly this arithmetic (remainder tiles become loops of it):
//   pack:        P[p, n, j] = B[p * g + j, n]            (or W[n, p * g + j])
//   sums (i8):   S[n] += 128 * P[p, n, j]                (after S = 0)
//   product:     C[m, n] += ext(A[m, p * g + j]) * ext(P[p, n, j])              (bf16)
//                C[m, n] += (ext(A[m, p * g + j]) + 128) * ext(P[p, n, j])
//                           - (p = j = 0 ? S[n] : 0)                            (i8)
#pragma once

#include <optional>

#include "compiler/codegen/cpu/ContractionTiling.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler::cpu {

// Marks of the static tiles VectorizeGroupPackTile, VectorizeGroupSumsTile and
// VectorizeGroupDotTile turn into vector code (kiln-cpu-vectorize-contractions).
inline constexpr llvm::StringLiteral kGroupPackTileAttr = "kiln.group_pack_tile";
inline constexpr llvm::StringLiteral kGroupSumsTileAttr = "kiln.group_sums_tile";
inline constexpr llvm::StringLiteral kGroupDotTileAttr = "kiln.group_dot_tile";

// 32-bit lanes of a 512-bit register, and the columns of a packed block (two registers).
inline constexpr int64_t kGroupDotLanes = 16;
inline constexpr int64_t kGroupDotColumns = 2 * kGroupDotLanes;
// Rows of a register tile: 8 x 2 accumulators of AVX-512's 32 registers.
inline constexpr int64_t kGroupDotRows = 8;

// The k of one group: 2 bf16 or 4 i8 in 32 bits.
int64_t GroupSize(GroupDotKind kind);

// The kind of `op` when `features` has its instruction and `op` (two inputs, one output)
// computes out + ext(a) * ext(b): extf of bf16 into f32 adds, or extsi of i8 into i32 adds.
std::optional<GroupDotKind> MatchGroupDotContraction(mlir::linalg::LinalgOp op, GroupDotFeatures features);

// The steps above as ops, for callers that lay out the blocks themselves (the AMX tiles'
// MatrixTileProducts.h): the marked pack of `source` (a [kc, nc] block of B, or [nc, kc] of
// W with `transposed`) into `packed` ([kc / g, nc, g]); for i8, the fill and the marked
// column sums of `packed` into `sums` ([nc]); and the product generic of `lhs` ([m, kc])
// and `packed` into `out` ([m, nc]), unmarked: for i8 with `sums`, the offset arithmetic
// above (what the vector tiles compute); without, plain out + a * b (bf16, and i8 rows
// that only AMX tiles take).
mlir::linalg::GenericOp CreateGroupPack(mlir::OpBuilder& b, mlir::Location loc, mlir::Value source, mlir::Value packed,
                                        bool transposed);
void CreateGroupColumnSums(mlir::OpBuilder& b, mlir::Location loc, mlir::Value packed, mlir::Value sums);
mlir::linalg::GenericOp CreateGroupProduct(mlir::OpBuilder& b, mlir::Location loc, mlir::Value lhs, mlir::Value packed,
                                           mlir::Value sums, mlir::Value out);

// Replaces `block`, a cache block of a kPackedGroupDotProduct plan (a matmul of [m, kc] by
// [kc, nc] or [nc, kc], kc a multiple of the group, nc at most kGroupDotColumns), by the
// steps above on a [kc / g, kGroupDotColumns, g] buffer allocated once per function. The
// pack and the sums are marked for vectorisation; the product is returned, for the caller
// to tile its rows into kGroupDotTileAttr tiles.
mlir::linalg::GenericOp PackBlockForGroupDots(mlir::RewriterBase& rewriter, mlir::linalg::LinalgOp block,
                                    const ContractionTilePlan& plan);

// Vector code for a marked pack, sums or product with static columns (kGroupDotColumns)
// and, for the product, static rows (at most kGroupDotRows); the depth may be dynamic.
// Each fails and leaves the op alone (it becomes loops) otherwise.
mlir::LogicalResult VectorizeGroupPackTile(mlir::RewriterBase& rewriter, mlir::linalg::GenericOp pack);
mlir::LogicalResult VectorizeGroupSumsTile(mlir::RewriterBase& rewriter, mlir::linalg::GenericOp sums);
mlir::LogicalResult VectorizeGroupDotTile(mlir::RewriterBase& rewriter, mlir::linalg::GenericOp product);

}  // namespace kiln::compiler::cpu
