// Source locations as kiln reports them: "file.mlir:12:3".
#pragma once

#include <string>

#include "mlir/IR/Location.h"

namespace kiln::compiler {

// The first file:line:col found in `loc` (looking through names, call sites and fused
// locations), or an empty string.
std::string LocationString(mlir::Location loc);

}  // namespace kiln::compiler
