// What the GPU's workgroup-cooperative strategies share (WorkgroupContraction.h,
// WorkgroupReduction.h): choosing a dispatch's strategy on tensors, and laying out the
// marked dispatches on buffers.
#pragma once

#include <string>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "compiler/dialect/KilnDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace kiln::compiler::gpu {

// What a workgroup strategy's root (on buffers) finds in its output before it runs: the
// value of `fill` if not null, else the contents of `source` (the buffer `copy` copied
// into the output, or the output itself).
struct OutputInitialisation {
  mlir::linalg::FillOp fill;
  mlir::memref::CopyOp copy;
  mlir::Value source;
  // Erases the fill or copy, which the strategy's kernel replaces.
  void Erase();
};

// The initialisation of `root`'s output, which must be (a view of) an output binding that
// nothing but a preceding fill or copy touches (a temporary would be per work-item);
// otherwise `why` says what stands in the way.
mlir::FailureOr<OutputInitialisation> FindOutputInitialisation(mlir::linalg::LinalgOp root, std::string& why);
// The same for any root op on buffers that updates `out` (an iree_linalg_ext.scatter).
mlir::FailureOr<OutputInitialisation> FindOutputInitialisation(mlir::Operation* root, mlir::Value out,
                                                               std::string& why);

// Lays out every function of `module` marked with `strategy` (and removes the mark). Its
// root must still be a linalg op on buffers in the function's block, with an output
// initialised as FindOutputInitialisation accepts; `layout` builds the kernel in place of
// the root and returns the workgroup size, then the root and its initialisation are
// erased and the function becomes a workgroup-cooperative dispatch (kiln.distributed,
// kWorkgroupWorkersAttr, kiln.gpu.workgroup_size). Otherwise the function stays as it
// was, with a remark that it runs on one work-item and why.
// In a dispatch function laid out by a strategy: the loop over units id, id + count, ...
// below `end`, where id and count are its worker arguments (the workgroup's id and the
// workgroup count); the same loop in every work-item of a workgroup.
mlir::scf::ForOp BuildWorkgroupLoop(mlir::OpBuilder& b, mlir::Location loc, mlir::func::FuncOp fn, mlir::Value end);

// Marks `fn` as laid out by a strategy: a workgroup-cooperative dispatch (kiln.distributed,
// kWorkgroupWorkersAttr) of `workgroup_size` work-items (kiln.gpu.workgroup_size), which
// the generic distribution leaves alone.
void MarkWorkgroupCooperative(mlir::func::FuncOp fn, int64_t workgroup_size);

// The functions of `module` marked with `strategy`, the mark removed: the strategy's pass
// lays each out or leaves it to the generic path (with a remark).
llvm::SmallVector<mlir::func::FuncOp> TakeMarkedDispatches(mlir::ModuleOp module, llvm::StringRef strategy);

// The op marked kiln.root in `fn` (its dispatch's root) if it is an OpT, or null.
template <typename OpT = mlir::linalg::LinalgOp>
OpT FindRoot(mlir::func::FuncOp fn) {
  OpT root{};
  fn.walk([&](OpT op) {
    if (op->hasAttr(kRootAttr)) root = op;
  });
  return root;
}

using LayOutFn = llvm::function_ref<int64_t(mlir::func::FuncOp, mlir::linalg::LinalgOp root,
                                            const OutputInitialisation& init)>;
void LayOutMarkedDispatches(mlir::ModuleOp module, llvm::StringRef strategy,
                            llvm::function_ref<bool(mlir::linalg::LinalgOp)> matches, LayOutFn layout);

// The binding (a memref argument of the dispatch function) whose contents tensor `v` is,
// through tensor.cast, or null: strategies on tensors read such tensors straight from the
// binding.
mlir::Value BindingOf(mlir::Value v);

// Ops a strategy's dispatch may hold besides its computation: reading and writing
// bindings, views of tensors, and scalar (index) arithmetic.
bool IsDispatchPlumbing(mlir::Operation* op);

// The workgroup strategy (kContractionStrategy, kReductionStrategy, kRowStrategy, kSortStrategy, kScatterStrategy) that computes dispatch
// function `fn` (on tensors), or an empty string with `why` saying what stands in the way:
// the root must match the strategy (or be the elementwise epilogue of a contraction,
// IsContractionEpilogue), its output be initialised by a fill or read from a binding, its
// inputs be read from bindings (through views), and `fn` have no other computation.
llvm::StringRef ChooseWorkgroupStrategy(mlir::func::FuncOp fn, std::string& why);

}  // namespace kiln::compiler::gpu
