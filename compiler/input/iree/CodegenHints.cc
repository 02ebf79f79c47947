#include "compiler/input/iree/CodegenHints.h"

#include "mlir/IR/Builders.h"

#define GET_ATTRDEF_CLASSES
#include "compiler/input/iree/CodegenHintsCodegenAttrs.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "compiler/input/iree/CodegenHintsGpuAttrs.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "compiler/input/iree/CodegenHintsCpuAttrs.cpp.inc"

#include "compiler/input/iree/CodegenHintsCodegenDialect.cpp.inc"
#include "compiler/input/iree/CodegenHintsGpuDialect.cpp.inc"
#include "compiler/input/iree/CodegenHintsCpuDialect.cpp.inc"

namespace kiln::compiler::iree {
namespace {

// The attribute's whole text (`translation_info<...>`), as written: nested attributes
// and aliases inside it stay text, since nothing reads them.
template <typename Hint>
mlir::Attribute ParseHint(mlir::DialectAsmParser& parser) {
  return Hint::get(parser.getContext(), parser.getFullSymbolSpec());
}

template <typename Hint>
void PrintHint(mlir::Attribute attr, mlir::DialectAsmPrinter& printer) {
  printer << mlir::cast<Hint>(attr).getSpec();
}

}  // namespace

// The three dialects differ only in name: each holds one HintAttr.
#define KILN_HINT_DIALECT(ns, Dialect)                                                               \
  void ns::Dialect::initialize() { addAttributes<ns::HintAttr>(); }                                   \
  mlir::Attribute ns::Dialect::parseAttribute(mlir::DialectAsmParser& parser, mlir::Type) const {    \
    return ParseHint<ns::HintAttr>(parser);                                                           \
  }                                                                                                   \
  void ns::Dialect::printAttribute(mlir::Attribute attr, mlir::DialectAsmPrinter& printer) const {   \
    PrintHint<ns::HintAttr>(attr, printer);                                                           \
  }

KILN_HINT_DIALECT(codegen, IreeCodegenDialect)
KILN_HINT_DIALECT(gpu, IreeGpuDialect)
KILN_HINT_DIALECT(cpu, IreeCpuDialect)
#undef KILN_HINT_DIALECT

}  // namespace kiln::compiler::iree
