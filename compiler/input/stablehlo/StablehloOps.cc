// The stablehlo dialect's registration and its generated op definitions.
#include "compiler/input/stablehlo/StablehloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "compiler/input/stablehlo/StablehloDialect.cpp.inc"

#define GET_OP_CLASSES
#include "compiler/input/stablehlo/StablehloOps.cpp.inc"

namespace kiln::compiler::stablehlo {

using namespace mlir;

void StablehloDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "compiler/input/stablehlo/StablehloOps.cpp.inc"
      >();
  registerAttributes();
}

LogicalResult ConstantOp::inferReturnTypes(MLIRContext*, std::optional<Location>, ValueRange, DictionaryAttr,
                                           OpaqueProperties properties, RegionRange, SmallVectorImpl<Type>& types) {
  const auto* props = properties.as<Properties*>();
  auto value = props ? dyn_cast_or_null<TypedAttr>(props->value) : nullptr;
  if (!value) return failure();
  types.push_back(value.getType());
  return success();
}

void RegisterStablehloDialect(DialectRegistry& registry) { registry.insert<StablehloDialect>(); }

}  // namespace kiln::compiler::stablehlo
