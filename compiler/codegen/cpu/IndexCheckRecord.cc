#include "compiler/codegen/cpu/IndexCheckRecord.h"

#include "llvm/ADT/SetVector.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln::compiler::cpu {

using namespace mlir;

namespace {

// Claims the record for `site` and returns a builder inside the branch taken only when
// this check did: a plain load and store of the site word where one thread owns the record,
// a compare-and-swap from 0 where work-items race for it.
OpBuilder ClaimRecord(OpBuilder& b, Location loc, Value record, Value site, IndexCheckClaim claim) {
  Value first = arith::ConstantIndexOp::create(b, loc, 0);
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
  if (claim == IndexCheckClaim::kAtomic) {
    // The update is in the LLVM dialect: memref's lowering of the cmpxchg loop (a pass of its
    // own on the host) moves the body into the loop as it is and converts nothing in it.
    auto swap = memref::GenericAtomicRMWOp::create(b, loc, record, ValueRange{first});
    OpBuilder body = OpBuilder::atBlockEnd(swap.getBody());
    Value current = swap.getCurrentValue();
    Value unset = LLVM::ICmpOp::create(body, loc, LLVM::ICmpPredicate::eq, current, zero);
    memref::AtomicYieldOp::create(body, loc, LLVM::SelectOp::create(body, loc, unset, site, current).getResult());
    Value claimed = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, swap.getResult(), zero);
    return scf::IfOp::create(b, loc, claimed, /*withElseRegion=*/false).getThenBodyBuilder();
  }
  Value recorded = memref::LoadOp::create(b, loc, record, ValueRange{first});
  Value unset = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, recorded, zero);
  OpBuilder claimed = scf::IfOp::create(b, loc, unset, /*withElseRegion=*/false).getThenBodyBuilder();
  memref::StoreOp::create(claimed, loc, site, record, ValueRange{arith::ConstantIndexOp::create(claimed, loc, 0)});
  return claimed;
}

// if ((index < 0 || index >= bound) && enabled && claimed) record[1:3] = {index, bound}
void LowerCheck(IndexCheckOp check, Value record, int64_t site, IndexCheckClaim claim) {
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
  OpBuilder cb = ClaimRecord(ob, loc, record, arith::ConstantIntOp::create(ob, loc, i64, site), claim);
  auto store = [&](Value value, int64_t i) {
    if (value.getType().isIndex()) value = arith::IndexCastOp::create(cb, loc, i64, value);
    memref::StoreOp::create(cb, loc, value, record, ValueRange{arith::ConstantIndexOp::create(cb, loc, i)});
  };
  store(index, 1);
  store(bound, 2);
  check.erase();
}

}  // namespace

ArrayAttr CollectIndexCheckSites(func::FuncOp fn) {
  llvm::SetVector<Attribute> sites;
  fn.walk([&](IndexCheckOp check) { sites.insert(check.getSiteAttr()); });
  if (sites.empty()) return {};
  auto attr = ArrayAttr::get(fn.getContext(), sites.getArrayRef());
  fn->setAttr(kIndexCheckSitesAttr, attr);
  return attr;
}

LogicalResult LowerIndexChecks(Operation* root, ArrayAttr sites, Value record, IndexCheckClaim claim) {
  SmallVector<IndexCheckOp> checks;
  root->walk([&](IndexCheckOp check) { checks.push_back(check); });
  for (IndexCheckOp check : checks) {
    auto found = llvm::find(sites, check.getSiteAttr());
    if (found == sites.end()) {
      return check.emitOpError() << "has a site missing from the function's " << kIndexCheckSitesAttr;
    }
    LowerCheck(check, record, 1 + (found - sites.begin()), claim);
  }
  return success();
}

}  // namespace kiln::compiler::cpu
