// Host twin entry points for the GPU kernels (Passes.td, LowerHostTwin).
#include <cstddef>

#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WorkItemLoops.h"
#include "compiler/utils/EntryArguments.h"
#include "hal/abi/gpu_kernel_abi.h"
#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AttrTypeSubElements.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_LOWERHOSTTWIN
#include "compiler/codegen/gpu/Passes.h.inc"

namespace {

using namespace mlir;

constexpr int64_t kWorkgroupIdOffset = offsetof(kiln_gpu_twin_workgroup_v1_t, workgroup_id);
constexpr int64_t kWorkgroupSizeOffset = offsetof(kiln_gpu_twin_workgroup_v1_t, workgroup_size);
constexpr int64_t kGroupSegmentOffset = offsetof(kiln_gpu_twin_workgroup_v1_t, group_segment);
constexpr int64_t kGroupSegmentSizeOffset = offsetof(kiln_gpu_twin_workgroup_v1_t, group_segment_size);
// What a cooperative kernel's twin returns when the simulator's workgroup is not the one it
// was compiled for (a trap on hip-sim, naming the workgroup).
constexpr int64_t kWrongWorkgroupSizeTrap = 2;
constexpr int64_t kGroupSegmentTooSmallTrap = 3;
// On a cooperative twin kernel: the LDS bytes it lays out in the group segment.
constexpr llvm::StringLiteral kTwinGroupBytesAttr = "kiln.gpu.twin_group_bytes";

// Loads a `type` at byte `offset` of `base`.
Value LoadAt(OpBuilder& b, Location loc, Value base, int64_t offset, Type type) {
  Type ptr = base.getType();
  Value field = offset == 0 ? base
                            : LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), base,
                                                  ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)})
                                  .getResult();
  return LLVM::LoadOp::create(b, loc, type, field);
}

