// The ABI entry points of CPU executables (hal/abi/executable_abi.h, version 2).
#include <cstddef>

#include "compiler/codegen/cpu/IndexCheckRecord.h"
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/dialect/KilnDialect.h"
#include "compiler/utils/EntryArguments.h"
#include "hal/abi/executable_abi.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_WRAPENTRYPOINTS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// Byte offsets of the v2 state fields the wrapper reads.
constexpr int64_t kWorkgroupCountOffset = offsetof(kiln_dispatch_state_v2_t, workgroup_count);
constexpr int64_t kConstantsOffset = offsetof(kiln_dispatch_state_v2_t, constants);
constexpr int64_t kBindingPtrsOffset = offsetof(kiln_dispatch_state_v2_t, binding_ptrs);
constexpr int64_t kWorkgroupIdOffset = offsetof(kiln_workgroup_state_v2_t, workgroup_id);
constexpr int64_t kIndexCheckOffset = offsetof(kiln_workgroup_state_v2_t, index_check);
static_assert(sizeof(kiln_index_check_record_v2_t) == 3 * sizeof(int64_t) &&
                  offsetof(kiln_index_check_record_v2_t, site) == 0,
              "the record is passed to kernels as a memref<3xi64> whose element 0 is the site");

class EntryBuilder {
 public:
  EntryBuilder(OpBuilder& b, Location loc, Value dispatch, Value workgroup)
      : b_(b), loc_(loc), dispatch_(dispatch), workgroup_(workgroup) {}

  // The `index`-th element of type `type` of the array at byte `offset` of `base`, or of
  // the array `base` points to at that offset when `indirect`.
  Value LoadElement(Value base, int64_t offset, bool indirect, Type type, int64_t index) {
    Value field = Gep(base, offset);
    if (indirect) field = LLVM::LoadOp::create(b_, loc_, Ptr(), field);
    int64_t bytes = type == Ptr() ? 8 : type.getIntOrFloatBitWidth() / 8;
    return LLVM::LoadOp::create(b_, loc_, type, Gep(field, index * bytes));
  }
  Value Word(int64_t index) { return LoadElement(dispatch_, kConstantsOffset, true, b_.getI32Type(), index); }
  Value BindingPointer(int64_t index) { return LoadElement(dispatch_, kBindingPtrsOffset, true, Ptr(), index); }
  Value WorkgroupId() { return Index(LoadElement(workgroup_, kWorkgroupIdOffset, false, b_.getI32Type(), 0)); }
  Value WorkgroupCount() {
    return Index(LoadElement(dispatch_, kWorkgroupCountOffset, false, b_.getI32Type(), 0));
  }
  Value IndexCheckRecord() { return LoadElement(workgroup_, kIndexCheckOffset, false, Ptr(), 0); }
  // KILN_DISPATCH_INDEX_OUT_OF_RANGE when the record at `record` names a site, else 0.
  Value IndexCheckResult(Value record) {
    Value site = LLVM::LoadOp::create(b_, loc_, b_.getI64Type(), record);
    Value filled = LLVM::ICmpOp::create(b_, loc_, LLVM::ICmpPredicate::ne, site,
                                         LLVM::ConstantOp::create(b_, loc_, b_.getI64Type(), b_.getI64IntegerAttr(0)));
    Value code = LLVM::ConstantOp::create(b_, loc_, b_.getI32Type(), KILN_DISPATCH_INDEX_OUT_OF_RANGE);
    Value ok = LLVM::ConstantOp::create(b_, loc_, b_.getI32Type(), 0);
    return LLVM::SelectOp::create(b_, loc_, filled, code, ok);
  }

 private:
  Type Ptr() { return LLVM::LLVMPointerType::get(b_.getContext()); }
  Value Gep(Value base, int64_t bytes) {
    if (bytes == 0) return base;
    return LLVM::GEPOp::create(b_, loc_, Ptr(), b_.getI8Type(), base, ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(bytes)});
  }
  Value Index(Value i32) { return arith::IndexCastUIOp::create(b_, loc_, b_.getIndexType(), i32); }

  OpBuilder& b_;
  Location loc_;
  Value dispatch_, workgroup_;
};

// Records the distinct sites of `fn`'s index checks in kIndexCheckSitesAttr and appends the
// record argument; returns the record's type, or null when `fn` has no checks.
FailureOr<MemRefType> AddIndexCheckRecord(func::FuncOp fn) {
  if (!CollectIndexCheckSites(fn)) return MemRefType();
  Builder b(fn.getContext());
  auto record_type = MemRefType::get({3}, b.getI64Type());
  unsigned position = fn.getNumArguments();
  if (failed(fn.insertArgument(position, record_type, b.getDictionaryAttr(b.getNamedAttr(kIndexCheckRecordAttr,
                                                                                          b.getUnitAttr())),
                               fn.getLoc()))) {
    return fn.emitError() << "cannot add the index check record argument", failure();
  }
  return record_type;
}

LogicalResult WrapFunction(func::FuncOp fn) {
  auto binding_dims = fn->getAttrOfType<ArrayAttr>(kBindingDimsAttr);
  if (!binding_dims) return success();  // not an executable function
  size_t binding_count = binding_dims.size();
  FailureOr<DispatchArguments> signature = ReadDispatchArguments(fn, binding_dims);
  if (failed(signature)) return failure();
  int64_t words = signature->words;

  MLIRContext* ctx = fn.getContext();
  Location loc = fn.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  OpBuilder b(fn);
  b.setInsertionPointAfter(fn);
  auto entry = func::FuncOp::create(b, loc, (fn.getName() + "_entry").str(),
                                    FunctionType::get(ctx, {ptr, ptr}, {b.getI32Type()}));
  entry->setAttr("kiln.entry_for", FlatSymbolRefAttr::get(fn.getSymNameAttr()));
  entry->setAttr("kiln.push_constant_words", b.getI64IntegerAttr(words));
  Block* body = entry.addEntryBlock();
  b.setInsertionPointToStart(body);
  EntryBuilder eb(b, loc, body->getArgument(0), body->getArgument(1));
  FailureOr<SmallVector<Value>> operands = BuildDispatchOperands(
      b, loc, fn, *signature, [&](size_t i) { return eb.BindingPointer(i); }, [&](int64_t w) { return eb.Word(w); });
  if (failed(operands)) return failure();
  SmallVector<Value> args = std::move(*operands);
  args.push_back(eb.WorkgroupId());
  args.push_back(eb.WorkgroupCount());
  Value record;
  FailureOr<MemRefType> record_type = AddIndexCheckRecord(fn);
  if (failed(record_type)) return failure();
  if (*record_type) {
    record = eb.IndexCheckRecord();
    args.push_back(BuildMemrefOverPointer(b, loc, *record_type, record, [](int64_t) -> Value { return {}; }));
  }
  func::CallOp::create(b, loc, fn, args);
  // Bindings never alias a binding that is written: outputs are fresh allocations. Telling
  // LLVM so lets it vectorise loops without runtime overlap checks.
  for (size_t i = 0; i < binding_count; ++i) fn.setArgAttr(i, "llvm.noalias", b.getUnitAttr());
  Value result = record ? eb.IndexCheckResult(record) : arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  func::ReturnOp::create(b, loc, ValueRange{result});
  fn.setPrivate();
  return success();
}

struct WrapEntryPointsPass : impl::WrapEntryPointsBase<WrapEntryPointsPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> functions(getOperation().getOps<func::FuncOp>());
    for (func::FuncOp fn : functions) {
      KeepDistributionSafe(fn);
      if (failed(WrapFunction(fn))) return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
