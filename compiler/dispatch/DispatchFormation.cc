#include "compiler/dispatch/DispatchFormation.h"

#include "llvm/ADT/SetVector.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Transforms/RegionUtils.h"

#include "compiler/dispatch/InPlaceUpdates.h"
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/utils/Locations.h"

namespace kiln::compiler {

using namespace mlir;

namespace {

// Dense constants up to this many elements are recomputed in the kernel (they become
// data in the executable); larger ones are bound from the module's read-only data.
constexpr int64_t kMaxInlinedConstantElements = 64;

bool HasTensorResult(Operation* op) {
  return llvm::any_of(op->getResultTypes(), [](Type t) { return isa<RankedTensorType>(t); });
}

// Whether `op` computes whole rows along its outermost loop: that loop is parallel and
// indexes the first dimension of its single result.
bool ComputesRows(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 || op.getNumLoops() == 0) return false;
  if (op.getIteratorTypesArray().front() != utils::IteratorType::parallel) return false;
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  return output.getNumResults() > 0 && output.getResult(0) == getAffineDimExpr(0, op.getContext());
}

// Whether `use` reads row d0 of its value in iteration d0 of its owner's outermost loop.
bool ReadsRowsInStep(OpOperand& use) {
  auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!consumer || !ComputesRows(consumer) || !consumer.isDpsInput(&use)) return false;
  AffineMap map = consumer.getMatchingIndexingMap(&use);
  return map.getNumResults() > 0 && map.getResult(0) == getAffineDimExpr(0, consumer.getContext());
}

}  // namespace

llvm::SetVector<Operation*> CollectRowFusedProducers(Operation* root) {
  llvm::SetVector<Operation*> group;
  auto generic = dyn_cast<linalg::GenericOp>(root);
  if (!generic || !ComputesRows(generic)) return group;
  group.insert(root);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < group.size(); ++i) {
      for (Value operand : group[i]->getOperands()) {
        auto producer = operand.getDefiningOp<linalg::GenericOp>();
        if (!producer || group.contains(producer) || producer->getBlock() != root->getBlock() ||
            !ComputesRows(producer)) {
          continue;
        }
        bool fusable = llvm::all_of(producer->getUses(), [&](OpOperand& use) {
          return group.contains(use.getOwner()) && ReadsRowsInStep(use);
        });
        if (fusable) {
          group.insert(producer);
          grew = true;
        }
      }
    }
  }
  group.remove(root);
  return group;
}

namespace {

// Collects `root`, its row-fused producers and the clonable producers they depend on,
// producers first.
llvm::SetVector<Operation*> CollectRegionOps(Operation* root) {
  llvm::SetVector<Operation*> fused = CollectRowFusedProducers(root);
  llvm::SetVector<Operation*> ops;
  std::function<void(Operation*)> visit = [&](Operation* op) {
    if (ops.contains(op)) return;
    auto visit_value = [&](Value v) {
      Operation* def = v.getDefiningOp();
      if (def && (IsClonableProducer(def) || fused.contains(def))) visit(def);
    };
    for (Value v : op->getOperands()) visit_value(v);
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value v : captured) visit_value(v);
    ops.insert(op);
  };
  visit(root);
  return ops;
}

// Values the region uses but does not define, in first-use order.
llvm::SetVector<Value> CollectExternalValues(const llvm::SetVector<Operation*>& ops) {
  llvm::SetVector<Value> external;
  auto note = [&](Value v) {
    Operation* def = v.getDefiningOp();
    if (!def || !ops.contains(def)) external.insert(v);
  };
  for (Operation* op : ops) {
    for (Value v : op->getOperands()) note(v);
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value v : captured) note(v);
  }
  return external;
}

// Dimension `d` of `tensor` as a host value that does not depend on `tensor` itself when
// it can be found elsewhere: through destination operands, tensor.empty sizes and shape
// reification, down to dimensions of function arguments or of dispatch results.
FailureOr<Value> HostDim(OpBuilder& b, Location loc, Value tensor, int64_t d) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(d)) return Value(arith::ConstantIndexOp::create(b, loc, type.getDimSize(d)));
  auto result = dyn_cast<OpResult>(tensor);
  Operation* def = result ? result.getOwner() : nullptr;
  if (def && !isa<DispatchOp>(def)) {
    if (auto empty = dyn_cast<tensor::EmptyOp>(def)) return empty.getDynamicSize(d);
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(def)) {
      return HostDim(b, loc, dps.getDpsInitOperand(result.getResultNumber())->get(), d);
    }
    ReifiedRankedShapedTypeDims shapes;
    if (succeeded(reifyResultShapes(b, def, shapes))) {
      OpFoldResult size = shapes[result.getResultNumber()][d];
      if (auto value = dyn_cast<Value>(size)) {
        if (auto dim = value.getDefiningOp<tensor::DimOp>()) {
          if (std::optional<int64_t> index = dim.getConstantIndex()) {
            if (dim.getSource() != tensor) return HostDim(b, loc, dim.getSource(), *index);
          }
        }
        return value;
      }
      return Value(arith::ConstantIndexOp::create(b, loc, *getConstantIntValue(size)));
    }
  }
  return Value(tensor::DimOp::create(b, loc, tensor, d));
}