// Whether `kernel`'s work-items cooperate (barriers, workgroup memory), so that the twin
// must run them in loops split at the barriers rather than one whole work-item at a time.
bool IsCooperative(func::FuncOp kernel) {
  return kernel
      .walk([](Operation* op) {
        if (IsWorkItemSynchronisation(op)) return WalkResult::interrupt();
        if (auto alloc = dyn_cast<memref::AllocOp>(op); alloc && alloc.getType().getMemorySpace()) {
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      })
      .wasInterrupted();
}

// Refuses GPU operations the twin cannot emulate: anything but ids and (in a cooperative
// kernel) barriers.
LogicalResult CheckEmulated(func::FuncOp kernel, bool cooperative) {
  Operation* unsupported = nullptr;
  kernel.walk([&](Operation* op) {
    bool emulated = isa<mlir::gpu::ThreadIdOp, mlir::gpu::BlockIdOp>(op) ||
                    (cooperative && IsWorkItemSynchronisation(op));
    if (isa<mlir::gpu::GPUDialect, amdgpu::AMDGPUDialect>(op->getDialect()) && !emulated) unsupported = op;
  });
  if (unsupported) {
    return unsupported->emitError() << "the host twin cannot emulate '" << unsupported->getName()
                                    << "' yet: it emulates work-item and workgroup ids, barriers, shuffles, "
                                       "32x32 MFMAs and 16x16x16 WMMAs";
  }
  return success();
}

// Replaces the workgroup ids of `kernel` by arguments first, first + 1, first + 2 (x, y, z).
void TakeWorkgroupIds(func::FuncOp kernel, unsigned first) {
  SmallVector<mlir::gpu::BlockIdOp> ids;
  kernel.walk([&](mlir::gpu::BlockIdOp op) { ids.push_back(op); });
  for (mlir::gpu::BlockIdOp op : ids) {
    op.replaceAllUsesWith(kernel.getArgument(first + static_cast<unsigned>(op.getDimension())));
    op.erase();
  }
}

// Replaces the work-item and workgroup ids of `kernel` by new trailing arguments
// (thread x, block x, y, z), the only ids FormKernels' kernels use besides constants.
LogicalResult TakeIdsAsArguments(func::FuncOp kernel) {
  if (failed(CheckEmulated(kernel, /*cooperative=*/false))) return failure();
  Builder b(kernel.getContext());
  unsigned first = kernel.getNumArguments();
  for (int i = 0; i < 4; ++i) {
    if (failed(kernel.insertArgument(first + i, b.getIndexType(), nullptr, kernel.getLoc()))) {
      return kernel.emitError() << "cannot add the work-item id arguments of the host twin";
    }
  }
  TakeWorkgroupIds(kernel, first + 1);
  SmallVector<mlir::gpu::ThreadIdOp> ids;
  kernel.walk([&](mlir::gpu::ThreadIdOp op) { ids.push_back(op); });
  for (mlir::gpu::ThreadIdOp op : ids) {
    OpBuilder ob(op);
    Value replacement = op.getDimension() == mlir::gpu::Dimension::x
                            ? kernel.getArgument(first)
                            : arith::ConstantIndexOp::create(ob, op.getLoc(), 0).getResult();
    op.replaceAllUsesWith(replacement);
    op.erase();
  }
  return success();
}

// A cooperative kernel takes its workgroup ids and the group segment (block x, y, z, LDS
// pointer) as trailing arguments and runs all its work-items (WorkItemLoops.h). Its
// workgroup-memory allocations become consecutive slices of the group segment.
LogicalResult LowerCooperativeKernel(func::FuncOp kernel) {
  if (failed(CheckEmulated(kernel, /*cooperative=*/true))) return failure();
  auto size = kernel->getAttrOfType<DenseI32ArrayAttr>(kWorkgroupSizeAttr);
  if (!size || size.size() != 3 || size[1] != 1 || size[2] != 1) {
    return kernel.emitError() << "the host twin runs cooperative kernels with an x-only workgroup size";
  }
  MLIRContext* ctx = kernel.getContext();
  OpBuilder b(ctx);
  unsigned first = kernel.getNumArguments();
  for (int i = 0; i < 4; ++i) {
    Type type = i < 3 ? Type(b.getIndexType()) : Type(LLVM::LLVMPointerType::get(ctx));
    if (failed(kernel.insertArgument(first + i, type, nullptr, kernel.getLoc()))) {
      return kernel.emitError() << "cannot add the workgroup arguments of the host twin";
    }
  }
  TakeWorkgroupIds(kernel, first);
  Value group_segment = kernel.getArgument(first + 3);

  SmallVector<memref::AllocOp> lds;
  kernel.walk([&](memref::AllocOp alloc) {
    if (alloc.getType().getMemorySpace()) lds.push_back(alloc);
  });
  // On the host every buffer is in the one address space.
  AttrTypeReplacer host_memory;
  host_memory.addReplacement([](MemRefType type) -> std::optional<Type> {
    if (!isa_and_nonnull<mlir::gpu::AddressSpaceAttr>(type.getMemorySpace())) return std::nullopt;
    return MemRefType::get(type.getShape(), type.getElementType(), type.getLayout());
  });
  host_memory.recursivelyReplaceElementsIn(kernel, /*replaceAttrs=*/true, /*replaceLocs=*/false, /*replaceTypes=*/true);
  // Laid out by decreasing element size, each at its natural alignment: no padding, so the
  // twin never needs more LDS than the code object declares (LLVM's layout holds the same
  // buffers, at least as large in all).
  auto element_bytes = [](memref::AllocOp alloc) {
    return std::max<int64_t>(alloc.getType().getElementTypeBitWidth() / 8, 1);
  };
  llvm::stable_sort(lds, [&](memref::AllocOp a, memref::AllocOp b) { return element_bytes(a) > element_bytes(b); });
  int64_t group_bytes = 0;
  for (memref::AllocOp alloc : lds) {
    MemRefType type = alloc.getType();
    if (alloc->getBlock() != &kernel.getBody().front() || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat()) {
      return alloc.emitError() << "the host twin lays out workgroup memory of static shape, identity layout and "
                                  "scalar elements allocated at the kernel's top level";
    }
    b.setInsertionPoint(alloc);
    Value pointer = LLVM::GEPOp::create(b, alloc.getLoc(), group_segment.getType(), b.getI8Type(), group_segment,
                                        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(group_bytes)});
    Value slice = BuildMemrefOverPointer(b, alloc.getLoc(), type, pointer, [](int64_t) { return Value(); });
    group_bytes += type.getNumElements() * element_bytes(alloc);
    alloc.replaceAllUsesWith(slice);
    alloc.erase();
  }
  kernel->setAttr(kTwinGroupBytesAttr, b.getI64IntegerAttr(group_bytes));
  return RunWorkItemsInLoops(kernel, size[0]);
}

