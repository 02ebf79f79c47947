#include "compiler/utils/ParameterArchives.h"

#include "compiler/utils/SubByteStorage.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

namespace kiln::compiler {

using namespace mlir;

std::optional<llvm::ArrayRef<char>> ConstantStorageBytes(Attribute value) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements) return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(elements.getType());
  if (!type || !type.hasStaticShape()) return std::nullopt;
  Type element = type.getElementType();
  std::optional<int64_t> element_bytes = StoredElementBytes(element);
  // i1 and sub-byte elements are packed in MLIR's storage but a byte each in kiln's.
  if (!element_bytes || element.isInteger(1) || IsSubByteElement(element)) return std::nullopt;
  const int64_t expected = type.getNumElements() * *element_bytes;
  llvm::ArrayRef<char> raw;
  if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(value)) {
    if (dense.isSplat()) return std::nullopt;  // filled on the device; never stored
    raw = dense.getRawData();
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob* blob = resource.getRawHandle().getBlob();
    if (!blob) return std::nullopt;
    raw = blob->getData();
  } else {
    return std::nullopt;
  }
  if (static_cast<int64_t>(raw.size()) != expected) return std::nullopt;
  return raw;
}

LogicalResult WriteParameterArchive(Operation* anchor, llvm::StringRef path, llvm::ArrayRef<io::IrpaRecord> records) {
  Status status = io::WriteIrpaRecords(path.str(), std::span<const io::IrpaRecord>(records.data(), records.size()));
  if (status.ok()) return success();
  return anchor->emitError() << "cannot write the parameter archive '" << path << "': " << status.ToString();
}

}  // namespace kiln::compiler
