// Least-significant-digit radix sort of sort lines whose comparator is one plain
// comparison of the first operand (`cmpf olt %a, %b`, `cmpi sgt %b, %a`, ...): what
// models sort by, ~10x fewer steps than a comparison sort of 1M keys.
//
// Keys of up to 32 bits are mapped to unsigned 32-bit integers whose order is the
// comparator's (floats widened to f32, -0.0 folded onto +0.0 so that it stays equal to
// it; descending order inverts the key), then sorted in four stable passes of 8 bits
// (passes whose digit is the same for every key are skipped). Every operand is then
// permuted like the keys. NaNs, which the comparator leaves unordered, go after +inf
// (positive NaNs) and before -inf (negative ones) in ascending order.
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

// Buffers one sort op reuses for all its lines: keys and ranks twice (ping-pong) and the
// four 256-entry digit histograms, all views of one heap `block`.
struct RadixScratch {
  Line keys_a, keys_b, ranks_a, ranks_b, histograms;
  mlir::Value block;
};
RadixScratch AllocateRadixScratch(mlir::OpBuilder& b, mlir::Location loc, mlir::Value n);
void DeallocateRadixScratch(mlir::OpBuilder& b, mlir::Location loc, const RadixScratch& scratch);

// Sorts `sources` into `lines` (0 < n < 2^31 elements each, keys in the first). In place
// (`sources` are `lines`), `copies` holds one scratch line per operand that the final
// permutation reads the line through; otherwise it reads `sources` and `copies` is empty.
void EmitRadixSortLine(mlir::OpBuilder& b, mlir::Location loc, const RadixKey& key, const RadixScratch& scratch,
                       llvm::ArrayRef<Line> sources, llvm::ArrayRef<Line> lines, llvm::ArrayRef<Line> copies,
                       mlir::Value n);

}  // namespace kiln::compiler::cpu
