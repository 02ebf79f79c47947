// Narrowing the integer vector arithmetic of generated loops to the widths their values
// provably fit in.
#pragma once

#include "mlir/IR/Operation.h"

namespace kiln::compiler {

// Rewrites the arith ops with integer vector results inside `loops` (ops under `root`) to
// the narrowest of 8, 16 or 32 bits that integer range analysis of `root` proves their
// values fit in (upstream's int-range narrowing patterns, applied to these ops only: the
// rest of `root` is unchanged). A nibble minus 8 widened to 32-bit lanes becomes a byte op
// and one sign extension. The ops in `keep` stay as they are (their width is chosen).
void NarrowIntegerVectorOps(mlir::Operation* root, llvm::ArrayRef<mlir::Operation*> loops,
                            llvm::ArrayRef<mlir::Operation*> keep = {});

}  // namespace kiln::compiler
