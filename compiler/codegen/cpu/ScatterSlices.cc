// iree_linalg_ext.scatter's slice placement (ScatterSlices.h).
#include "compiler/codegen/cpu/ScatterSlices.h"

#include "compiler/dialect/KilnDialect.h"
#include "compiler/utils/Locations.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kiln::compiler::cpu {

using namespace mlir;

ScatterShape ScatterShape::Of(iree::ScatterOp op) {
  auto updates = cast<ShapedType>(op.getInputs()[0].getType());
  auto indices = cast<ShapedType>(op.getInputs()[1].getType());
  int64_t original_rank = cast<ShapedType>(op.getOutputs()[0].getType()).getRank();
  ScatterShape shape;
  shape.batch_rank = iree::IndexBatchRank(indices, op.getDimensionMap().size());
  shape.explicit_depth = shape.batch_rank < indices.getRank();
  shape.first_slice_dim = original_rank - (updates.getRank() - shape.batch_rank);
  return shape;
}

ScatterSliceOrigin BuildScatterSliceOrigin(OpBuilder& b, Location loc, iree::ScatterOp op, const ScatterShape& shape,
                                           ValueRange batch, ArrayRef<Value> slice_sizes,
                                           ArrayRef<Value> original_sizes) {
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value zero = index(0);
  ScatterSliceOrigin origin;
  origin.offsets.assign(original_sizes.size(), zero);
  if (op.getInputs().size() > 2) origin.enabled = memref::LoadOp::create(b, loc, op.getInputs()[2], batch);
  origin.fits = origin.enabled ? origin.enabled : arith::ConstantIntOp::create(b, loc, 1, 1).getResult();
  for (auto [j, s] : llvm::enumerate(op.getDimensionMap())) {
    SmallVector<Value> at(batch.begin(), batch.end());
    if (shape.explicit_depth) at.push_back(index(j));
    Value offset = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                              memref::LoadOp::create(b, loc, op.getInputs()[1], at));
    Value window = s >= shape.first_slice_dim ? slice_sizes[s - shape.first_slice_dim] : index(1);
    // 0 <= offset and offset + window <= size, with the sum computed without overflow.
    Value room = arith::SubIOp::create(b, loc, original_sizes[s], window);
    Value nonnegative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, offset, zero);
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, offset, room);
    origin.fits = arith::AndIOp::create(b, loc, origin.fits, arith::AndIOp::create(b, loc, nonnegative, inside));
    origin.offsets[s] = offset;
    origin.rooms.push_back(room);
  }
  return origin;
}

void BuildScatterIndexChecks(OpBuilder& b, Location loc, iree::ScatterOp op, const ScatterSliceOrigin& origin) {
  for (auto [j, s] : llvm::enumerate(op.getDimensionMap())) {
    Value bound = arith::AddIOp::create(b, loc, origin.rooms[j], arith::ConstantIndexOp::create(b, loc, 1));
    IndexCheckOp::create(b, loc, origin.offsets[s], bound, origin.enabled, SliceOffsetSite(op, s, "original"));
  }
}

}  // namespace kiln::compiler::cpu
