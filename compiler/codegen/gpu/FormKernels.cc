// GPU kernels around the dispatch functions (Passes.td, FormKernels).
#include "compiler/codegen/cpu/IndexCheckRecord.h"
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WorkerBound.h"
#include "compiler/codegen/gpu/WorkgroupContraction.h"
#include "compiler/dialect/KilnDialect.h"
#include "compiler/utils/EntryArguments.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_FORMKERNELS
#include "compiler/codegen/gpu/Passes.h.inc"

namespace {

using namespace mlir;

// Gives `body` the record argument and lowers its index checks to atomic claims of it (the
// work-items of a workgroup share its record); returns the record's type, or null when
// `body` has no checks.
FailureOr<MemRefType> LowerBodyIndexChecks(func::FuncOp body) {
  ArrayAttr sites = cpu::CollectIndexCheckSites(body);
  if (!sites) return MemRefType();
  Builder b(body.getContext());
  auto record_type = MemRefType::get({3}, b.getI64Type());
  unsigned position = body.getNumArguments();
  if (failed(body.insertArgument(position, record_type,
                                 b.getDictionaryAttr(b.getNamedAttr(kIndexCheckRecordAttr, b.getUnitAttr())),
                                 body.getLoc()))) {
    return body.emitError() << "cannot add the index check record argument", failure();
  }
  if (failed(cpu::LowerIndexChecks(body, sites, body.getArgument(position), cpu::IndexCheckClaim::kAtomic))) {
    return failure();
  }
  return record_type;
}

// The record of the calling work-item's workgroup: element x + count_x * (y + count_y * z)
// of the records array `records` (gpu_kernel_abi.h, section 3).
Value WorkgroupRecord(OpBuilder& b, Location loc, MemRefType type, Value records, Value x, Value count_x,
                      Value count_y) {
  Value y = mlir::gpu::BlockIdOp::create(b, loc, mlir::gpu::Dimension::y);
  Value z = mlir::gpu::BlockIdOp::create(b, loc, mlir::gpu::Dimension::z);
  Value nx = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), count_x);
  Value ny = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), count_y);
  Value plane = arith::AddIOp::create(b, loc, y, arith::MulIOp::create(b, loc, ny, z));
  Value linear = arith::AddIOp::create(b, loc, x, arith::MulIOp::create(b, loc, nx, plane));
  Value element = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      arith::MulIOp::create(b, loc, linear, arith::ConstantIndexOp::create(b, loc, type.getNumElements())));
  Value pointer = LLVM::GEPOp::create(b, loc, records.getType(), b.getI64Type(), records, ArrayRef<LLVM::GEPArg>{element});
  return BuildMemrefOverPointer(b, loc, type, pointer, [](int64_t) { return Value(); });
}

