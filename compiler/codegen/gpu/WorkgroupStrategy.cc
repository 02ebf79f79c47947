// Choosing and laying out the GPU's workgroup strategies (WorkgroupStrategy.h).
#include "compiler/codegen/gpu/WorkgroupStrategy.h"

#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WorkgroupAttention.h"
#include "compiler/codegen/gpu/WorkgroupContraction.h"
#include "compiler/codegen/gpu/WorkgroupReduction.h"
#include "compiler/codegen/gpu/WorkgroupRows.h"
#include "compiler/codegen/gpu/WorkgroupScatter.h"
#include "compiler/codegen/gpu/WorkgroupSort.h"
#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler::gpu {

using namespace mlir;

bool IsDispatchPlumbing(Operation* op) {
  if (isa<func::ReturnOp, bufferization::ToTensorOp, bufferization::MaterializeInDestinationOp, tensor::EmptyOp,
          tensor::DimOp, tensor::CastOp, tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::ExtractSliceOp,
          affine::AffineApplyOp, affine::AffineMinOp, affine::AffineMaxOp>(op)) {
    return true;
  }
  Dialect* dialect = op->getDialect();
  return dialect && isa<arith::ArithDialect, index::IndexDialect>(dialect) &&
         llvm::all_of(op->getResultTypes(), [](Type type) { return type.isIntOrIndexOrFloat(); });
}

Value BindingOf(Value v) {
  while (auto cast = v.getDefiningOp<tensor::CastOp>()) v = cast.getSource();
  auto to_tensor = v.getDefiningOp<bufferization::ToTensorOp>();
  if (!to_tensor || !isa<BlockArgument>(to_tensor.getBuffer())) return {};
  return to_tensor.getBuffer();
}

void OutputInitialisation::Erase() {
  if (fill) fill->erase();
  if (copy) copy->erase();
}

FailureOr<OutputInitialisation> FindOutputInitialisation(linalg::LinalgOp root, std::string& why) {
  return FindOutputInitialisation(root.getOperation(), root.getDpsInitOperand(0)->get(), why);
}

FailureOr<OutputInitialisation> FindOutputInitialisation(Operation* root, Value out, std::string& why) {
  if (!isa<BlockArgument>(memref::skipViewLikeOps(cast<MemrefValue>(out)))) {
    why = "its output is a temporary buffer, not a view of a binding";
    return failure();
  }
  OutputInitialisation init;
  for (Operation* user : out.getUsers()) {
    if (user == root) continue;
    bool before = user->getBlock() == root->getBlock() && user->isBeforeInBlock(root) && !init.fill && !init.copy;
    if (auto fill = dyn_cast<linalg::FillOp>(user); before && fill) {
      init.fill = fill;
      continue;
    }
    if (auto copy = dyn_cast<memref::CopyOp>(user); before && copy && copy.getTarget() == out) {
      init.copy = copy;
      continue;
    }
    why = "its output is also used by '" + user->getName().getStringRef().str() + "'";
    return failure();
  }
  init.source = init.copy ? init.copy.getSource() : out;
  return init;
}

scf::ForOp BuildWorkgroupLoop(OpBuilder& b, Location loc, func::FuncOp fn, Value end) {
  Value id = fn.getArgument(fn.getNumArguments() - 2);
  Value count = fn.getArgument(fn.getNumArguments() - 1);
  auto loop = scf::ForOp::create(b, loc, id, end, count);
  b.setInsertionPointToStart(loop.getBody());
  return loop;
}

SmallVector<func::FuncOp> TakeMarkedDispatches(ModuleOp module, llvm::StringRef strategy) {
  SmallVector<func::FuncOp> marked;
  for (func::FuncOp fn : module.getOps<func::FuncOp>()) {
    auto mark = fn->getAttrOfType<StringAttr>(kWorkgroupStrategyAttr);
    if (!mark || mark.getValue() != strategy) continue;
    fn->removeAttr(kWorkgroupStrategyAttr);
    marked.push_back(fn);
  }
  return marked;
}

