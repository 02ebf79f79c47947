// Loads from input bindings that do not change across a loop move out of it.
#include "compiler/codegen/cpu/Passes.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_HOISTINPUTLOADS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// Whether `loop` runs at least once: hoisting a load out of a loop that may not run would
// execute it where the program did not (possibly out of bounds).
bool RunsAtLeastOnce(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  return trips && !trips->isZero();
}

struct HoistInputLoadsPass : impl::HoistInputLoadsBase<HoistInputLoadsPass> {
  void runOnOperation() override {
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
      auto input_count = fn->getAttrOfType<IntegerAttr>(kInputCountAttr);
      if (!input_count || fn.isDeclaration()) continue;
      llvm::SmallPtrSet<Value, 8> inputs;
      for (int64_t i = 0; i < input_count.getInt(); ++i) inputs.insert(fn.getArgument(i));
      // Innermost loops first, so that a load can climb several levels.
      fn.walk([&](scf::ForOp loop) {
        if (!RunsAtLeastOnce(loop)) return;
        SmallVector<memref::LoadOp> loads;
        for (auto load : loop.getBody()->getOps<memref::LoadOp>()) loads.push_back(load);
        for (memref::LoadOp load : loads) {
          if (!inputs.contains(memref::skipViewLikeOps(cast<MemrefValue>(load.getMemRef())))) continue;
          bool invariant = llvm::all_of(load->getOperands(), [&](Value v) { return loop.isDefinedOutsideOfLoop(v); });
          if (invariant) load->moveBefore(loop);
        }
      });
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
