// How kiln stores tensors of sub-byte elements (i2, i4, f4E2M1FN, the f6 formats) wherever
// they leave a dispatch (bindings and host buffers). Two storages, chosen by the type:
// - packed (IsPackedSubByte): 8 / w elements a byte, the first in the low bits (IREE's
//   order), when the innermost dimension is static and a multiple of 8 / w, so that every
//   row is whole bytes: the tensor is then the [..., n * w / 8] bytes it packs, and views
//   of it as bytes or as wider elements (flow.tensor.bitcast) are views of the same buffer.
//   Quantized weights are always shaped so. Dispatch bindings are those bytes (i8, the
//   innermost dimension divided; kiln-lower-sub-byte-bindings) and kernels unpack the
//   elements they read and pack those they write (compiler/utils/PackedSubByteAccess.h).
// - one element per byte (in the byte's low bits) otherwise: odd rows, dynamic innermost
//   dimensions, 6-bit formats. Their dispatch bindings are i8 of the same shape; a
//   program's arguments and results of such types are still packed (the caller's layout)
//   and unpacked or packed at the boundary (kiln-expand-sub-byte-bitcasts), as is every
//   flow.tensor.bitcast or reshape between the two storages.
// LLVM would lay out scalars of i4 one per byte and vectors of i4 packed, so no tensor of
// sub-byte elements is left in memory inside a kernel: kernels load and store whole bytes.
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

// Elements of `element` (sub-byte) a byte holds when packed: 8 / w, or 0 when w does not
// divide 8 (the 6-bit formats, never packed).
inline int64_t ElementsPerByte(mlir::Type element) {
  unsigned width = element.getIntOrFloatBitWidth();
  return width && 8 % width == 0 ? 8 / width : 0;
}

// Whether `type` (a shaped type) is stored packed: sub-byte elements, rank >= 1, and a
// static innermost dimension that is a multiple of ElementsPerByte.
inline bool IsPackedSubByte(mlir::Type type) {
  auto shaped = llvm::dyn_cast<mlir::ShapedType>(type);
  if (!shaped || !shaped.hasRank() || shaped.getRank() == 0 || !IsSubByteElement(shaped.getElementType())) return false;
  int64_t per_byte = ElementsPerByte(shaped.getElementType());
  int64_t inner = shaped.getShape().back();
  return per_byte && !mlir::ShapedType::isDynamic(inner) && inner % per_byte == 0;
}

// Whether `type` holds sub-byte elements stored one per byte (not IsPackedSubByte).
inline bool HasByteStoredSubByteElements(mlir::Type type) {
  return HasSubByteElements(type) && !IsPackedSubByte(type);
}

// The shape of the bytes that store packed `type` (IsPackedSubByte): the innermost
// dimension divided by ElementsPerByte.
llvm::SmallVector<int64_t> PackedByteShape(mlir::ShapedType type);

// Bytes per element as kernels and buffers store them: i1 and sub-byte elements take a
// byte each (packed sub-byte tensors: StoredTensorBytes); nullopt for types kiln does not
// store this way (complex, index).
inline std::optional<int64_t> StoredElementBytes(mlir::Type type) {
  if (type.isInteger(1) || IsSubByteElement(type)) return 1;
  if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() % 8 != 0) return std::nullopt;
  return type.getIntOrFloatBitWidth() / 8;
}

// The bytes a static tensor of `type` takes in a buffer (packed or not); nullopt when its
// elements cannot be stored or its shape is dynamic.
std::optional<int64_t> StoredTensorBytes(mlir::ShapedType type);

// The bits of a sub-byte scalar as an integer of its width (itself for integers), and
// back; and the byte that stores one (its bits zero-extended) and back (truncated).
mlir::Value SubByteBits(mlir::OpBuilder& b, mlir::Location loc, mlir::Value value);
mlir::Value FromSubByteBits(mlir::OpBuilder& b, mlir::Location loc, mlir::Value bits, mlir::Type type);
mlir::Value SubByteToByte(mlir::OpBuilder& b, mlir::Location loc, mlir::Value value);
mlir::Value ByteToSubByte(mlir::OpBuilder& b, mlir::Location loc, mlir::Value byte, mlir::Type type);

}  // namespace kiln::compiler
