// Dispatch formation: which ops become dispatch regions, which producers are cloned into
// them, and how a region is outlined into an executable function (DESIGN.md section 7,
// stage 3).
//
// An executable function has the signature
//   (input memrefs..., output memrefs..., push-constant scalars..., workgroup_id: index,
//    workgroup_count: index)
// with identity-layout memrefs whose dynamic dimensions are named by kBindingDimsAttr.
// Its body reads inputs through `bufferization.to_tensor restrict`, recomputes the
// region on tensors and writes each result with `bufferization.materialize_in_destination`
// into its output memref, so that bufferization can compute results in place.
#pragma once

#include "llvm/ADT/SetVector.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include "compiler/dialect/KilnDialect.h"

namespace kiln::compiler {

// Ops that run on the device as the root of their own dispatch: linalg ops and the tensor
// ops that move data (pad, concat, slices, insert, from_elements, splat).
bool IsDispatchRoot(mlir::Operation* op);
// Whether `op` lies inside a dispatch root's region (it becomes part of that dispatch).
bool HasRootAncestor(mlir::Operation* op);

// Ops cheap enough to recompute inside every dispatch that uses them, instead of passing
// their result as a binding: scalar and small constants, tensor.empty, linalg.fill of an
// empty tensor, and extract_slice, alone or under a reshape (so that a kernel reads
// through the views).
bool IsClonableProducer(mlir::Operation* op);

// The linalg.generic producers that join `root`'s dispatch (row fusion): every member,
// root included, computes whole rows along its outermost parallel loop, reads its
// producers' rows in step with that loop, and every user of a member is in the group.
// Tiling the root along that loop then computes each row block of every member in one
// workgroup, e.g. the max, exp, sum and divide of a softmax in one pass over the rows.
// Empty when `root` is not such a generic.
llvm::SetVector<mlir::Operation*> CollectRowFusedProducers(mlir::Operation* root);

// Outlines `root` with its clonable producers into a new function in `executables`, named
// `name`, and replaces `root` with a kiln.dispatch whose results are the used results of
// `root`: an unused result is computed in the kernel's private memory and dropped. Emits a diagnostic and fails when a
// result shape cannot be computed or a captured value cannot be passed to the device.
// `in_place` (a slice writer that FindInPlaceUpdates chose: insert_slice, scatter): its
// destination is not an input but the result's own buffer (an in_place operand of the
// dispatch), and the kernel writes only the slice into its output binding
// (kInPlaceResultsAttr).
mlir::FailureOr<DispatchOp> FormDispatch(mlir::Operation* root, mlir::ModuleOp executables, llvm::StringRef name,
                                         bool in_place = false);

// The module holding executables, created at the end of `module` on first use.
mlir::ModuleOp GetOrCreateExecutableModule(mlir::ModuleOp module);

}  // namespace kiln::compiler