MemRefType BindingType(RankedTensorType type) { return MemRefType::get(type.getShape(), type.getElementType()); }

}  // namespace

bool IsDispatchRoot(Operation* op) {
  if (!HasTensorResult(op)) return false;
  if (isa<linalg::LinalgDialect, iree::LinalgExtDialect>(op->getDialect())) return true;
  return isa<tensor::PadOp, tensor::ConcatOp, tensor::ExtractSliceOp, tensor::InsertSliceOp, tensor::InsertOp,
             tensor::FromElementsOp, tensor::SplatOp, tensor::GenerateOp>(op);
}

bool HasRootAncestor(Operation* op) {
  for (Operation* parent = op->getParentOp(); parent; parent = parent->getParentOp()) {
    if (IsDispatchRoot(parent)) return true;
  }
  return false;
}

bool IsClonableProducer(Operation* op) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense) return true;  // a scalar
    return dense.isSplat() || dense.getNumElements() <= kMaxInlinedConstantElements;
  }
  if (isa<tensor::EmptyOp, tensor::ExtractSliceOp>(op)) return true;
  // A reshape of a slice: the kernel reads through both views instead of a copy of the slice.
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op)) {
    return op->getOperand(0).getDefiningOp<tensor::ExtractSliceOp>() != nullptr;
  }
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    return fill.hasPureTensorSemantics() && fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>();
  }
  return false;
}

ModuleOp GetOrCreateExecutableModule(ModuleOp module) {
  for (ModuleOp nested : module.getOps<ModuleOp>()) {
    if (nested->hasAttr(kExecutableAttr)) return nested;
  }
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto executables = ModuleOp::create(b, module.getLoc(), StringRef("kiln_executable"));
  executables->setAttr(kExecutableAttr, b.getUnitAttr());
  return executables;
}

