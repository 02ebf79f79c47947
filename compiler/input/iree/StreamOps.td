// IREE's `stream` dialect as kiln's input sees it: only the parameter attribute that
// exported models bind their globals with (`#stream.parameter.named<"model"::"key">`).
#ifndef KILN_COMPILER_INPUT_IREE_STREAMOPS
#define KILN_COMPILER_INPUT_IREE_STREAMOPS

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Stream_Dialect : Dialect {
  let name = "stream";
  let cppNamespace = "::kiln::compiler::iree";
  let summary = "IREE's stream parameter attribute, accepted as input";
  let useDefaultAttributePrinterParser = 1;
}

def Stream_NamedParameterAttr : AttrDef<Stream_Dialect, "StreamNamedParameter", [TypedAttrInterface]> {
  let mnemonic = "parameter.named";
  let summary = "A global's initial value read from a parameter file: scope and key";
  let description = [{
    `util.global private @w = #stream.parameter.named<"model"::"blk.0.w"> : tensor<256xf32>`:
    the runtime fills the global at load from the entry `blk.0.w` of the files given for
    scope `model` (`--parameters=model=weights.irpa`). Without a scope, `<"blk.0.w">`, the
    entry comes from the files given without one.
  }];
  // The type is the global's, written after the attribute (`... : tensor<256xf32>`).
  let parameters = (ins "::mlir::StringAttr":$scope, "::mlir::StringAttr":$key,
                        "::mlir::DictionaryAttr":$config, AttributeSelfTypeParameter<"">:$type);
  let hasCustomAssemblyFormat = 1;
}

#endif  // KILN_COMPILER_INPUT_IREE_STREAMOPS
