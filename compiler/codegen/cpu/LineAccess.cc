#include "compiler/codegen/cpu/LineAccess.h"

namespace kiln::compiler::cpu {

using namespace mlir;

namespace {

// Every line starts on a cache line: aligned for any element and apart from its neighbours.
constexpr int64_t kLineAlignment = 64;

}  // namespace

int64_t ScratchElementBytes(Type element) {
  if (element.isIndex()) return 8;
  if (!element.isIntOrFloat()) return 0;
  return (element.getIntOrFloatBitWidth() + 7) / 8;
}

ScratchLines AllocateScratchLines(OpBuilder& b, Location loc, ArrayRef<std::pair<Type, Value>> shapes) {
  SmallVector<Value> offsets;
  Value total = IndexConstant(b, loc, 0);
  Value round = IndexConstant(b, loc, kLineAlignment - 1), mask = IndexConstant(b, loc, ~(kLineAlignment - 1));
  for (auto [element, length] : shapes) {
    offsets.push_back(total);
    if (ScratchElementBytes(element) == 0) continue;
    Value bytes = arith::MulIOp::create(b, loc, length, IndexConstant(b, loc, ScratchElementBytes(element)));
    bytes = arith::AndIOp::create(b, loc, arith::AddIOp::create(b, loc, bytes, round), mask);
    total = arith::AddIOp::create(b, loc, total, bytes);
  }
  auto block_type = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  // Aligned so that memref.view keeps every line aligned.
  Value block = memref::AllocOp::create(b, loc, block_type, ValueRange{total}, ValueRange{},
                                        b.getI64IntegerAttr(kLineAlignment));
  ScratchLines result{{}, {block}};
  for (auto [shape, offset] : llvm::zip(shapes, offsets)) {
    if (ScratchElementBytes(shape.first) == 0) {
      result.lines.push_back(AllocateScratchLine(b, loc, shape.first, shape.second));
      result.heap.push_back(result.lines.back().memref);
      continue;
    }
    auto type = MemRefType::get({ShapedType::kDynamic}, shape.first);
    Value view = memref::ViewOp::create(b, loc, type, block, offset, ValueRange{shape.second});
    result.lines.push_back(Line{view, {IndexConstant(b, loc, 0)}, 0});
  }
  return result;
}

void DeallocateScratchLines(OpBuilder& b, Location loc, const ScratchLines& scratch) {
  for (Value heap : scratch.heap) memref::DeallocOp::create(b, loc, heap);
}

}  // namespace kiln::compiler::cpu