FailureOr<DispatchOp> FormDispatch(Operation* root, ModuleOp executables, StringRef name, bool in_place) {
  MLIRContext* ctx = root->getContext();
  Location loc = root->getLoc();
  llvm::SetVector<Operation*> region_ops = CollectRegionOps(root);
  // In place: the destination is the output binding itself, not an input.
  Value destination = in_place ? InPlaceDestination(root) : Value();
  if (in_place && !destination) return root->emitError() << "this op cannot be written in place";

  llvm::SetVector<Value> inputs, scalars;
  for (Value v : CollectExternalValues(region_ops)) {
    if (v == destination) continue;
    if (isa<RankedTensorType>(v.getType())) {
      inputs.insert(v);
    } else if (v.getType().isIntOrIndexOrFloat() && (v.getType().isIndex() || v.getType().getIntOrFloatBitWidth() <= 64)) {
      scalars.insert(v);
    } else {
      return root->emitError() << "cannot pass a value of type " << v.getType()
                               << " into a dispatch; expected a ranked tensor or a scalar of at most 64 bits";
    }
  }

  // Push constants: the scalars the region uses, then every dynamic dimension of every
  // binding, each computed on the host from values that exist before the dispatch.
  OpBuilder host(root);
  SmallVector<Value> constants(scalars.begin(), scalars.end());
  llvm::DenseMap<Value, int64_t> constant_index;
  for (auto [i, v] : llvm::enumerate(constants)) constant_index.try_emplace(v, i);
  llvm::DenseMap<std::pair<Value, int64_t>, int64_t> dim_index;
  auto constant_for = [&](Value v) -> int64_t {
    auto [it, inserted] = constant_index.try_emplace(v, constants.size());
    if (inserted) constants.push_back(v);
    return it->second;
  };
  auto dim_constant_for = [&](Value tensor, int64_t d) -> FailureOr<int64_t> {
    auto key = std::make_pair(tensor, d);
    if (auto it = dim_index.find(key); it != dim_index.end()) return it->second;
    FailureOr<Value> dim = HostDim(host, loc, tensor, d);
    if (failed(dim)) return failure();
    int64_t index = constant_for(*dim);
    dim_index[key] = index;
    return index;
  };
  // Per dimension of a binding: the push constant carrying it, or -1 when it is static.
  auto binding_dims_of = [&](Value tensor) -> FailureOr<SmallVector<int64_t>> {
    auto type = cast<RankedTensorType>(tensor.getType());
    SmallVector<int64_t> dims;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d)) {
        dims.push_back(-1);
        continue;
      }
      FailureOr<int64_t> index = dim_constant_for(tensor, d);
      if (failed(index)) return failure();
      dims.push_back(*index);
    }
    return dims;
  };
  SmallVector<Attribute> binding_dims;
  SmallVector<Value> result_dims;
  for (Value input : inputs) {
    FailureOr<SmallVector<int64_t>> dims = binding_dims_of(input);
    if (failed(dims)) return failure();
    binding_dims.push_back(DenseI64ArrayAttr::get(ctx, *dims));
  }
  // Results nothing reads stay private to the kernel (DESIGN.md section 3): no binding,
  // no host allocation; e.g. the indices of a topk whose values alone are used.
  SmallVector<OpResult> results;
  for (OpResult result : root->getResults()) {
    if (!result.use_empty()) results.push_back(result);
  }
  SmallVector<Type> result_types;
  for (OpResult result : results) {
    unsigned i = result.getResultNumber();
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type) return root->emitError() << "result " << i << " of a dispatch root is not a ranked tensor";
    result_types.push_back(type);
    FailureOr<SmallVector<int64_t>> dims = binding_dims_of(result);
    if (failed(dims)) {
      return root->emitError() << "cannot compute the dimensions of result " << i << " of '" << root->getName()
                               << "' on the host; kiln needs them to allocate the result";
    }
    for (int64_t index : *dims) {
      if (index >= 0) result_dims.push_back(constants[index]);
    }
    binding_dims.push_back(DenseI64ArrayAttr::get(ctx, *dims));
  }

  // The executable function.
  SmallVector<Type> arg_types;
  for (Value input : inputs) arg_types.push_back(BindingType(cast<RankedTensorType>(input.getType())));
  for (Type type : result_types) arg_types.push_back(BindingType(cast<RankedTensorType>(type)));
  for (Value c : constants) arg_types.push_back(c.getType());
  arg_types.push_back(IndexType::get(ctx));  // workgroup id
  arg_types.push_back(IndexType::get(ctx));  // workgroup count
  OpBuilder eb = OpBuilder::atBlockEnd(executables.getBody());
  auto fn = func::FuncOp::create(eb, loc, name, FunctionType::get(ctx, arg_types, {}));
  fn->setAttr(kBindingDimsAttr, ArrayAttr::get(ctx, binding_dims));
  fn->setAttr(kInputCountAttr, eb.getI64IntegerAttr(inputs.size()));
  std::string location = LocationString(loc);
  if (!location.empty()) fn->setAttr(kSourceLocationAttr, eb.getStringAttr(location));
  Block* body = fn.addEntryBlock();
  OpBuilder fb = OpBuilder::atBlockBegin(body);
  IRMapping map;
  size_t arg = 0;
  for (Value input : inputs) {
    map.map(input, bufferization::ToTensorOp::create(fb, loc, input.getType(), body->getArgument(arg++),
                                                     /*restrict=*/true, /*writable=*/false));
  }
  size_t first_output = arg;
  arg += result_types.size();
  for (Value c : constants) map.map(c, body->getArgument(arg++));
  if (destination) {
    map.map(destination, bufferization::ToTensorOp::create(fb, loc, destination.getType(),
                                                           body->getArgument(first_output), /*restrict=*/true,
                                                           /*writable=*/true));
    fn->setAttr(kInPlaceResultsAttr, DenseI64ArrayAttr::get(ctx, {0}));
  }
  for (Operation* op : region_ops) {
    Operation* clone = fb.clone(*op, map);
    if (op == root) clone->setAttr(kRootAttr, fb.getUnitAttr());
  }
  for (auto [i, result] : llvm::enumerate(results)) {
    bufferization::MaterializeInDestinationOp::create(fb, loc, Type(), map.lookup(Value(result)),
                                                      body->getArgument(first_output + i), /*restrict=*/true,
                                                      /*writable=*/true);
  }
  func::ReturnOp::create(fb, loc);

  auto entry = SymbolRefAttr::get(executables.getSymNameAttr(), {FlatSymbolRefAttr::get(fn.getSymNameAttr())});
  SmallVector<Value> input_values(inputs.begin(), inputs.end());
  SmallVector<Value> in_place_values;
  DenseI64ArrayAttr tied;
  if (destination) {
    in_place_values.push_back(destination);
    tied = DenseI64ArrayAttr::get(ctx, {0});
  }
  auto dispatch = DispatchOp::create(host, loc, result_types, entry, input_values, constants, result_dims,
                                     in_place_values, tied);
  for (auto [result, replacement] : llvm::zip(results, dispatch.getResults())) result.replaceAllUsesWith(replacement);
  root->erase();
  return dispatch;
}

}  // namespace kiln::compiler
