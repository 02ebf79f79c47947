// IREE's codegen-configuration dialects (iree_codegen, iree_gpu, iree_cpu), whose
// attributes kiln accepts as unused hints (CodegenHints.td).
#pragma once

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "compiler/input/iree/CodegenHintsCodegenDialect.h.inc"
#include "compiler/input/iree/CodegenHintsGpuDialect.h.inc"
#include "compiler/input/iree/CodegenHintsCpuDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "compiler/input/iree/CodegenHintsCodegenAttrs.h.inc"
#define GET_ATTRDEF_CLASSES
#include "compiler/input/iree/CodegenHintsGpuAttrs.h.inc"
#define GET_ATTRDEF_CLASSES
#include "compiler/input/iree/CodegenHintsCpuAttrs.h.inc"
