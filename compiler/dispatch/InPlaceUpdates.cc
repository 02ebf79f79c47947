#include "compiler/dispatch/InPlaceUpdates.h"

#include "compiler/utils/TensorViews.h"

#include "llvm/ADT/StringMap.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CallInterfaces.h"

#include "compiler/dispatch/DispatchFormation.h"
#include "compiler/input/iree/IreeDialects.h"

namespace kiln::compiler {

namespace {

using namespace mlir;

bool ContainsCall(Operation* op) {
  return op->walk([](Operation* inner) {
           return isa<CallOpInterface>(inner) ? WalkResult::interrupt() : WalkResult::advance();
         }).wasInterrupted();
}

// The ops that read `value`'s buffer: its users, and through views and clonable producers
// (recomputed inside the dispatches that use them) their users. False when a use lets the
// buffer escape: outside `block`, or an op other than a dispatch root, tensor.dim,
// tensor.extract or a store to `global`.
bool CollectReads(Value value, Block& block, StringRef global, SmallVectorImpl<Operation*>& reads) {
  SmallVector<Value> worklist = {value};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second) continue;
    for (Operation* user : v.getUsers()) {
      if (user->getBlock() != &block) return false;
      reads.push_back(user);
      if (auto store = dyn_cast<iree::GlobalStoreOp>(user)) {
        if (store.getGlobal() != global) return false;
      } else if (IsTensorView(user) || IsClonableProducer(user)) {
        for (Value result : user->getResults()) worklist.push_back(result);
      } else if (!IsDispatchRoot(user) && !isa<tensor::DimOp, tensor::ExtractOp>(user)) {
        return false;
      }
    }
  }
  return true;
}

// Whether `value` (stored to `global`) is a fresh device result or @global's own value.
bool IsFreshOrOwn(Value value, StringRef global) {
  while (Operation* def = value.getDefiningOp()) {
    if (IsTensorView(def)) {
      value = def->getOperand(0);
      continue;
    }
    if (auto load = dyn_cast<iree::GlobalLoadOp>(def)) return load.getGlobal() == global;
    return IsDispatchRoot(def) && !HasRootAncestor(def);
  }
  return false;  // a block argument: the caller's buffer
}

// A value sharing a global's buffer, with the ops that read it.
struct Alias {
  Value value;
  SmallVector<Operation*> reads;
};

class Analysis {
 public:
  explicit Analysis(ModuleOp module) : module_(module) {}

  llvm::DenseSet<Operation*> Run() {
    llvm::StringMap<SmallVector<Operation*>> accesses;
    module_.walk([&](Operation* op) {
      if (auto load = dyn_cast<iree::GlobalLoadOp>(op)) accesses[load.getGlobal()].push_back(op);
      if (auto store = dyn_cast<iree::GlobalStoreOp>(op)) accesses[store.getGlobal()].push_back(op);
      if (auto address = dyn_cast<iree::GlobalAddressOp>(op)) escaped_.insert(address.getGlobal());
    });
    for (iree::GlobalOp global : module_.getOps<iree::GlobalOp>()) {
      if (!global.getIsMutable() || !isa<RankedTensorType>(global.getType())) continue;
      // A parameter's buffer may be the mapped file itself.
      if (global.getInitialValue() && iree::AsNamedParameter(*global.getInitialValue())) continue;
      if (escaped_.contains(global.getSymName())) continue;
      Global(global.getSymName(), accesses[global.getSymName()]);
    }
    return std::move(in_place_);
  }

 private:
  void Global(StringRef name, ArrayRef<Operation*> accesses) {
    // Every value sharing the global's buffer, by block; any escape disqualifies it.
    llvm::DenseMap<Block*, SmallVector<Alias>> aliases;
    for (Operation* op : accesses) {
      Value value = isa<iree::GlobalLoadOp>(op) ? op->getResult(0) : cast<iree::GlobalStoreOp>(op).getValue();
      if (isa<iree::GlobalStoreOp>(op) && !IsFreshOrOwn(value, name)) return;
      Alias alias{value, {}};
      if (!CollectReads(value, *op->getBlock(), name, alias.reads)) return;
      aliases[op->getBlock()].push_back(std::move(alias));
    }
    for (auto& [block, values] : aliases) {
      if (!NoCallWhileLive(*block, values)) return;
    }
    for (Operation* op : accesses) {
      auto load = dyn_cast<iree::GlobalLoadOp>(op);
      if (load) Chain(name, load, aliases[load->getBlock()]);
    }
  }

