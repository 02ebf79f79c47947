#include "compiler/codegen/cpu/Passes.h"
#include "compiler/utils/SmallFloats.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_EXPANDFLOAT8
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// `value` (any float) as f32; exact except from f64.
Value ToF32(OpBuilder& b, Location loc, Value value) {
  Type type = value.getType();
  if (type.isF32()) return value;
  if (type.getIntOrFloatBitWidth() < 32) return arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  return arith::TruncFOp::create(b, loc, b.getF32Type(), value);
}

Value FromF32(OpBuilder& b, Location loc, Value value, Type type) {
  if (type.isF32()) return value;
  if (type.getIntOrFloatBitWidth() > 32) return arith::ExtFOp::create(b, loc, type, value);
  return arith::TruncFOp::create(b, loc, type, value);
}

struct ExpandFloat8Pass : impl::ExpandFloat8Base<ExpandFloat8Pass> {
  void runOnOperation() override {
    SmallVector<Operation*> ops;
    getOperation()->walk([&](Operation* op) {
      if (isa<arith::ExtFOp, arith::TruncFOp, arith::ConstantOp>(op)) ops.push_back(op);
    });
    OpBuilder b(&getContext());
    for (Operation* op : ops) {
      b.setInsertionPoint(op);
      Location loc = op->getLoc();
      if (auto ext = dyn_cast<arith::ExtFOp>(op)) {
        std::optional<Float8Format> format = GetFloat8Format(ext.getIn().getType());
        if (!format) continue;
        Value bits = arith::BitcastOp::create(b, loc, b.getI8Type(), ext.getIn());
        Value f32 = BuildFloat8ToF32(b, loc, bits, *format);
        ext.replaceAllUsesWith(FromF32(b, loc, f32, ext.getType()));
        ext.erase();
      } else if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
        std::optional<Float8Format> format = GetFloat8Format(trunc.getType());
        if (!format) continue;
        Value bits = BuildF32ToFloat8(b, loc, ToF32(b, loc, trunc.getIn()), *format);
        trunc.replaceAllUsesWith(arith::BitcastOp::create(b, loc, trunc.getType(), bits).getResult());
        trunc.erase();
      } else if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
        auto value = dyn_cast<FloatAttr>(constant.getValue());
        if (!value || !GetFloat8Format(value.getType())) continue;
        uint64_t bits = value.getValue().bitcastToAPInt().getZExtValue();
        Value i8 = arith::ConstantIntOp::create(b, loc, b.getI8Type(), static_cast<int64_t>(bits));
        constant.replaceAllUsesWith(arith::BitcastOp::create(b, loc, value.getType(), i8).getResult());
        constant.erase();
      }
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
