// Computing on packed sub-byte tensors (SubByteStorage.h) through the bytes that store
// them, inside a dispatch function: a linalg.generic whose operands of packed sub-byte
// elements are replaced by their bytes, unpacking what it reads and packing what it writes.
//
// Every packed operand's innermost dimension is indexed by the same loop j, which then runs
// over bytes (jb), and j = jb * 8 / w + t for the element t of a byte:
// - when another operand also indexes j (an elementwise dequantization of i4 weights into
//   f32, a quantization of f32 into i4), a new loop runs over t and those operands are
//   expanded to [..., n / (8 / w), 8 / w] (their j floordiv c, c a multiple of 8 / w, as
//   jb floordiv (c / (8 / w))): each iteration reads element t of the bytes it reads and
//   replaces element t of a packed result's byte (t is then a reduction loop);
// - when only packed operands index j (a row sum of i4 elements, an add of two packed
//   tensors), the body repeats 8 / w times, repetition t on element t of each byte, a
//   result that is not packed carried from one repetition to the next, a packed one
//   assembled from the repetitions' elements.
// Either way linalg.index j stands for jb * 8 / w + t, and every indexing map stays a
// projected permutation where it was one (linalg's tiling composes only those exactly).
#pragma once

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

// An operand of a generic whose logical sub-byte elements are now `bytes`: the same rank,
// the innermost dimension in bytes (PackedByteShape). For an output, `bytes` is its new
// destination (an empty tensor of bytes, or one filled with PackedSplatByte).
struct PackedOperand {
  unsigned operand_number;
  mlir::Value bytes;
};

// Rebuilds `op` over `packed` as described above and replaces it: its results of packed
// operands become the bytes tensors; the other results are replaced in place. The new op
// keeps `op`'s discardable attributes (kiln.root); expanded results are collapsed back. Fails
// with an error on `op` naming what it cannot express: a packed innermost dimension indexed
// by an expression or by different loops, packed operands of different widths, a packed
// result whose innermost loop is a reduction, a packed and an unpacked result both indexed
// by j, another use of j than plain or floordiv.
mlir::FailureOr<mlir::linalg::GenericOp> RewriteOverPackedBytes(mlir::RewriterBase& rewriter,
                                                                mlir::linalg::GenericOp op,
                                                                llvm::ArrayRef<PackedOperand> packed);

// The element of type `element` (sub-byte) that `byte` (i8) holds `shift` bits up (an
// i8 value).
mlir::Value ExtractPackedElement(mlir::OpBuilder& b, mlir::Location loc, mlir::Value byte, mlir::Value shift,
                                 mlir::Type element);

// The byte holding 8 / w copies of sub-byte `value`: a packed splat's fill value.
mlir::Value PackedSplatByte(mlir::OpBuilder& b, mlir::Location loc, mlir::Value value);

}  // namespace kiln::compiler