  int64_t Position(Operation* op) {
    Block* block = op->getBlock();
    if (!ordered_.contains(block)) {
      int64_t i = 0;
      for (Operation& inner : *block) position_[&inner] = i++;
      ordered_.insert(block);
    }
    return position_.lookup(op);
  }

  int64_t DefinedAt(Value v) { return v.getDefiningOp() ? Position(v.getDefiningOp()) : -1; }

  // No call in `block` while one of `values` is live (the callee might write in place).
  bool NoCallWhileLive(Block& block, ArrayRef<Alias> values) {
    SmallVector<int64_t> calls;
    for (Operation& op : block) {
      if (ContainsCall(&op)) calls.push_back(Position(&op));
    }
    for (const Alias& alias : values) {
      int64_t begin = DefinedAt(alias.value), end = begin;
      for (Operation* read : alias.reads) end = std::max(end, Position(read));
      if (llvm::any_of(calls, [&](int64_t at) { return at > begin && at < end; })) return false;
    }
    return true;
  }

  // The chain of slice writers (InPlaceDestination) writing `load`'s value, each the only
  // user of the one before, ending in a store to @name: in place when nothing else reads
  // the old buffer.
  void Chain(StringRef name, iree::GlobalLoadOp load, ArrayRef<Alias> block_aliases) {
    SmallVector<Operation*> chain;
    Value current = load.getResult();
    while (current.hasOneUse()) {
      Operation* writer = *current.getUsers().begin();
      if (InPlaceDestination(writer) != current || HasRootAncestor(writer)) break;
      // The old value must reach the writer only as its destination.
      if (llvm::count(writer->getOperands(), current) != 1) break;
      chain.push_back(writer);
      current = writer->getResult(0);
    }
    if (chain.empty()) return;
    iree::GlobalStoreOp store;
    for (Operation* user : current.getUsers()) {
      auto candidate = dyn_cast<iree::GlobalStoreOp>(user);
      if (candidate && candidate.getGlobal() == name && (!store || Position(candidate) < Position(store))) {
        store = candidate;
      }
    }
    if (!store) return;
    int64_t first = Position(chain.front()), loaded = Position(load), stored = Position(store);
    for (const Alias& other : block_aliases) {
      if (other.value == load.getResult() || llvm::is_contained(chain, other.value.getDefiningOp())) continue;
      int64_t defined = DefinedAt(other.value);
      if (auto other_load = other.value.getDefiningOp<iree::GlobalLoadOp>()) {
        if (defined > loaded && defined < stored) return;  // would read the old value
      }
      if (defined >= first) continue;
      for (Operation* read : other.reads) {
        if (Position(read) >= first) return;
      }
    }
    for (Operation* insert : chain) in_place_.insert(insert);
  }

  ModuleOp module_;
  llvm::DenseSet<StringRef> escaped_;
  llvm::DenseMap<Operation*, int64_t> position_;
  llvm::DenseSet<Block*> ordered_;
  llvm::DenseSet<Operation*> in_place_;
};

}  // namespace

Value InPlaceSource(Operation* op) {
  if (!InPlaceDestination(op)) return {};
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) return insert.getSource();
  return cast<iree::ScatterOp>(op).getInputs()[0];
}

Value InPlaceDestination(Operation* op) {
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) return insert.getDest();
  if (auto scatter = dyn_cast<iree::ScatterOp>(op)) {
    if (scatter.getOutputs().size() == 1 && isa<RankedTensorType>(scatter.getOutputs()[0].getType())) {
      return scatter.getOutputs()[0];
    }
  }
  return {};
}

llvm::DenseSet<Operation*> FindInPlaceUpdates(ModuleOp module) { return Analysis(module).Run(); }

}  // namespace kiln::compiler
