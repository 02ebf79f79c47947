// Which slice writes into a mutable global may run in place: the dispatch writes only the
// slice into the global's own buffer, instead of a copy of the whole tensor with the slice
// changed (a KV cache appended one position per call moves one row, not the cache).
//
// On the host program before dispatch formation (func.func, util.global.load/store). A
// candidate is a root slice writer (`tensor.insert_slice`, or `iree_linalg_ext.scatter`
// with one output: InPlaceDestination) whose destination is either a load of a
// mutable tensor global @G or another candidate, has no other use, and whose chain of
// candidates ends in a `util.global.store` to @G in the same block. In place is then
// observably the same as a copy when nothing else can see @G's buffer after the write:
//  - every load of @G and every value stored to @G stays in its block and is only read by
//    dispatch roots, tensor.dim and tensor.extract (directly or through views and clonable
//    producers), or stored back to @G: never returned, passed to a call, branched on, or
//    stored to another global (such a value would share @G's buffer with the caller or
//    another global);
//  - every value stored to @G is computed on the device (a dispatch root's fresh result)
//    or loaded from @G: never a function argument or a constant (the module's constants
//    are shared by every call);
//  - in the candidate's block, every other value that shares @G's buffer has its last read
//    before the candidate, no load of @G lies between the chain's load and its store, and
//    no call lies where such a value is live (the callee may write @G in place).
// Anything else keeps the copy: the analysis only ever removes copies it can prove unseen.
#pragma once

#include "llvm/ADT/DenseSet.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/BuiltinOps.h"

namespace kiln::compiler {

// The tensor whose contents `op` changes only in part and returns (the destination of an
// insert_slice, the original of a one-output scatter), or null for other ops.
mlir::Value InPlaceDestination(mlir::Operation* op);
// What such an op writes into its destination (the insert's source, the scatter's
// updates): the bytes an in-place write moves. Null for other ops.
mlir::Value InPlaceSource(mlir::Operation* op);

// The root slice writers of `module` whose destination may be written in place.
llvm::DenseSet<mlir::Operation*> FindInPlaceUpdates(mlir::ModuleOp module);

}  // namespace kiln::compiler
