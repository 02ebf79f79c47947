// Host twin entry points for the GPU kernels (Passes.td, LowerHostTwin).
#include <cstddef>

#include "compiler/codegen/gpu/Passes.h"
#include "hal/abi/gpu_kernel_abi.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_LOWERHOSTTWIN
#include "compiler/codegen/gpu/Passes.h.inc"

namespace {

using namespace mlir;

constexpr int64_t kWorkgroupIdOffset = offsetof(kiln_gpu_twin_workgroup_v1_t, workgroup_id);
constexpr int64_t kWorkgroupSizeOffset = offsetof(kiln_gpu_twin_workgroup_v1_t, workgroup_size);

// Loads a `type` at byte `offset` of `base`.
Value LoadAt(OpBuilder& b, Location loc, Value base, int64_t offset, Type type) {
  Type ptr = base.getType();
  Value field = offset == 0 ? base
                            : LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), base,
                                                  ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)})
                                  .getResult();
  return LLVM::LoadOp::create(b, loc, type, field);
}

// Replaces the work-item and workgroup ids of `kernel` by new trailing arguments
// (thread x, block x, y, z), the only ids FormKernels' kernels use besides constants.
LogicalResult TakeIdsAsArguments(func::FuncOp kernel) {
  Operation* unsupported = nullptr;
  kernel.walk([&](Operation* op) {
    if (isa<mlir::gpu::GPUDialect>(op->getDialect()) && !isa<mlir::gpu::ThreadIdOp, mlir::gpu::BlockIdOp>(op)) unsupported = op;
  });
  if (unsupported) {
    return unsupported->emitError() << "the host twin cannot emulate '" << unsupported->getName()
                                    << "' yet: work-items run one after another, without barriers or "
                                       "subgroup operations";
  }
  Builder b(kernel.getContext());
  unsigned first = kernel.getNumArguments();
  for (int i = 0; i < 4; ++i) {
    if (failed(kernel.insertArgument(first + i, b.getIndexType(), nullptr, kernel.getLoc()))) {
      return kernel.emitError() << "cannot add the work-item id arguments of the host twin";
    }
  }
  Value thread = kernel.getArgument(first);
  SmallVector<Operation*> ids;
  kernel.walk([&](Operation* op) {
    if (isa<mlir::gpu::ThreadIdOp, mlir::gpu::BlockIdOp>(op)) ids.push_back(op);
  });
  for (Operation* op : ids) {
    OpBuilder ob(op);
    Value replacement;
    if (auto t = dyn_cast<mlir::gpu::ThreadIdOp>(op)) {
      replacement = t.getDimension() == mlir::gpu::Dimension::x ? thread
                                                          : arith::ConstantIndexOp::create(ob, op->getLoc(), 0);
    } else {
      auto dim = static_cast<unsigned>(cast<mlir::gpu::BlockIdOp>(op).getDimension());
      replacement = kernel.getArgument(first + 1 + dim);
    }
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }
  return success();
}

// @name_twin(kernarg, workgroup) -> i32: the kernel's arguments from the kernarg block, its
// ids from the workgroup state, and each work-item of the workgroup in turn.
void AddTwinEntry(func::FuncOp kernel, unsigned kernel_inputs) {
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
    int64_t bytes = type == ptr ? 8 : 4;  // the ABI's only argument kinds
    args.push_back(LoadAt(b, loc, kernarg, offset, type));
    offset += bytes;
  }
  auto index_at = [&](int64_t field) {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), LoadAt(b, loc, workgroup, field, i32)).getResult();
  };
  SmallVector<Value> block_ids;
  for (int d = 0; d < 3; ++d) block_ids.push_back(index_at(kWorkgroupIdOffset + 4 * d));
  Value size = index_at(kWorkgroupSizeOffset);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto items = scf::ForOp::create(b, loc, zero, size, one);
  b.setInsertionPointToStart(items.getBody());
  SmallVector<Value> call_args(args);
  call_args.push_back(items.getInductionVar());
  call_args.append(block_ids);
  func::CallOp::create(b, loc, kernel, call_args);
  b.setInsertionPointAfter(items);
  func::ReturnOp::create(b, loc, ValueRange{arith::ConstantIntOp::create(b, loc, i32, 0).getResult()});
}

struct LowerHostTwinPass : impl::LowerHostTwinBase<LowerHostTwinPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> kernels;
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
      if (fn->hasAttr(kKernelAttr)) kernels.push_back(fn);
    }
    for (func::FuncOp kernel : kernels) {
      unsigned inputs = kernel.getNumArguments();
      if (failed(TakeIdsAsArguments(kernel))) return signalPassFailure();
      AddTwinEntry(kernel, inputs);
      kernel.setPrivate();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
