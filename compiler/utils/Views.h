// Views of buffers (subview, cast, reshape, ...) and what they view.
#pragma once

#include "mlir/Interfaces/ViewLikeInterface.h"

namespace kiln::compiler {

// The buffer `buffer` is a view of, through any chain of views (itself if none).
inline mlir::Value RootBuffer(mlir::Value buffer) {
  while (auto view = buffer.getDefiningOp<mlir::ViewLikeOpInterface>()) buffer = view.getViewSource();
  return buffer;
}

}  // namespace kiln::compiler
