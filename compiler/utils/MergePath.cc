// Merge-path binary search (MergePath.h).
#include "compiler/utils/MergePath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln::compiler {

using namespace mlir;

Value MergePathSplit(OpBuilder& b, Location loc, Value a_start, Value a_len, Value b_start, Value b_len, Value k,
                     RunLess b_before_a) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0), one = arith::ConstantIndexOp::create(b, loc, 1);
  Value more_than_b = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, k, b_len);
  Value lo = arith::SelectOp::create(b, loc, more_than_b, arith::SubIOp::create(b, loc, k, b_len), zero);
  Value hi = arith::MinUIOp::create(b, loc, k, a_len);
  Type index = b.getIndexType();
  auto search = scf::WhileOp::create(b, loc, TypeRange{index, index}, ValueRange{lo, hi});
  OpBuilder::InsertionGuard guard(b);
  Block* before = b.createBlock(&search.getBefore(), {}, {index, index}, {loc, loc});
  Value searching = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, before->getArgument(0),
                                          before->getArgument(1));
  scf::ConditionOp::create(b, loc, searching, before->getArguments());
  Block* after = b.createBlock(&search.getAfter(), {}, {index, index}, {loc, loc});
  Value l = after->getArgument(0), h = after->getArgument(1);
  Value mid = arith::ShRUIOp::create(b, loc, arith::AddIOp::create(b, loc, l, h), one);
  // B[k - 1 - mid] before A[mid]: A gives fewer than mid + 1, else more than mid.
  Value b_at = arith::AddIOp::create(b, loc, b_start,
                                     arith::SubIOp::create(b, loc, arith::SubIOp::create(b, loc, k, one), mid));
  Value b_first = b_before_a(b, loc, b_at, arith::AddIOp::create(b, loc, a_start, mid));
  Value next_lo = arith::SelectOp::create(b, loc, b_first, l, arith::AddIOp::create(b, loc, mid, one));
  Value next_hi = arith::SelectOp::create(b, loc, b_first, mid, h);
  scf::YieldOp::create(b, loc, ValueRange{next_lo, next_hi});
  return search.getResult(0);
}

}  // namespace kiln::compiler
