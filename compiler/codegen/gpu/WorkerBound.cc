#include "compiler/codegen/gpu/WorkerBound.h"

#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::compiler::gpu {

namespace {

using namespace mlir;

// T when `v` is `base` (T = 1) or base * T with T a constant; nothing otherwise.
std::optional<int64_t> MultipleOf(Value v, Value base) {
  if (v == base) return 1;
  auto mul = v.getDefiningOp<arith::MulIOp>();
  if (!mul) return std::nullopt;
  Value other = mul.getLhs() == base ? mul.getRhs() : mul.getRhs() == base ? mul.getLhs() : Value();
  if (!other) return std::nullopt;
  std::optional<int64_t> factor = getConstantIntValue(other);
  if (!factor || *factor <= 0) return std::nullopt;
  return factor;
}

// Whether `op`, run by a worker that has no iteration of the loop, leaves no trace: no
// memory effects but allocating and freeing its own buffers. A workgroup barrier only
// orders a workgroup's own work-items, and the bound leaves out whole workgroups.
bool LeavesNoTrace(Operation* op) {
  if (isa<WorkgroupBarrierOp, mlir::gpu::BarrierOp>(op)) return true;
  if (isMemoryEffectFree(op)) return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || op->getNumRegions() != 0) return false;
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::all_of(list, [](const MemoryEffects::EffectInstance& effect) {
    return isa<MemoryEffects::Allocate, MemoryEffects::Free>(effect.getEffect());
  });
}

// Where the index `v` comes from, when that is a constant (extent) or one of `body`'s index
// push constants (word): also through memref.dim of a binding (its kiln.binding_dims name
// the push constant of each dynamic size) or of an expand_shape, and products by constants
// of one.
std::optional<WorkgroupBound> ResolveExtent(Value v, func::FuncOp body, size_t binding_count,
                                            llvm::ArrayRef<int64_t> word_of_constant) {
  for (int depth = 0; depth < 8; ++depth) {
    if (std::optional<int64_t> value = getConstantIntValue(v)) {
      if (*value < 0) return std::nullopt;
      return WorkgroupBound{*value, -1, 1};
    }
    if (auto argument = dyn_cast<BlockArgument>(v)) {
      size_t index = argument.getArgNumber();
      if (argument.getOwner() != &body.getBody().front() || !argument.getType().isIndex() || index < binding_count ||
          index >= binding_count + word_of_constant.size()) {
        return std::nullopt;
      }
      return WorkgroupBound{0, word_of_constant[index - binding_count], 1};
    }
    if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
      // Products of sizes the strategies leave unfolded (rows x 1): a constant factor of
      // one, or constants on both sides.
      std::optional<int64_t> lhs = getConstantIntValue(mul.getLhs()), rhs = getConstantIntValue(mul.getRhs());
      if (lhs && rhs) {
        if (*lhs < 0 || *rhs < 0 || (*rhs != 0 && *lhs > INT64_MAX / *rhs)) return std::nullopt;
        return WorkgroupBound{*lhs * *rhs, -1, 1};
      }
      if (lhs == 1 || rhs == 1) {
        v = lhs == 1 ? mul.getRhs() : mul.getLhs();
        continue;
      }
      return std::nullopt;
    }
    auto dim = v.getDefiningOp<memref::DimOp>();
    std::optional<int64_t> d = dim ? dim.getConstantIndex() : std::nullopt;
    if (!d) return std::nullopt;
    Value source = dim.getSource();
    auto type = dyn_cast<MemRefType>(source.getType());
    if (!type || *d < 0 || *d >= type.getRank()) return std::nullopt;
    if (!type.isDynamicDim(*d)) return WorkgroupBound{type.getDimSize(*d), -1, 1};
    if (auto expand = source.getDefiningOp<memref::ExpandShapeOp>()) {
      OpFoldResult size = expand.getMixedOutputShape()[*d];
      if (auto value = dyn_cast<Value>(size)) {
        v = value;
        continue;
      }
      std::optional<int64_t> constant = getConstantIntValue(size);
      if (!constant || *constant < 0) return std::nullopt;
      return WorkgroupBound{*constant, -1, 1};
    }
    if (auto argument = dyn_cast<BlockArgument>(source); argument && argument.getArgNumber() < binding_count) {
      auto dims = body->getAttrOfType<ArrayAttr>(kBindingDimsAttr);
      if (!dims) return std::nullopt;
      int64_t constant = cast<DenseI64ArrayAttr>(dims[argument.getArgNumber()]).asArrayRef()[*d];
      if (constant < 0 || static_cast<size_t>(constant) >= word_of_constant.size()) return std::nullopt;
      return WorkgroupBound{0, word_of_constant[constant], 1};
    }
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<WorkgroupBound> FindWorkerBound(func::FuncOp body, size_t binding_count,
                                              llvm::ArrayRef<int64_t> word_of_constant) {
  size_t id_index = binding_count + word_of_constant.size();
  if (body.isExternal() || !body.getBody().hasOneBlock() || body.getNumArguments() < id_index + 2) return std::nullopt;
  Value id = body.getArgument(id_index), count = body.getArgument(id_index + 1);
  SmallVector<scf::ForOp> loops;
  for (Operation& op : body.getBody().front()) {
    auto candidate = dyn_cast<scf::ForOp>(&op);
    if (candidate && candidate.getNumResults() == 0 && MultipleOf(candidate.getLowerBound(), id)) {
      loops.push_back(candidate);
      continue;
    }
    if (!op.hasTrait<OpTrait::IsTerminator>() && !LeavesNoTrace(&op)) return std::nullopt;
  }
  std::optional<WorkgroupBound> bound;
  for (scf::ForOp loop : loops) {
    std::optional<int64_t> block = MultipleOf(loop.getLowerBound(), id);
    if (!block || MultipleOf(loop.getStep(), count) != block) return std::nullopt;
    std::optional<WorkgroupBound> own = ResolveExtent(loop.getUpperBound(), body, binding_count, word_of_constant);
    if (!own) return std::nullopt;
    own->divisor = *block;
    if (!bound) {
      bound = own;
      continue;
    }
    // Several loops one after the other (an elementwise root's vector blocks, then its tail):
    // the workers with work in any of them, when every extent is a constant.
    if (bound->word >= 0 || own->word >= 0) return std::nullopt;
    int64_t blocks = std::max(llvm::divideCeil(bound->extent, bound->divisor), llvm::divideCeil(own->extent, own->divisor));
    bound = WorkgroupBound{blocks, -1, 1};
  }
  return bound;
}

}  // namespace kiln::compiler::gpu
