// Which reductions the GPU's workgroup reduction strategy takes (WorkgroupReduction.h).
#include "compiler/codegen/gpu/WorkgroupReduction.h"

#include "compiler/utils/ReductionCombiner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln::compiler::gpu {

using namespace mlir;

std::optional<WorkgroupReductionDims> MatchWorkgroupReduction(linalg::LinalgOp op) {
  if (!op || op.getNumDpsInputs() == 0 || op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1) {
    return std::nullopt;
  }
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) { return map.isProjectedPermutation(); })) {
    return std::nullopt;
  }
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  for (OpOperand* input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!getElementTypeOrSelf(input->get().getType()).isIntOrFloat() || map.getNumResults() == 0 ||
        cast<AffineDimExpr>(map.getResults().back()).getPosition() != reductions.front()) {
      return std::nullopt;
    }
  }
  Type output = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  if (!output.isIntOrFloat()) return std::nullopt;
  std::optional<ReductionCombiner> body = MatchReductionCombiner(op);
  if (!body) return std::nullopt;
  bool flat = llvm::all_of(op->getRegion(0).front().without_terminator(), [&](Operation& inner) {
    return &inner == body->combiner || (inner.getNumRegions() == 0 && inner.getNumResults() == 1 &&
                                        isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()));
  });
  if (!flat) return std::nullopt;
  return WorkgroupReductionDims{reductions.front(), body->combiner, body->neutral, body->element};
}

void BuildWorkgroupCombine(OpBuilder& b, Location loc, Value partial, Value lds, Value thread, int64_t wave_size,
                           function_ref<Value(Value in, Value acc)> combine, function_ref<Value()> init,
                           function_ref<void(Value total)> use_total, function_ref<void()> barrier) {
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  auto is_zero = [&](Value v) { return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, index(0)); };
  Value width = arith::ConstantIntOp::create(b, loc, b.getI32Type(), wave_size);
  for (int64_t offset = wave_size / 2; offset >= 1; offset /= 2) {
    Value distance = arith::ConstantIntOp::create(b, loc, b.getI32Type(), offset);
    auto shuffle = mlir::gpu::ShuffleOp::create(b, loc, partial, distance, width, mlir::gpu::ShuffleMode::XOR);
    partial = combine(shuffle.getShuffleResult(), partial);
  }
  Value lane = arith::RemUIOp::create(b, loc, thread, index(wave_size));
  Value wave = arith::DivUIOp::create(b, loc, thread, index(wave_size));
  auto first_lane = scf::IfOp::create(b, loc, is_zero(lane), /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(first_lane.thenBlock());
    memref::StoreOp::create(b, loc, partial, lds, ValueRange{wave});
  }
  barrier();
  auto first_item = scf::IfOp::create(b, loc, is_zero(thread), /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(first_item.thenBlock());
  Value total = init();
  for (int64_t w = 0; w < kReductionWorkgroupSize / wave_size; ++w) {
    total = combine(memref::LoadOp::create(b, loc, lds, ValueRange{index(w)}), total);
  }
  use_total(total);
}

}  // namespace kiln::compiler::gpu