void LayOutMarkedDispatches(ModuleOp module, llvm::StringRef strategy,
                            llvm::function_ref<bool(linalg::LinalgOp)> matches, LayOutFn layout) {
  for (func::FuncOp fn : TakeMarkedDispatches(module, strategy)) {
    linalg::LinalgOp root = FindRoot(fn);
    std::string why = "bufferization did not leave its root a matching op on buffers";
    FailureOr<OutputInitialisation> init = failure();
    if (root && root.hasPureBufferSemantics() && root->getBlock() == &fn.getBody().front() && matches(root)) {
      init = FindOutputInitialisation(root, why);
    }
    if (failed(init)) {
      fn.emitRemark() << "dispatch '" << fn.getName() << "' runs on one work-item: " << why;
      continue;
    }
    int64_t workgroup_size = layout(fn, root, *init);
    root->erase();
    init->Erase();
    MarkWorkgroupCooperative(fn, workgroup_size);
  }
}

void MarkWorkgroupCooperative(func::FuncOp fn, int64_t workgroup_size) {
  Builder b(fn.getContext());
  fn->setAttr(kDistributedAttr, b.getUnitAttr());
  fn->setAttr(kWorkgroupWorkersAttr, b.getUnitAttr());
  fn->setAttr(kWorkgroupSizeAttr, b.getDenseI32ArrayAttr({static_cast<int32_t>(workgroup_size), 1, 1}));
}

namespace {

// Whether contraction `op` has a single row or a single column (decode's x W^T with one
// token, a matvec written as a matmul) and the reduction strategy computes it: one output
// element per row of 256 work-items, instead of 64x64 tiles of which one row is used.
bool IsVectorProduct(linalg::LinalgOp op) {
  std::optional<WorkgroupContractionDims> dims = MatchWorkgroupContraction(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto single = [&](ArrayRef<unsigned> group) {
    return llvm::all_of(group, [&](unsigned d) { return ranges[d] == 1; });
  };
  return dims && (single(dims->m) || single(dims->n)) && MatchWorkgroupReduction(op);
}

}  // namespace

llvm::StringRef ChooseWorkgroupStrategy(func::FuncOp fn, std::string& why) {
  std::string not_sort, not_attention;
  if (IsSortDispatch(fn, not_sort)) return kSortStrategy;
  if (IsFlashAttentionDispatch(fn, not_attention)) return kFlashAttentionStrategy;
  if (FindRoot<iree::ScatterOp>(fn)) return IsScatterDispatch(fn, why) ? llvm::StringRef(kScatterStrategy) : llvm::StringRef();
  linalg::LinalgOp root = FindRoot(fn);
  if (!root || !root.hasPureTensorSemantics() || root->getNumResults() != 1) {
    why = "its root does not compute one tensor";
    return {};
  }
  llvm::StringRef strategy;
  // A contraction whose result only an elementwise root reads: the root is its epilogue.
  Operation* contraction = nullptr;
  for (Value input : root.getDpsInputs()) {
    auto producer = input.getDefiningOp<linalg::LinalgOp>();
    unsigned operand;
    auto generic = dyn_cast<linalg::GenericOp>(root.getOperation());
    if (producer && producer->hasOneUse() && MatchWorkgroupContraction(producer) && generic &&
        IsContractionEpilogue(generic, input, [](Value v) { return static_cast<bool>(BindingOf(v)); }, operand)) {
      contraction = producer;
    }
  }
  if ((MatchWorkgroupContraction(root) && !IsVectorProduct(root)) || contraction) {
    strategy = kContractionStrategy;
  } else if (MatchWorkgroupReduction(root)) {
    strategy = kReductionStrategy;
  } else if (IsRowDispatch(fn, why)) {
    return kRowStrategy;
  } else {
    why = "its root is neither a contraction, a convolution with input and output channels, a reduction of rows nor "
          "a row-wise "
          "chain (" + why + ")";
    return {};
  }
  // The fills of the product's output, and of an epilogue's (which it does not read).
  SmallVector<Value> inits = {root.getDpsInitOperand(0)->get()};
  if (contraction) inits.push_back(cast<linalg::LinalgOp>(contraction).getDpsInitOperand(0)->get());
  for (Operation& op : fn.getBody().front()) {
    if (&op == root.getOperation() || &op == contraction || IsDispatchPlumbing(&op)) continue;
    auto fill = dyn_cast<linalg::FillOp>(op);
    if (fill && fill->getNumResults() == 1 && llvm::is_contained(inits, fill->getResult(0))) continue;
    why = "it also computes '" + op.getName().getStringRef().str() + "'";
    return {};
  }
  return strategy;
}

}  // namespace kiln::compiler::gpu
