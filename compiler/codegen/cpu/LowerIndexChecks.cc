// kiln.index_check ops as compares and stores into the workgroup's index check record
// (hal/abi/executable_abi.h, kiln_index_check_record_v2_t).
#include "compiler/codegen/cpu/IndexCheckRecord.h"
#include "compiler/codegen/cpu/Passes.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_LOWERINDEXCHECKS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// The argument kiln-cpu-wrap-entry-points added for the record, or null.
Value FindRecord(func::FuncOp fn) {
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    if (fn.getArgAttr(i, kIndexCheckRecordAttr)) return fn.getArgument(i);
  }
  return nullptr;
}

LogicalResult LowerChecks(func::FuncOp fn) {
  IndexCheckOp first;
  fn.walk([&](IndexCheckOp check) {
    first = check;
    return WalkResult::interrupt();
  });
  if (!first) return success();
  Value record = FindRecord(fn);
  auto sites = fn->getAttrOfType<ArrayAttr>(kIndexCheckSitesAttr);
  if (!record || !sites) {
    return first.emitOpError() << "is in a function without an index check record; "
                                           "kiln-cpu-wrap-entry-points adds it to executable functions";
  }
  return LowerIndexChecks(fn, sites, record, IndexCheckClaim::kSequential);
}

struct LowerIndexChecksPass : impl::LowerIndexChecksBase<LowerIndexChecksPass> {
  void runOnOperation() override {
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
      if (failed(LowerChecks(fn))) return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
