// Least-significant-digit radix sort of sort lines whose comparator is one plain
// comparison of the first operand (`cmpf olt %a, %b`, `cmpi sgt %b, %a`, ...): what
// models sort by, ~10x fewer steps than a comparison sort of 1M keys.
//
// Keys of up to 32 bits are mapped to unsigned 32-bit integers whose order is the
// comparator's (floats widened to f32, -0.0 folded onto +0.0 so that it stays equal to
// it; descending order inverts the key), then sorted in stable passes: four of 8 bits,
// or three of 11 bits for lines of 64K elements or more (passes whose digit is the same
// for every key are skipped). Narrow operands move through the passes themselves (packed
// into one integer where they fit, RadixPackedType); wide ones follow the keys' ranks,
// each key and rank one i64 (RadixMovesOperands). NaNs, which the comparator leaves
// unordered, go after +inf (positive NaNs) and before -inf (negative ones) in ascending
// order.
#pragma once

#include <optional>

#include "compiler/codegen/cpu/LineAccess.h"

namespace kiln::compiler::cpu {

struct RadixKey {
  enum class Kind { kFloat, kSigned, kUnsigned } kind;
  bool descending = false;
};

// The key the comparator orders by, if it is one strict comparison of the first
// operand's two arguments (each of at most 32 bits).
std::optional<RadixKey> MatchRadixComparator(mlir::Block& comparator);

// Whether the passes move the operands themselves (at most kMaxMovedBytes bytes an
// element in all: keys with their indices, say), each pass computing the digit from the
// first operand again, rather than 32-bit keys and ranks followed by a gather of every
// operand through the ranks. For values with i32 indices both move 8 bytes an element a
// pass, but the gather reads at random (a fifth of a 1M sort's time on one thread).
bool RadixMovesOperands(mlir::TypeRange elements);

// The integer the passes move the operands in, their bits side by side (the first
// operand's lowest), when they move the operands and there are several, each an integer
// or float of at most 32 bits, that fill an i32 or i64 with no more bytes than the
// operands' own lines take (values with i32 indices; f16 keys with i16 values). Each pass
// then stores one element instead of one per operand, and the buckets' stores stay
// within half the cache lines (a C model of 1M f32 values with i32 indices, three 11-bit
// passes, 1 thread: 12.0-12.8 ms against 16.7-18.7 for separate lines; kiln's 1M sort
// with indices 0.90x the time on 1 thread, 0.84x on 2 workers). Packing that widens the
// element (f16 with i8 into an i32) is left unmeasured and not done. A null type
// otherwise.
mlir::Type RadixPackedType(mlir::MLIRContext* context, mlir::TypeRange elements);

// The scratch lines the radix sort needs (element type and length, for
// AllocateScratchLines): the digit histograms of every pass; when it does not move the
// operands, two lines of i64 pairs of a 32-bit key (low) and its rank (ping-pong); with a
// `packed` type, two lines of it. Those lines are `radix_n` long: the line's length when
// the radix sort runs, 0 when the comparison sort takes the line instead. Unpacked passes
// use the caller's two scratch lines per operand.
llvm::SmallVector<std::pair<mlir::Type, mlir::Value>> RadixScratchShapes(mlir::OpBuilder& b, mlir::Location loc,
                                                                         mlir::Value radix_n, bool moves_operands,
                                                                         mlir::Type packed);

// The lines of RadixScratchShapes, in its order; keys and ranks empty when the sort moves
// the operands, packed empty when it does not pack them. `operands_a` and `operands_b`
// are the two scratch lines of every operand.
struct RadixScratch {
  Line histograms;
  llvm::SmallVector<Line> keys_and_ranks;  // pairs_a, pairs_b (i64: key | rank << 32)
  llvm::SmallVector<Line> operands_a, operands_b;
  llvm::SmallVector<Line> packed;  // packed_a, packed_b
};

// The RadixScratch of the lines AllocateScratchLines made for RadixScratchShapes(...,
// moves_operands, packed), in that order, beside the operands' two scratch lines.
RadixScratch RadixScratchOf(llvm::ArrayRef<Line> radix_lines, bool moves_operands, mlir::Type packed,
                            llvm::ArrayRef<Line> operands_a, llvm::ArrayRef<Line> operands_b);

// Sorts `sources` into `lines` (0 < n < 2^31 elements each, keys in the first; `sources`
// may be `lines`: in place).
void EmitRadixSortLine(mlir::OpBuilder& b, mlir::Location loc, const RadixKey& key, const RadixScratch& scratch,
                       llvm::ArrayRef<Line> sources, llvm::ArrayRef<Line> lines, mlir::Value n);

}  // namespace kiln::compiler::cpu
