// How kiln stores tensors of sub-byte elements (i2, i4, f4E2M1FN, the f6 formats): one
// element per byte, in the byte's low bits, wherever they leave a dispatch (bindings and
// host buffers). Only flow.tensor.bitcast and a program's arguments and results see packed
// bits: kiln-expand-sub-byte-bitcasts turns each such bitcast into computations that pack
// or unpack bytes and unpacks arguments and packs results, and
// kiln-widen-sub-byte-bindings gives dispatch functions i8 bindings.
// Storing one element per byte costs memory, but every kernel then reads and writes whole
// bytes (LLVM would lay out scalars of i4 one per byte and vectors of i4 packed).
#pragma once

#include <optional>

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace kiln::compiler {

// Marks the flow.tensor.bitcast ops at a public function's boundary that view a packed
// argument as bytes, or packed bytes as a result (kiln-expand-sub-byte-bitcasts makes
// them): the host program's only packed sub-byte buffer views.
inline constexpr llvm::StringLiteral kPackedBoundaryAttr = "kiln.packed_boundary";

// Whether `type` (an element type) is narrower than a byte and so stored widened; i1 is
// not: LLVM already stores it as a byte.
inline bool IsSubByteElement(mlir::Type type) {
  if (!type.isIntOrFloat() || type.isInteger(1)) return false;
  return type.getIntOrFloatBitWidth() < 8;
}

inline bool HasSubByteElements(mlir::Type type) {
  auto shaped = llvm::dyn_cast<mlir::ShapedType>(type);
  return shaped && IsSubByteElement(shaped.getElementType());
}

// Bytes per element as kernels and buffers store them: i1 and sub-byte elements take a
// byte each; nullopt for types kiln does not store this way (complex, index).
inline std::optional<int64_t> StoredElementBytes(mlir::Type type) {
  if (type.isInteger(1) || IsSubByteElement(type)) return 1;
  if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() % 8 != 0) return std::nullopt;
  return type.getIntOrFloatBitWidth() / 8;
}

// The bits of a sub-byte scalar as an integer of its width (itself for integers), and
// back; and the byte that stores one (its bits zero-extended) and back (truncated).
mlir::Value SubByteBits(mlir::OpBuilder& b, mlir::Location loc, mlir::Value value);
mlir::Value FromSubByteBits(mlir::OpBuilder& b, mlir::Location loc, mlir::Value bits, mlir::Type type);
mlir::Value SubByteToByte(mlir::OpBuilder& b, mlir::Location loc, mlir::Value value);
mlir::Value ByteToSubByte(mlir::OpBuilder& b, mlir::Location loc, mlir::Value byte, mlir::Type type);

}  // namespace kiln::compiler
