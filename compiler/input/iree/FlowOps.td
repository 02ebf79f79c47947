// IREE's `flow.tensor.*` ops that test programs use, in IREE's textual syntax.
#ifndef KILN_COMPILER_INPUT_IREE_FLOWOPS
#define KILN_COMPILER_INPUT_IREE_FLOWOPS

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/AttrTypeBase.td"

def Flow_Dialect : Dialect {
  let name = "flow";
  let cppNamespace = "::kiln::compiler::iree";
  let summary = "IREE's flow.tensor ops accepted as input";
  let useDefaultAttributePrinterParser = 1;
}

def Flow_NamedParameterAttr : AttrDef<Flow_Dialect, "NamedParameter", [TypedAttrInterface]> {
  let mnemonic = "parameter.named";
  let summary = "A global's initial value read from a parameter file: scope and key";
  let description = [{
    `#flow.parameter.named<"model"::"blk.0.w">` (or without a scope, `<"blk.0.w">`; a
    dictionary of options may follow the key). The same as `#stream.parameter.named`.
  }];
  // The type is the global's, written after the attribute (`... : tensor<256xf32>`).
  let parameters = (ins "::mlir::StringAttr":$scope, "::mlir::StringAttr":$key,
                        "::mlir::DictionaryAttr":$config, AttributeSelfTypeParameter<"">:$type);
  let hasCustomAssemblyFormat = 1;
}

class Flow_Op<string mnemonic, list<Trait> traits = []> : Op<Flow_Dialect, mnemonic, traits>;

def Flow_TensorDynamicConstantOp : Flow_Op<"tensor.dynamic_constant"> {
  let summary = "A constant whose type hides some of its static dimensions";
  let description = [{
    ```mlir
    %0 = flow.tensor.dynamic_constant dense<1.0> : tensor<2x3xf32> -> tensor<?x3xf32>
    ```
    The value of `value`, typed with the (less static) result type, so that a test
    exercises the dynamic-shape path. Like `util.unfoldable_constant`, never folded.
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict $value `->` type($result)";
  let hasVerifier = 1;
}

def Flow_TensorTieShapeOp : Flow_Op<"tensor.tie_shape", [Pure, AllTypesMatch<["operand", "result"]>]> {
  let summary = "Names the dynamic dimensions of a tensor";
  let description = [{
    ```mlir
    %1 = flow.tensor.tie_shape %0 : tensor<?x?xi32>{%h, %w}
    ```
    Returns `operand`; kiln computes dimensions itself, so it is dropped on input.
  }];
  let arguments = (ins AnyRankedTensor:$operand, Variadic<Index>:$dynamic_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result) (`{` $dynamic_dims^ `}`)?";
}

class Flow_TensorViewOp<string mnemonic, string what> : Flow_Op<mnemonic, [Pure, AttrSizedOperandSegments]> {
  let arguments = (ins AnyRankedTensor:$source, Variadic<Index>:$source_dims, Variadic<Index>:$result_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `:` type($source) (`{` $source_dims^ `}`)? `->` type($result) (`{` $result_dims^ `}`)? attr-dict
  }];
  let hasVerifier = 1;
}

def Flow_TensorBitCastOp : Flow_TensorViewOp<"tensor.bitcast", "bits"> {
  let summary = "Reinterprets a tensor's bytes with another element type and shape";
  let description = [{
    ```mlir
    %1 = flow.tensor.bitcast %0 : tensor<4xi8> -> tensor<8xf4E2M1FN>
    ```
    Source and result hold the same number of bytes; the host program makes a new view
    of the same buffer.
  }];
}

def Flow_TensorReshapeOp : Flow_TensorViewOp<"tensor.reshape", "elements"> {
  let summary = "Gives a tensor another shape with the same elements in the same order";
  let description = [{
    ```mlir
    %1 = flow.tensor.reshape %0 : tensor<?x4xf32>{%n} -> tensor<?xf32>{%m}
    ```
    Same element type and element count; the host program makes a new view of the same
    buffer with the result's dimensions.
  }];
}

#endif  // KILN_COMPILER_INPUT_IREE_FLOWOPS
