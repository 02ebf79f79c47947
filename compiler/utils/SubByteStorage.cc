#include "compiler/utils/SubByteStorage.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace kiln::compiler {

using namespace mlir;

SmallVector<int64_t> PackedByteShape(ShapedType type) {
  SmallVector<int64_t> shape(type.getShape());
  shape.back() /= ElementsPerByte(type.getElementType());
  return shape;
}

std::optional<int64_t> StoredTensorBytes(ShapedType type) {
  std::optional<int64_t> element_bytes = StoredElementBytes(type.getElementType());
  if (!element_bytes || !type.hasStaticShape()) return std::nullopt;
  if (IsPackedSubByte(type)) return type.getNumElements() / ElementsPerByte(type.getElementType());
  return type.getNumElements() * *element_bytes;
}

Value SubByteBits(OpBuilder& b, Location loc, Value value) {
  Type type = value.getType();
  if (isa<IntegerType>(type)) return value;
  return arith::BitcastOp::create(b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()), value);
}

Value FromSubByteBits(OpBuilder& b, Location loc, Value bits, Type type) {
  return bits.getType() == type ? bits : arith::BitcastOp::create(b, loc, type, bits).getResult();
}

Value SubByteToByte(OpBuilder& b, Location loc, Value value) {
  return arith::ExtUIOp::create(b, loc, b.getI8Type(), SubByteBits(b, loc, value));
}

Value ByteToSubByte(OpBuilder& b, Location loc, Value byte, Type type) {
  Value bits = arith::TruncIOp::create(b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()), byte);
  return FromSubByteBits(b, loc, bits, type);
}

}  // namespace kiln::compiler
