// Matmuls of bf16 and i8 on AMX tiles (ContractionKernel::kPackedGroupDotProduct with
// matrix_tiles): the register tiles of GroupDotProducts.h, 32 rows at a time, computed by
// the CPU's tile multiply unit instead of vector instructions.
//
// An AMX tile holds 16 rows of 64 bytes. tdpbf16ps and tdpbssd multiply a tile of the
// left-hand operand (16 rows x 16 groups of k, read in place: A's rows are contiguous in k)
// by a tile of the packed right-hand block (16 groups x 16 columns, each column's group in
// one 32-bit unit: exactly 16 rows of the [kc / g, 32, g] block that GroupDotProducts.h
// packs, 64 of its 128 bytes per row) into a tile of 16 x 16 32-bit accumulators. A
// register tile of 32 rows x 32 columns is 2 x 2 accumulator tiles, which stay in tile
// registers for the whole block of k, with 2 left-hand and 2 right-hand tiles per step:
// all 8 tile registers.
//
// tdpbssd multiplies signed by signed bytes, so the column sums that undo vpdpbusd's
// unsigned offset (GroupDotProducts.h) are not needed: where the block's rows are all in
// AMX tiles the product is plain out + a * b and no sums are made; where vector tiles take
// some rows, the AMX tiles ignore the sums and still compute the product generic's result
// exactly (128 x the sums of b, added and subtracted, cancel in i32).
// The rows after the last 32 take the vector kernel on the same packed block.
#pragma once

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler::cpu {

// Marks the product tiles VectorizeMatrixTileProduct turns into AMX code.
inline constexpr llvm::StringLiteral kMatrixTileAttr = "kiln.matrix_tile";

// Rows of one AMX tile, and of a register tile of 2 x 2 accumulator tiles.
inline constexpr int64_t kAmxTileRows = 16;
inline constexpr int64_t kMatrixTileRows = 2 * kAmxTileRows;
// Groups of k per step: the rows of a right-hand tile (32 bf16 or 64 i8 k).
inline constexpr int64_t kAmxStepGroups = 16;

// AMX code for a marked product (PackBlockForGroupDots' generic, tiled to kMatrixTileRows
// rows) whose packed block has a static number of groups, a multiple of kAmxStepGroups;
// fails and leaves the op alone otherwise.
mlir::LogicalResult VectorizeMatrixTileProduct(mlir::RewriterBase& rewriter, mlir::linalg::GenericOp product);

}  // namespace kiln::compiler::cpu