LogicalResult FormKernel(func::FuncOp body, int64_t workgroup_size) {
  auto binding_dims = body->getAttrOfType<ArrayAttr>(kBindingDimsAttr);
  if (!binding_dims) return success();  // not a dispatch function
  cpu::KeepDistributionSafe(body);
  size_t binding_count = binding_dims.size();
  FailureOr<DispatchArguments> signature = ReadDispatchArguments(body, binding_dims);
  if (failed(signature)) return failure();
  int64_t words = signature->words;

  MLIRContext* ctx = body.getContext();
  Location loc = body.getLoc();
  OpBuilder b(body);
  b.setInsertionPointAfter(body);
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = b.getI32Type();
  SmallVector<Type> kernel_inputs(binding_count, ptr);
  kernel_inputs.append(words + 3, i32);
  FailureOr<MemRefType> record_type = LowerBodyIndexChecks(body);
  if (failed(record_type)) return failure();
  if (*record_type) kernel_inputs.push_back(ptr);  // the index check records
  std::string name = body.getName().str();
  body.setSymName(name + "_body");
  auto kernel = func::FuncOp::create(b, loc, name, FunctionType::get(ctx, kernel_inputs, {}));
  kernel->setAttr(kKernelAttr, b.getUnitAttr());
  // A workgroup-cooperative body (WorkgroupContraction.h) brings its own workgroup size.
  bool workgroup_workers = body->hasAttr(kWorkgroupWorkersAttr);
  if (auto size = body->getAttrOfType<DenseI32ArrayAttr>(kWorkgroupSizeAttr); workgroup_workers && size) {
    workgroup_size = size[0];
  }
  kernel->setAttr(kWorkgroupSizeAttr, b.getDenseI32ArrayAttr({static_cast<int32_t>(workgroup_size), 1, 1}));
  if (body->hasAttr(kDistributedAttr)) {
    // Workers are workgroups of a cooperative body, work-items otherwise.
    if (std::optional<WorkgroupBound> bound = FindWorkerBound(body, binding_count, signature->word_of_constant)) {
      int64_t workers_per_workgroup = workgroup_workers ? 1 : workgroup_size;
      kernel->setAttr(kWorkgroupBoundAttr,
                      b.getDenseI64ArrayAttr({bound->extent, bound->word, bound->divisor * workers_per_workgroup}));
    }
  }
  kernel->setAttr(kKernelBodyAttr, FlatSymbolRefAttr::get(body.getSymNameAttr()));
  Block* entry = kernel.addEntryBlock();
  b.setInsertionPointToStart(entry);
  auto word = [&](int64_t w) { return entry->getArgument(binding_count + w); };

  FailureOr<SmallVector<Value>> operands = BuildDispatchOperands(
      b, loc, body, *signature, [&](size_t i) { return entry->getArgument(i); }, word);
  if (failed(operands)) return failure();
  SmallVector<Value> args = std::move(*operands);
  Value thread = mlir::gpu::ThreadIdOp::create(b, loc, mlir::gpu::Dimension::x);
  Value block = mlir::gpu::BlockIdOp::create(b, loc, mlir::gpu::Dimension::x);
  // The body's trailing arguments: worker id and count, then the record.
  auto add_record = [&] {
    if (!*record_type) return;
    args.push_back(WorkgroupRecord(b, loc, *record_type, entry->getArgument(binding_count + words + 3), block,
                                   word(words), word(words + 1)));
  };
  Value size = arith::ConstantIndexOp::create(b, loc, workgroup_size);
  if (body->hasAttr(kDistributedAttr) && workgroup_workers) {
    // Every work-item of workgroup `block` is that workgroup's worker. The body is inlined:
    // its workgroup memory and barriers must belong to the kernel itself (LDS is allocated
    // per kernel, and the host twin splits the kernel's work-item loop at its barriers).
    args.push_back(block);
    args.push_back(arith::IndexCastUIOp::create(b, loc, b.getIndexType(), word(words)));
    add_record();
    if (!body.getBody().hasOneBlock()) return body.emitError() << "a workgroup-cooperative body has one block";
    SmallVector<WorkgroupBarrierOp> barriers;
    body.walk([&](WorkgroupBarrierOp barrier) { barriers.push_back(barrier); });
    for (WorkgroupBarrierOp barrier : barriers) {
      OpBuilder at(barrier);
      mlir::gpu::BarrierOp::create(at, barrier.getLoc());
      barrier.erase();
    }
    // Workgroup memory lives as long as the kernel: deallocations bufferization added for
    // allocations built on tensors go.
    SmallVector<memref::DeallocOp> deallocs;
    body.walk([&](memref::DeallocOp dealloc) {
      if (isa_and_nonnull<mlir::gpu::AddressSpaceAttr>(dealloc.getMemref().getType().getMemorySpace())) {
        deallocs.push_back(dealloc);
      }
    });
    for (memref::DeallocOp dealloc : deallocs) dealloc.erase();
    IRMapping mapping;
    mapping.map(body.getArguments(), args);
    for (Operation& op : body.getBody().front().without_terminator()) b.clone(op, mapping);
    func::ReturnOp::create(b, loc);
    for (StringRef attr : {kSourceLocationAttr.data(), kDistributedAttr.data(), kIndexCheckSitesAttr.data()}) {
      if (Attribute value = body->getAttr(attr)) kernel->setAttr(attr, value);
    }
    kernel->removeAttr(kKernelBodyAttr);
    body.erase();
    return success();
  }
  if (body->hasAttr(kDistributedAttr)) {
    Value count_x = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), word(words));
    args.push_back(arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, block, size), thread));
    args.push_back(arith::MulIOp::create(b, loc, count_x, size));
    add_record();
    func::CallOp::create(b, loc, body, args);
  } else {
    // One worker: work-item 0 of workgroup 0 (the host launches one workgroup).
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value first = arith::AndIOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, zero),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, block, zero));
    auto only_first = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    b.setInsertionPointToStart(only_first.thenBlock());
    args.push_back(zero);
    args.push_back(arith::ConstantIndexOp::create(b, loc, 1));
    add_record();
    func::CallOp::create(b, loc, body, args);
    b.setInsertionPointAfter(only_first);
  }
  func::ReturnOp::create(b, loc);
  // Bindings never alias a binding that is written (outputs are fresh allocations).
  for (size_t i = 0; i < binding_count; ++i) body.setArgAttr(i, "llvm.noalias", b.getUnitAttr());
  body.setPrivate();
  return success();
}

struct FormKernelsPass : impl::FormKernelsBase<FormKernelsPass> {
  using FormKernelsBase::FormKernelsBase;
  void runOnOperation() override {
    SmallVector<func::FuncOp> functions(getOperation().getOps<func::FuncOp>());
    for (func::FuncOp fn : functions) {
      if (failed(FormKernel(fn, workgroupSize))) return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
