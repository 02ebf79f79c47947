#include "compiler/codegen/gpu/WorkItemLoops.h"

#include <functional>

#include "compiler/codegen/gpu/MfmaLayout.h"
#include "compiler/codegen/gpu/WmmaLayout.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::compiler::gpu {

using namespace mlir;

bool IsWorkItemSynchronisation(Operation* op) {
  return isa<mlir::gpu::BarrierOp, mlir::gpu::ShuffleOp, amdgpu::MFMAOp, amdgpu::WMMAOp>(op);
}

bool ContainsBarrier(Operation* op) {
  return op
      ->walk([](Operation* inner) {
        return IsWorkItemSynchronisation(inner) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {

constexpr int64_t kPrivateAlignment = 64;

class WorkItemLoopBuilder {
 public:
  WorkItemLoopBuilder(func::FuncOp kernel, int64_t items)
      : kernel_(kernel), items_(items), b_(kernel.getContext()), loc_(kernel.getLoc()) {}

  LogicalResult Run() {
    Block& entry = kernel_.getBody().front();
    b_.setInsertionPointToStart(&entry);
    zero_ = arith::ConstantIndexOp::create(b_, loc_, 0);
    one_ = arith::ConstantIndexOp::create(b_, loc_, 1);
    count_ = arith::ConstantIndexOp::create(b_, loc_, items_);
    for (Value v : {zero_, one_, count_}) workgroup_level_.insert(v.getDefiningOp());
    buffers_at_ = b_.saveInsertionPoint();
    if (failed(SlicePrivateAllocations(entry))) return failure();
    if (failed(Split(entry))) return failure();
    for (scf::ForOp loop : loops_) {
      if (failed(ImportValues(loop))) return failure();
    }
    // The work-item id is each loop's induction variable.
    for (scf::ForOp loop : loops_) {
      loop.walk([&](mlir::gpu::ThreadIdOp id) {
        OpBuilder at(id);
        Value replacement = id.getDimension() == mlir::gpu::Dimension::x
                                ? Value(loop.getInductionVar())
                                : arith::ConstantIndexOp::create(at, id.getLoc(), 0).getResult();
        id.replaceAllUsesWith(replacement);
        id.erase();
      });
    }
    return success();
  }

 private:
  // A buffer for all work-items, allocated once at the kernel's entry.
  Value AllocateForWorkItems(MemRefType type) {
    OpBuilder::InsertionGuard guard(b_);
    b_.restoreInsertionPoint(buffers_at_);
    auto buffer = memref::AllocaOp::create(b_, loc_, type, ValueRange{}, b_.getI64IntegerAttr(kPrivateAlignment));
    workgroup_level_.insert(buffer);
    buffers_at_ = b_.saveInsertionPoint();
    return buffer;
  }

  // Each private allocation directly in a block that is split becomes the work-item's
  // slice of a buffer for all of them (a memref.view, recomputed wherever it is used).
  LogicalResult SlicePrivateAllocations(Block& block) {
    SmallVector<memref::AllocaOp> allocations;
    for (Operation& op : block) {
      if (auto alloca = dyn_cast<memref::AllocaOp>(op)) allocations.push_back(alloca);
      if (ContainsBarrier(&op)) {
        for (Region& region : op.getRegions()) {
          for (Block& inner : region) {
            if (failed(SlicePrivateAllocations(inner))) return failure();
          }
        }
      }
    }
    for (memref::AllocaOp alloca : allocations) {
      MemRefType type = alloca.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() || !type.getElementType().isIntOrIndexOrFloat()) {
        return alloca.emitError() << "the host twin needs a work-item's private buffer to have a static shape, an "
                                     "identity layout and scalar elements, not "
                                  << type;
      }
      int64_t bits = type.getElementType().isIndex() ? 64 : type.getElementTypeBitWidth();
      int64_t bytes = (type.getNumElements() * std::max<int64_t>(bits / 8, 1) + kPrivateAlignment - 1) /
                      kPrivateAlignment * kPrivateAlignment;
      Value buffer = AllocateForWorkItems(MemRefType::get({bytes * items_}, b_.getI8Type()));
      OpBuilder at(alloca);
      Value item = mlir::gpu::ThreadIdOp::create(at, alloca.getLoc(), mlir::gpu::Dimension::x);
      Value offset = arith::MulIOp::create(at, alloca.getLoc(), item,
                                           arith::ConstantIndexOp::create(at, alloca.getLoc(), bytes));
      Value slice = memref::ViewOp::create(at, alloca.getLoc(), type, buffer, offset, ValueRange{});
      alloca.replaceAllUsesWith(slice);
      alloca.erase();
    }
    return success();
  }

  bool IsUniform(Value v) const { return !divergent_.contains(v); }

  // Whether `op` runs once for the workgroup: no regions, no memory effects, the same
  // operands in every work-item.
  bool RunsOnce(Operation* op) {
    if (workgroup_level_.contains(op)) return true;
    bool once = op->getNumRegions() == 0 && !isa<mlir::gpu::ThreadIdOp>(op) && isMemoryEffectFree(op) &&
                llvm::all_of(op->getOperands(), [&](Value v) { return IsUniform(v); });
    if (!once) divergent_.insert(op->getResults().begin(), op->getResults().end());
    return once;
  }

  // Checks that `op`, which contains a barrier, runs the same way in every work-item.
  LogicalResult CheckUniformControl(Operation* op) {
    auto divergent = [&](ValueRange values) { return !llvm::all_of(values, [&](Value v) { return IsUniform(v); }); };
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (loop.getNumResults() != 0) {
        return op->emitError() << "the host twin cannot split a loop that carries values across a barrier";
      }
      if (divergent({loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})) {
        return op->emitError() << "barrier in a loop whose bounds differ between work-items";
      }
      return success();
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      if (branch.getNumResults() != 0) {
        return op->emitError() << "the host twin cannot split a conditional with results around a barrier";
      }
      if (divergent(branch.getCondition())) {
        return op->emitError() << "barrier under a condition that differs between work-items";
      }
      return success();
    }
    return op->emitError() << "the host twin cannot emulate a barrier inside '" << op->getName() << "'";
  }

  // A shuffle is a subgroup-wide exchange: every lane stores its value, then every lane
  // reads its partner's, within segments of `width` lanes (gpu.shuffle's semantics; an
  // out-of-range partner gives the lane's own value and valid = false).
  template <typename Flush>
  LogicalResult EmulateShuffle(mlir::gpu::ShuffleOp shuffle, SmallVector<Operation*>& segment, Flush&& flush) {
    if (!IsUniform(shuffle.getOffset()) || !IsUniform(shuffle.getWidth())) {
      return shuffle.emitError() << "the host twin emulates shuffles whose offset and width are the same in every "
                                    "work-item";
    }
    Location loc = shuffle.getLoc();
    Value values = AllocateForWorkItems(MemRefType::get({items_}, shuffle.getValue().getType()));
    OpBuilder b(shuffle);
    Value item = mlir::gpu::ThreadIdOp::create(b, loc, mlir::gpu::Dimension::x);
    auto store = memref::StoreOp::create(b, loc, shuffle.getValue(), values, ValueRange{item});
    segment.append({item.getDefiningOp(), store});
    flush(shuffle);

    Block* block = shuffle->getBlock();
    Operation* marker = shuffle->getPrevNode();
    Value reader = mlir::gpu::ThreadIdOp::create(b, loc, mlir::gpu::Dimension::x);
    auto index = [&](Value i32) { return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), i32).getResult(); };
    Value width = index(shuffle.getWidth()), offset = index(shuffle.getOffset());
    Value lane = arith::RemUIOp::create(b, loc, reader, width);
    Value base = arith::SubIOp::create(b, loc, reader, lane);
    Value partner;
    switch (shuffle.getMode()) {
      case mlir::gpu::ShuffleMode::XOR:
        partner = arith::XOrIOp::create(b, loc, lane, offset);
        break;
      case mlir::gpu::ShuffleMode::DOWN:
        partner = arith::AddIOp::create(b, loc, lane, offset);
        break;
      case mlir::gpu::ShuffleMode::UP:
        // lane - offset, wrapping to a huge (invalid) index below 0.
        partner = arith::SubIOp::create(b, loc, lane, offset);
        break;
      case mlir::gpu::ShuffleMode::IDX:
        partner = offset;
        break;
    }
    Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, partner, width);
    Value source = arith::SelectOp::create(b, loc, valid, arith::AddIOp::create(b, loc, base, partner), reader);
    Value result = memref::LoadOp::create(b, loc, values, ValueRange{source});
    // Every op just built belongs to the next segment, in order.
    for (Operation* op = marker ? marker->getNextNode() : &block->front(); op != shuffle.getOperation();
         op = op->getNextNode()) {
      segment.push_back(op);
      divergent_.insert(op->getResults().begin(), op->getResults().end());
    }
    shuffle.getShuffleResult().replaceAllUsesWith(result);
    shuffle.getValid().replaceAllUsesWith(valid);
    shuffle.erase();
    return success();
  }

  // Where a wave-wide matrix instruction keeps its operands and results: `wave` lanes
  // each hold `operand_values` of A and of B and `result_values` of C and D. The
  // functions build index arithmetic at the builder's insertion point.
  struct WaveMatrixLayout {
    int64_t wave = 0;
    int64_t operand_values = 0;
    int64_t result_values = 0;
    int64_t k = 0;
    // The (row, column) of result value `v` of lane `lane`.
    std::function<std::pair<Value, Value>(OpBuilder&, Value lane, Value v)> result;
    // The lane and slot holding A(row, k) (or B(k, column)) for computing a result of
    // lane `lane`.
    std::function<std::pair<Value, Value>(OpBuilder&, Value lane, Value outer, Value k)> operand;
  };

  // A 32x32 MFMA (MfmaLayout.h) of one block with f32 or i32 results.
  FailureOr<WaveMatrixLayout> MfmaLayout(amdgpu::MFMAOp mfma) {
    auto a_vector = dyn_cast<VectorType>(mfma.getSourceA().getType());
    int64_t per_lane = a_vector ? a_vector.getNumElements() : 1;
    auto acc_type = dyn_cast<VectorType>(mfma.getDestC().getType());
    if (mfma.getM() != kMfmaTile || mfma.getN() != kMfmaTile || mfma.getBlocks() != 1 ||
        static_cast<int64_t>(mfma.getK()) != 2 * per_lane || !acc_type || acc_type.getNumElements() != kMfmaResultValues ||
        !(acc_type.getElementType().isF32() || acc_type.getElementType().isInteger(32)) || items_ % kMfmaWave != 0) {
      return mfma.emitError() << "the host twin emulates only 32x32 MFMAs of one block with f32 or i32 results";
    }
    Location loc = mfma.getLoc();
    auto result = [loc](OpBuilder& b, Value lane, Value v) { return BuildMfmaResultPosition(b, loc, lane, v); };
    // A(row, k) is in lane (k / kpl) * 32 + row, slot k % kpl; B(k, column) likewise.
    auto operand = [loc, per_lane](OpBuilder& b, Value, Value outer, Value k) -> std::pair<Value, Value> {
      auto c = [&](int64_t x) { return arith::ConstantIndexOp::create(b, loc, x).getResult(); };
      Value holder = arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, k, c(per_lane)), c(kMfmaTile));
      return {arith::AddIOp::create(b, loc, holder, outer), arith::RemUIOp::create(b, loc, k, c(per_lane))};
    };
    return WaveMatrixLayout{kMfmaWave, per_lane, kMfmaResultValues, static_cast<int64_t>(mfma.getK()), result, operand};
  }

  // A 16x16x16 WMMA of wave32 (WmmaLayout.h) with f32 or i32 results.
  FailureOr<WaveMatrixLayout> WmmaLayout(amdgpu::WMMAOp wmma) {
    auto a_vector = dyn_cast<VectorType>(wmma.getSourceA().getType());
    auto acc_type = dyn_cast<VectorType>(wmma.getDestC().getType());
    if (wmma.getM() != kWmmaTile || wmma.getN() != kWmmaTile || wmma.getK() != kWmmaTile || !a_vector ||
        a_vector.getNumElements() != kWmmaTile || !acc_type || acc_type.getNumElements() != kWmmaResultValues ||
        !(acc_type.getElementType().isF32() || acc_type.getElementType().isInteger(32)) || wmma.getClamp() ||
        items_ % kWmmaWave != 0) {
      return wmma.emitError() << "the host twin emulates only 16x16x16 WMMAs of wave32 with f32 or i32 results";
    }
    Location loc = wmma.getLoc();
    auto result = [loc](OpBuilder& b, Value lane, Value v) { return BuildWmmaResultPosition(b, loc, lane, v); };
    // A(row, k) is in slot k of lane row of the reading lane's half (the halves hold
    // the same values: reading its own half checks that the kernel filled both).
    auto operand = [loc](OpBuilder& b, Value lane, Value outer, Value k) -> std::pair<Value, Value> {
      auto c = [&](int64_t x) { return arith::ConstantIndexOp::create(b, loc, x).getResult(); };
      Value half = arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, lane, c(kWmmaHalf)), c(kWmmaHalf));
      return {arith::AddIOp::create(b, loc, half, outer), k};
    };
    return WaveMatrixLayout{kWmmaWave, kWmmaTile, kWmmaResultValues, kWmmaTile, result, operand};
  }

  // A matrix instruction (MFMA, WMMA) is a wave-wide operation: every lane stores its
  // operand fragments, then the workgroup computes each wave's product once, then every
  // lane reads its result fragment. The stores end the current segment; the reads start
  // the next. Narrow operands are extended exactly (arith.extf, arith.extsi or extui for
  // unsigned WMMA operands) and the products summed in the accumulator's type.
  template <typename Flush>
  LogicalResult EmulateWaveMatrix(Operation* op, Value source_a, Value source_b, Value dest_c,
                                  const WaveMatrixLayout& layout, bool unsigned_a, bool unsigned_b,
                                  SmallVector<Operation*>& segment, Flush&& flush) {
    auto acc_type = cast<VectorType>(dest_c.getType());
    Location loc = op->getLoc();
    Type acc = acc_type.getElementType();
    bool integer = isa<IntegerType>(acc);
    int64_t per_lane = layout.operand_values, values_per_lane = layout.result_values;
    Value a_lanes = AllocateForWorkItems(MemRefType::get({items_, per_lane}, getElementTypeOrSelf(source_a.getType())));
    Value b_lanes = AllocateForWorkItems(MemRefType::get({items_, per_lane}, getElementTypeOrSelf(source_b.getType())));
    Value c_lanes = AllocateForWorkItems(MemRefType::get({items_, values_per_lane}, acc));
    Value d_lanes = AllocateForWorkItems(MemRefType::get({items_, values_per_lane}, acc));
    OpBuilder b(op);
    auto store_fragment = [&](Value value, Value lanes, Value item) {
      Operation* store = isa<VectorType>(value.getType())
                             ? vector::StoreOp::create(b, loc, value, lanes, ValueRange{item, zero_}).getOperation()
                             : memref::StoreOp::create(b, loc, value, lanes, ValueRange{item, zero_}).getOperation();
      segment.push_back(store);
    };
    Value item = mlir::gpu::ThreadIdOp::create(b, loc, mlir::gpu::Dimension::x);
    segment.push_back(item.getDefiningOp());
    store_fragment(source_a, a_lanes, item);
    store_fragment(source_b, b_lanes, item);
    store_fragment(dest_c, c_lanes, item);
    flush(op);

    // For each wave w, lane l and value v: D[w, l, v] = C[w, l, v] + sum_k A(i, k) B(k, j).
    auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
    auto waves = scf::ForOp::create(b, loc, zero_, c(items_ / layout.wave), one_);
    b.setInsertionPointToStart(waves.getBody());
    Value first_lane = arith::MulIOp::create(b, loc, waves.getInductionVar(), c(layout.wave));
    auto lanes = scf::ForOp::create(b, loc, zero_, c(layout.wave), one_);
    b.setInsertionPointToStart(lanes.getBody());
    Value lane = lanes.getInductionVar();
    auto values = scf::ForOp::create(b, loc, zero_, c(values_per_lane), one_);
    b.setInsertionPointToStart(values.getBody());
    Value v = values.getInductionVar();
    auto [row, column] = layout.result(b, lane, v);
    Value own = arith::AddIOp::create(b, loc, first_lane, lane);
    Value init = memref::LoadOp::create(b, loc, c_lanes, ValueRange{own, v});
    auto depth = scf::ForOp::create(b, loc, zero_, c(layout.k), one_, ValueRange{init});
    b.setInsertionPointToStart(depth.getBody());
    Value k = depth.getInductionVar();
    auto operand = [&](Value lanes_buffer, Value outer, bool is_unsigned) -> Value {
      auto [holder, slot] = layout.operand(b, lane, outer, k);
      Value at = arith::AddIOp::create(b, loc, first_lane, holder);
      Value x = memref::LoadOp::create(b, loc, lanes_buffer, ValueRange{at, slot});
      if (x.getType() == acc) return x;
      if (!integer) return arith::ExtFOp::create(b, loc, acc, x);
      if (is_unsigned) return arith::ExtUIOp::create(b, loc, acc, x);
      return arith::ExtSIOp::create(b, loc, acc, x);
    };
    Value x = operand(a_lanes, row, unsigned_a), y = operand(b_lanes, column, unsigned_b);
    Value sum = depth.getRegionIterArg(0);
    Value next = integer ? arith::AddIOp::create(b, loc, sum, arith::MulIOp::create(b, loc, x, y)).getResult()
                         : arith::AddFOp::create(b, loc, sum, arith::MulFOp::create(b, loc, x, y)).getResult();
    scf::YieldOp::create(b, loc, next);
    b.setInsertionPointAfter(depth);
    memref::StoreOp::create(b, loc, depth.getResult(0), d_lanes, ValueRange{own, v});

    b.setInsertionPoint(op);
    Value reader = mlir::gpu::ThreadIdOp::create(b, loc, mlir::gpu::Dimension::x);
    auto result = vector::LoadOp::create(b, loc, acc_type, d_lanes, ValueRange{reader, zero_});
    segment.push_back(reader.getDefiningOp());
    segment.push_back(result);
    divergent_.insert(reader);
    divergent_.insert(result);
    op->getResult(0).replaceAllUsesWith(result.getResult());
    op->erase();
    return success();
  }

  // Splits `block` at its barriers into loops over the work-items.
  LogicalResult Split(Block& block) {
    SmallVector<Operation*> segment;
    auto flush = [&](Operation* before) {
      if (segment.empty()) return;
      OpBuilder at(before);
      auto loop = scf::ForOp::create(at, loc_, zero_, count_, one_);
      Operation* yield = loop.getBody()->getTerminator();
      for (Operation* op : segment) op->moveBefore(yield);
      loops_.push_back(loop);
      segment.clear();
    };
    SmallVector<Operation*> ops;
    for (Operation& op : block.without_terminator()) ops.push_back(&op);
    for (Operation* op : ops) {
      if (isa<mlir::gpu::BarrierOp>(op)) {
        flush(op);
        op->erase();
      } else if (auto mfma = dyn_cast<amdgpu::MFMAOp>(op)) {
        FailureOr<WaveMatrixLayout> layout = MfmaLayout(mfma);
        if (failed(layout) || failed(EmulateWaveMatrix(op, mfma.getSourceA(), mfma.getSourceB(), mfma.getDestC(),
                                                       *layout, false, false, segment, flush))) {
          return failure();
        }
      } else if (auto wmma = dyn_cast<amdgpu::WMMAOp>(op)) {
        FailureOr<WaveMatrixLayout> layout = WmmaLayout(wmma);
        if (failed(layout) || failed(EmulateWaveMatrix(op, wmma.getSourceA(), wmma.getSourceB(), wmma.getDestC(),
                                                       *layout, wmma.getUnsignedA(), wmma.getUnsignedB(), segment,
                                                       flush))) {
          return failure();
        }
      } else if (auto shuffle = dyn_cast<mlir::gpu::ShuffleOp>(op)) {
        if (failed(EmulateShuffle(shuffle, segment, flush))) return failure();
      } else if (ContainsBarrier(op)) {
        if (failed(CheckUniformControl(op))) return failure();
        flush(op);
        for (Region& region : op->getRegions()) {
          for (Block& inner : region) {
            if (failed(Split(inner))) return failure();
          }
        }
      } else if (!RunsOnce(op)) {
        segment.push_back(op);
      }
    }
    flush(block.getTerminator());
    return success();
  }

  // The loop of `loops_` that `op` is in, or null.
  scf::ForOp EnclosingLoop(Operation* op) {
    for (Operation* parent = op; parent; parent = parent->getParentOp()) {
      if (auto loop = dyn_cast<scf::ForOp>(parent); loop && llvm::is_contained(loops_, loop)) return loop;
    }
    return {};
  }

  // Makes `value`, defined in work-item loop `from`, available in work-item loop `to`.
  FailureOr<Value> Import(Value value, scf::ForOp from, scf::ForOp to) {
    auto& imported = imported_[to.getOperation()];
    if (Value known = imported.lookup(value)) return known;
    Operation* def = value.getDefiningOp();
    if (!def || def->getBlock() != from.getBody()) {
      return emitError(value.getLoc()) << "the host twin cannot carry this value across a barrier";
    }
    OpBuilder b(to.getBody(), to.getBody()->begin());
    if (auto it = import_points_.find(to.getOperation()); it != import_points_.end()) b.setInsertionPointAfter(it->second);
    Value result;
    if (def->getNumRegions() == 0 && isMemoryEffectFree(def)) {
      // Recomputed: cheaper than an array, and views keep their static types.
      IRMapping mapping;
      for (Value operand : def->getOperands()) {
        scf::ForOp source = operand.getDefiningOp() ? EnclosingLoop(operand.getDefiningOp()) : scf::ForOp();
        if (!source || source == to) continue;
        FailureOr<Value> inner = Import(operand, source, to);
        if (failed(inner)) return failure();
        mapping.map(operand, *inner);
      }
      if (auto it = import_points_.find(to.getOperation()); it != import_points_.end()) {
        b.setInsertionPointAfter(it->second);
      }
      Operation* copy = b.clone(*def, mapping);
      import_points_[to.getOperation()] = copy;
      result = copy->getResult(cast<OpResult>(value).getResultNumber());
    } else {
      Type type = value.getType();
      if (!type.isIntOrIndexOrFloat() && !isa<VectorType>(type)) {
        return def->emitError() << "the host twin cannot keep a value of type " << type << " across a barrier";
      }
      Value& spill = spills_[value];
      if (!spill) {
        spill = AllocateForWorkItems(MemRefType::get({items_}, type));
        OpBuilder after(def->getContext());
        after.setInsertionPointAfter(def);
        memref::StoreOp::create(after, def->getLoc(), value, spill, ValueRange{from.getInductionVar()});
      }
      auto load = memref::LoadOp::create(b, def->getLoc(), spill, ValueRange{to.getInductionVar()});
      import_points_[to.getOperation()] = load;
      result = load;
    }
    imported[value] = result;
    return result;
  }

  // Replaces every use in `loop` of another work-item loop's value by its import.
  LogicalResult ImportValues(scf::ForOp loop) {
    LogicalResult status = success();
    loop.getBody()->walk([&](Operation* op) {
      for (OpOperand& operand : op->getOpOperands()) {
        Operation* def = operand.get().getDefiningOp();
        scf::ForOp source = def ? EnclosingLoop(def) : scf::ForOp();
        if (!source || source == loop) continue;
        FailureOr<Value> imported = Import(operand.get(), source, loop);
        if (failed(imported)) {
          status = failure();
          return WalkResult::interrupt();
        }
        operand.set(*imported);
      }
      return WalkResult::advance();
    });
    return status;
  }

  func::FuncOp kernel_;
  int64_t items_;
  OpBuilder b_;
  Location loc_;
  Value zero_, one_, count_;
  OpBuilder::InsertPoint buffers_at_;
  llvm::DenseSet<Operation*> workgroup_level_;
  llvm::DenseSet<Value> divergent_;
  SmallVector<scf::ForOp> loops_;
  llvm::DenseMap<Operation*, llvm::DenseMap<Value, Value>> imported_;
  llvm::DenseMap<Operation*, Operation*> import_points_;
  llvm::DenseMap<Value, Value> spills_;
};

}  // namespace

LogicalResult RunWorkItemsInLoops(func::FuncOp kernel, int64_t items) {
  if (!kernel.getBody().hasOneBlock()) {
    return kernel.emitError() << "the host twin splits only kernels of one block at barriers";
  }
  return WorkItemLoopBuilder(kernel, items).Run();
}

}  // namespace kiln::compiler::gpu
