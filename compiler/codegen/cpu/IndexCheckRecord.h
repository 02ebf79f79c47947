// The index check record of checked mode (kiln-compile --check-indices) as kernels see it:
// which sites a function checks, and kiln.index_check ops lowered to writes of the
// record (hal/abi/executable_abi.h, kiln_index_check_record_v2_t: site, index, bound).
// Shared by the CPU entry points (kiln-cpu-wrap-entry-points, kiln-cpu-lower-index-checks)
// and the GPU kernels (kiln-gpu-form-kernels).
#pragma once

#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace kiln::compiler::cpu {

// Records the distinct sites of `fn`'s index checks, in the order of first appearance, in
// kIndexCheckSitesAttr and returns them; null (and no attribute) when `fn` has none.
mlir::ArrayAttr CollectIndexCheckSites(mlir::func::FuncOp fn);

// Who writes a record, and so how a failing check claims it.
enum class IndexCheckClaim {
  // One thread per record (a CPU workgroup): the first failing check in loop order stores
  // its site if the site word is still 0.
  kSequential,
  // Work-items running at once (a GPU workgroup): an atomic compare-and-swap of the site
  // word from 0 (memref.generic_atomic_rmw, its update in the LLVM dialect) decides which
  // failing check fills the record.
  kAtomic,
};

// Replaces every kiln.index_check in `root` by: when the index is outside [0, bound) (and
// `enabled` holds), claim `record` (a memref<3xi64>) per `claim` and, having claimed it,
// store 1 + the position of the check's site in `sites`, the index and the bound. An error
// on a check whose site is not in `sites`.
mlir::LogicalResult LowerIndexChecks(mlir::Operation* root, mlir::ArrayAttr sites, mlir::Value record,
                                     IndexCheckClaim claim);

}  // namespace kiln::compiler::cpu
