// How kiln's CPU code generation tiles matmul-like contractions (kiln-cpu-tile-contractions
// and kiln-cpu-vectorize-contractions).
#pragma once

#include <optional>

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kiln::compiler::cpu {

// Marks the register tiles that kiln-cpu-vectorize-contractions turns into vector code:
// a unit attribute for outer-product tiles, the vector length (an integer) for dot-product
// tiles.
inline constexpr llvm::StringLiteral kRegisterTileAttr = "kiln.register_tile";
inline constexpr llvm::StringLiteral kDotProductTileAttr = "kiln.dot_product_tile";

// How a register tile computes its m x n outputs.
enum class ContractionKernel {
  // Outer products along k: each step broadcasts m left-hand values and loads one row of n
  // right-hand values (contiguous in n), accumulating m x n outputs in vector registers.
  // The right-hand operand is read in place ([k, n]).
  kOuterProduct,
  // The same on a packed copy of the right-hand operand: each cache block of it, one
  // register tile wide, is copied (stored [k, n]) or transposed (stored [n, k], a linear
  // layer's weights) into a contiguous [k, n] buffer on the stack, once per block, and
  // reused from L1 by every row of the left-hand operand.
  kPackedOuterProduct,
  // Dot products along k for few rows (m at most kMaxDotProductRows, static): both operands
  // are contiguous in k, each output of a tile (a group of rows by a few columns)
  // accumulates a vector of partial sums over the whole depth, reduced once at the end.
  // The right-hand operand is read once from memory, a few rows at a time, which is what a
  // decode step's matrix-vector product needs.
  kDotProduct,
  // Dot products of groups of consecutive k in each 32-bit lane, with the CPU's mixed-
  // precision instructions (GroupDotProducts.h): bf16 x bf16 -> f32 in pairs (vdpbf16ps),
  // i8 x i8 -> i32 in quads (vpdpbusd). Each cache block of the right-hand operand, one
  // register tile wide, is packed [kc / g, nc, g] (the g k of a column side by side) on the
  // stack; register tiles of rows x 2 vectors of accumulators take one step per group.
  kPackedGroupDotProduct,
};

// The mixed-precision dot-product instructions of the target (kPackedGroupDotProduct).
enum class GroupDotKind {
  kBF16Pairs,  // AVX512_BF16 vdpbf16ps: f32 += a0 * b0 + a1 * b1 (bf16 pairs)
  kI8Quads,    // AVX512_VNNI vpdpbusd: i32 += sum of 4 u8 x s8 products
};
struct GroupDotFeatures {
  bool bf16_pairs = false;
  bool i8_quads = false;
  // AMX (AMX_TILE with AMX_BF16 or AMX_INT8): tiles of rows x 64 bytes multiplied by one
  // instruction (tdpbf16ps, tdpbssd), the same groups of k in each 32-bit unit of the
  // right-hand tile. Used together with the vector instruction of the same kind, which
  // takes the rows after the last whole tile.
  bool amx_bf16 = false;
  bool amx_i8 = false;
  // AVX512_FP16 (vfmadd231ph): f16 matmuls into f16 take the outer-product kernels in f16,
  // 32 lanes per register (not a group-dot kind: the products and sums are f16, as the op
  // says).
  bool f16_vectors = false;
};

inline constexpr int64_t kMaxDotProductRows = 8;
// One core's L1 data cache when the target's is not known, and the bytes one of its ways
// holds: sets x 64-byte lines is 4 KiB on x86 cores (a virtually indexed L1 indexes its
// sets within a 4 KiB page), so addresses a multiple of 4 KiB apart share a set.
inline constexpr int64_t kDefaultL1DataBytes = 32 * 1024;
inline constexpr int64_t kL1WayBytes = 4 * 1024;
// kDotProduct tiles on blocks of k (the left-hand rows are too long for L1) take at most
// this many columns (rows of W) and prefetch the pieces of W the tile after the next reads
// into L2, one line per row and step.
inline constexpr int64_t kDotProductBlockColumns = 2;
inline constexpr llvm::StringLiteral kPrefetchRowsAttr = "kiln.prefetch_rows";
// kDotProduct tiles whose x is spread (pieces shorter than an L1 way) take W's rows in
// chunks of about this many bytes (a quarter of the smallest L2 of the AVX-512 cores
// measured, so that the chunk read and the next one prefetched fit beside x), and each
// tile prefetches its share of the next chunk in memory order: [chunk rows, block of k]
// on the tile (VectorizeContractions.cc).
inline constexpr int64_t kDotProductChunkBytes = 256 * 1024;
inline constexpr llvm::StringLiteral kPrefetchNextChunkAttr = "kiln.prefetch_next_chunk";
// With fewer (static) rows, a right-hand operand stored [k, n] is read in place: a copy
// would cost about as much as the product.
inline constexpr int64_t kMinPackedRows = 16;

// Whether the body of `op` is out + a * b, each input possibly widened first by an
// extension (arith.extf, arith.extsi, arith.extui), and nothing else.
// linalg::isaContractionOpInterface also accepts any other one-operand op on the way (a
// negation, an absolute value), which the kernels, written for a plain product, would drop.
bool HasMultiplyAddBody(mlir::linalg::LinalgOp op);

// The row length, in elements of `element_bytes`, of a copy of `rows` rows of `length`
// elements whose rows are spread over L1's sets: the rows are a multiple of kL1WayBytes
// plus kL1WayBytes / 2^ceil(log2 rows) apart, so that pieces of up to a way's bytes at the
// same k of each row start in different sets and share each set evenly.
int64_t SpreadRowsStride(int64_t rows, int64_t length, int64_t element_bytes);

// Whether `buffer` is a view of a buffer of static shape of at least `bytes`.
bool IsStaticBufferOfAtLeast(mlir::Value buffer, int64_t bytes);

// Whether `buffer` is a view of a buffer of static shape at least this large (16 MiB,
// beyond the share of the last-level cache one contraction can count on), so that it
// comes from memory. Such an output passes through memory once per cache block of k, and
// its blocks of k are deeper. Such a packed right-hand operand is prefetched a block ahead
// (TileContractions.cc).
inline constexpr int64_t kBeyondLastLevelCacheBytes = 16 << 20;
inline bool IsBeyondLastLevelCache(mlir::Value buffer) {
  return IsStaticBufferOfAtLeast(buffer, kBeyondLastLevelCacheBytes);
}

// Whether `buffer` is at least this large (2 MiB: a core's L2 is 1-2 MiB on the machines
// measured, and the packed operands share it), so that an output comes from the shared
// L3 or memory at each cache block of k: its register tiles are prefetched for writing
// (VectorizeContractions.cc).
inline constexpr int64_t kBeyondPrivateCacheBytes = 2 << 20;
inline bool IsBeyondPrivateCache(mlir::Value buffer) {
  return IsStaticBufferOfAtLeast(buffer, kBeyondPrivateCacheBytes);
}

// Tile sizes per loop dimension of a contraction (0: not tiled).
struct ContractionTilePlan {
  ContractionKernel kernel = ContractionKernel::kOuterProduct;
  llvm::SmallVector<int64_t> cache_tile;     // blocks that stay in L1/L2 between reuses (none for kDotProduct)
  llvm::SmallVector<int64_t> cache_order;    // loop order of the blocks (k, n, m; n, m or k, n, m for kDotProduct tiles)
  llvm::SmallVector<int64_t> register_tile;  // m x n outputs held in vector registers (k = 1, or 0: all of it)
  unsigned m_dim = 0;
  unsigned n_dim = 0;
  unsigned k_dim = 0;
  int64_t vector_length = 0;  // elements per vector register
  bool transposed_rhs = false;  // kPackedOuterProduct: the right-hand operand is [.., n, k]
  int64_t prefetch_rows = 0;    // kDotProduct: prefetch W this many rows (n) ahead (0: none)
  // kDotProduct on blocks of k: the pieces of x's rows are shorter than an L1 way, so x
  // is read from a copy whose rows are spread over L1's sets (SpreadRowsStride).
  bool spread_lhs_rows = false;
  // kDotProduct: W's rows taken in chunks of this many, the tiles prefetching the next chunk
  // instead of prefetch_rows ahead (0: no chunks). On blocks of k, about
  // kDotProductChunkBytes of W; over the whole depth, one tile's columns (W read in order,
  // ContractionTiling.cc).
  int64_t chunk_rows = 0;
  GroupDotKind group_kind = GroupDotKind::kBF16Pairs;  // kPackedGroupDotProduct only
  bool matrix_tiles = false;  // kPackedGroupDotProduct: AMX tiles for the rows (GroupDotProducts.h)
};

// Whether operands of element type `input` (f16, bf16) of a linalg.matmul into `output`
// (f32) can be widened to `output`: by the copies that pack them (kPackedOuterProduct), so
// that the register tiles run the f32 kernel, or as kDotProduct tiles load them;
// vcvtph2ps (F16C) for f16, a shift for bf16.
bool IsWidenableOperand(mlir::Type input, mlir::Type output);

// The plan for `op`, if it is a contraction kiln vectorises: buffer semantics, one m, n
// and k dimension (any batch dimensions), f32 or f64 operands and result (narrower
// operands and f16 as below), the n dimension innermost and contiguous in the output, and
// the right-hand operand either [.., k, n] with n contiguous or [.., n, k] with k
// contiguous. [.., n, k] takes kDotProduct when m is
// static and at most kMaxDotProductRows and the left-hand operand is contiguous in k.
// Otherwise packing (kPackedOuterProduct) needs the operands' dimensions in the order of
// matmul or batch_matmul ([batch?, m, k], [batch?, k, n] or [batch?, n, k], and
// [batch?, m, n]), `allow_packing`, and for [.., k, n] at least kMinPackedRows rows or a
// dynamic m; [.., n, k] without it is not planned, [.., k, n] takes kOuterProduct.
// `vector_bits` is the width of the target's vector registers.
// With `group_dots`, a matmul (no batch) of bf16 into f32 or of i8 into i32 (signed),
// [m, k] x [k, n] or [n, k] with k and n contiguous, at least kMinPackedRows rows (or
// dynamic) and 512-bit vectors, takes kPackedGroupDotProduct when the target has its
// instruction. Other f16 or bf16 operands of an f32 matmul (no batch) with 512-bit vectors
// take kPackedOuterProduct with both operands widened while packed (IsWidenableOperand),
// whatever the rows, or kDotProduct (its tiles widen what they load; any vector width,
// batch or not) when it applies; only linalg.matmul is widened; other mixed-precision
// contractions are not planned. With `group_dots.f16_vectors` and 512-bit vectors, f16
// contractions (all operands and the result) are planned as f32 ones are, in 32-lane
// vectors, except for kDotProduct. With the target's AMX instructions of the kind as well
// and a static depth that is a multiple of an AMX step (32 bf16 or 64 i8 k), the plan
// takes matrix_tiles. `l1_data_bytes` (one core's L1 data cache) bounds kDotProduct's
// blocks of k (DotProductDepthBlock in ContractionTiling.cc).
std::optional<ContractionTilePlan> PlanContractionTiles(mlir::linalg::LinalgOp op, int64_t vector_bits,
                                                       bool allow_packing = true, GroupDotFeatures group_dots = {},
                                                       int64_t l1_data_bytes = kDefaultL1DataBytes);

}  // namespace kiln::compiler::cpu
