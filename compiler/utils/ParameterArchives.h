// What the compiler's parameter passes share (kiln-export-parameters,
// kiln-splat-parameters): which constants can live in a parameter file, their bytes as
// kiln's buffers hold them, and writing an IREE parameter archive (io/irpa_writer.h).
#pragma once

#include <optional>
#include <string>

#include "io/irpa_writer.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

namespace kiln::compiler {

// The bytes of `value` exactly as a kiln buffer of its type holds them, when they can be
// taken from the attribute without a copy: a non-splat dense or dense_resource tensor of
// integers or floats of whole bytes (not i1, whose dense storage is bit-packed, nor
// sub-byte types). nullopt for anything else; such constants stay in the module.
std::optional<llvm::ArrayRef<char>> ConstantStorageBytes(mlir::Attribute value);

// Writes `records` to the archive at `path`; an error at `anchor` naming the path and the
// reason when that fails.
mlir::LogicalResult WriteParameterArchive(mlir::Operation* anchor, llvm::StringRef path,
                                          llvm::ArrayRef<io::IrpaRecord> records);

}  // namespace kiln::compiler