// @name_twin(kernel, workgroup) -> i32: the kernel's arguments from the kernarg block, its
// ids from the workgroup state, and each work-item of the workgroup in turn (or, for a
// cooperative kernel, one call that runs them all, after checking that the workgroup is
// the one it was compiled for).
void AddTwinEntry(func::FuncOp kernel, unsigned kernel_inputs, bool cooperative) {
  MLIRContext* ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  b.setInsertionPointAfter(kernel);
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = b.getI32Type();
  auto entry = func::FuncOp::create(b, loc, TwinEntryName(kernel.getName()), FunctionType::get(ctx, {ptr, ptr}, {i32}));
  Block* body = entry.addEntryBlock();
  b.setInsertionPointToStart(body);
  Value kernarg = body->getArgument(0), workgroup = body->getArgument(1);
  SmallVector<Value> args;
  int64_t offset = 0;
  for (unsigned i = 0; i < kernel_inputs; ++i) {
    Type type = kernel.getArgumentTypes()[i];
    int64_t bytes = type == ptr ? 8 : 4;  // the ABI's only argument kinds, each naturally aligned
    offset = llvm::alignTo(offset, bytes);
    args.push_back(LoadAt(b, loc, kernarg, offset, type));
    offset += bytes;
  }
  auto index_at = [&](int64_t field) {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), LoadAt(b, loc, workgroup, field, i32)).getResult();
  };
  SmallVector<Value> block_ids;
  for (int d = 0; d < 3; ++d) block_ids.push_back(index_at(kWorkgroupIdOffset + 4 * d));
  Value size = index_at(kWorkgroupSizeOffset);
  auto return_code = [&](int64_t code) {
    func::ReturnOp::create(b, loc, ValueRange{arith::ConstantIntOp::create(b, loc, i32, code).getResult()});
  };
  if (cooperative) {
    int64_t items = kernel->getAttrOfType<DenseI32ArrayAttr>(kWorkgroupSizeAttr)[0];
    int64_t group_bytes = kernel->getAttrOfType<IntegerAttr>(kTwinGroupBytesAttr).getInt();
    Value right_size = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size,
                                             arith::ConstantIndexOp::create(b, loc, items));
    Value enough_lds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, index_at(kGroupSegmentSizeOffset),
                                             arith::ConstantIndexOp::create(b, loc, group_bytes));
    Value code = arith::SelectOp::create(
        b, loc, right_size,
        arith::SelectOp::create(b, loc, enough_lds, arith::ConstantIntOp::create(b, loc, i32, 0),
                                arith::ConstantIntOp::create(b, loc, i32, kGroupSegmentTooSmallTrap)),
        arith::ConstantIntOp::create(b, loc, i32, kWrongWorkgroupSizeTrap));
    Value runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, code, arith::ConstantIntOp::create(b, loc, i32, 0));
    auto run = scf::IfOp::create(b, loc, runs, /*withElseRegion=*/false);
    b.setInsertionPointToStart(run.thenBlock());
    SmallVector<Value> call_args(args);
    call_args.append(block_ids);
    call_args.push_back(LoadAt(b, loc, workgroup, kGroupSegmentOffset, ptr));
    func::CallOp::create(b, loc, kernel, call_args);
    b.setInsertionPointAfter(run);
    func::ReturnOp::create(b, loc, ValueRange{code});
    return;
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto items = scf::ForOp::create(b, loc, zero, size, one);
  b.setInsertionPointToStart(items.getBody());
  SmallVector<Value> call_args(args);
  call_args.push_back(items.getInductionVar());
  call_args.append(block_ids);
  func::CallOp::create(b, loc, kernel, call_args);
  b.setInsertionPointAfter(items);
  return_code(0);
}

struct LowerHostTwinPass : impl::LowerHostTwinBase<LowerHostTwinPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> kernels;
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
      if (fn->hasAttr(kKernelAttr)) kernels.push_back(fn);
    }
    for (func::FuncOp kernel : kernels) {
      unsigned inputs = kernel.getNumArguments();
      bool cooperative = IsCooperative(kernel);
      if (failed(cooperative ? LowerCooperativeKernel(kernel) : TakeIdsAsArguments(kernel))) {
        return signalPassFailure();
      }
      AddTwinEntry(kernel, inputs, cooperative);
      kernel.setPrivate();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
