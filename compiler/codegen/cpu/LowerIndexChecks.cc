// kiln.index_check ops as compares and stores into the workgroup's index check record
// (hal/abi/executable_abi.h, kiln_index_check_record_v2_t).
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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

// if ((index < 0 || index >= bound) && enabled) { if (record[0] == 0) record = {site, index, bound}; }
void LowerCheck(IndexCheckOp check, Value record, int64_t site) {
  OpBuilder b(check);
  Location loc = check.getLoc();
  Value index = check.getIndex(), bound = check.getBound();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  Value above = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, bound);
  Value outside = arith::OrIOp::create(b, loc, below, above);
  if (Value enabled = check.getEnabled()) outside = arith::AndIOp::create(b, loc, outside, enabled);
  auto if_outside = scf::IfOp::create(b, loc, outside, /*withElseRegion=*/false);
  OpBuilder ob = if_outside.getThenBodyBuilder();
  Type i64 = ob.getI64Type();
  auto at = [&](int64_t i) { return arith::ConstantIndexOp::create(ob, loc, i); };
  Value recorded = memref::LoadOp::create(ob, loc, record, ValueRange{at(0)});
  Value unset = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::eq, recorded,
                                      arith::ConstantIntOp::create(ob, loc, i64, 0));
  auto if_unset = scf::IfOp::create(ob, loc, unset, /*withElseRegion=*/false);
  OpBuilder ub = if_unset.getThenBodyBuilder();
  auto store = [&](Value value, int64_t i) {
    if (value.getType().isIndex()) value = arith::IndexCastOp::create(ub, loc, i64, value);
    memref::StoreOp::create(ub, loc, value, record, ValueRange{arith::ConstantIndexOp::create(ub, loc, i)});
  };
  store(arith::ConstantIntOp::create(ub, loc, i64, site), 0);
  store(index, 1);
  store(bound, 2);
  check.erase();
}

LogicalResult LowerChecks(func::FuncOp fn) {
  SmallVector<IndexCheckOp> checks;
  fn.walk([&](IndexCheckOp check) { checks.push_back(check); });
  if (checks.empty()) return success();
  Value record = FindRecord(fn);
  auto sites = fn->getAttrOfType<ArrayAttr>(kIndexCheckSitesAttr);
  if (!record || !sites) {
    return checks.front().emitOpError() << "is in a function without an index check record; "
                                           "kiln-cpu-wrap-entry-points adds it to executable functions";
  }
  for (IndexCheckOp check : checks) {
    auto found = llvm::find(sites, check.getSiteAttr());
    if (found == sites.end()) {
      return check.emitOpError() << "has a site missing from the function's " << kIndexCheckSitesAttr;
    }
    LowerCheck(check, record, 1 + (found - sites.begin()));
  }
  return success();
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
