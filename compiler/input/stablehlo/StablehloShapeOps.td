// StableHLO's constants, shape and data-movement ops: each moves or creates elements
// without arithmetic. Generic form only, except stablehlo.constant, which also has
// StableHLO's pretty form `%c = stablehlo.constant dense<1> : tensor<2xi32>`. Verifiers in
// StablehloShapeOps.cc.
#ifndef KILN_COMPILER_INPUT_STABLEHLO_SHAPEOPS
#define KILN_COMPILER_INPUT_STABLEHLO_SHAPEOPS

include "StablehloBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class Stablehlo_ShapeOp<string mnemonic, string summary_text, list<Trait> traits = []>
    : Stablehlo_Op<mnemonic, !listconcat(traits, [Pure])> {
  let summary = summary_text;
  let results = (outs AnyRankedTensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_ConstantOp : Stablehlo_ShapeOp<"constant", "A tensor of literal elements",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let arguments = (ins ElementsAttr:$value);
  let assemblyFormat = "attr-dict $value";
  let hasVerifier = 0;
}

def Stablehlo_IotaOp : Stablehlo_ShapeOp<"iota", "Each element's index along iota_dimension"> {
  let arguments = (ins I64Attr:$iota_dimension);
}

def Stablehlo_BroadcastInDimOp : Stablehlo_ShapeOp<"broadcast_in_dim",
    "Copies the operand along new dimensions; operand dimension i is broadcast_dimensions[i]"> {
  let description = [{
    Each operand dimension is either the size of its result dimension or 1 (then
    repeated along it).
  }];
  let arguments = (ins AnyRankedTensor:$operand, DenseI64ArrayAttr:$broadcast_dimensions);
}

def Stablehlo_BroadcastOp : Stablehlo_ShapeOp<"broadcast",
    "Copies the operand along leading dimensions of sizes broadcast_sizes"> {
  let arguments = (ins AnyRankedTensor:$operand, DenseI64ArrayAttr:$broadcast_sizes);
}

def Stablehlo_ReshapeOp : Stablehlo_ShapeOp<"reshape", "The operand's elements, in order, in another shape"> {
  let arguments = (ins AnyRankedTensor:$operand);
}

def Stablehlo_TransposeOp : Stablehlo_ShapeOp<"transpose",
    "Permutes dimensions: result dimension i is operand dimension permutation[i]"> {
  let arguments = (ins AnyRankedTensor:$operand, DenseI64ArrayAttr:$permutation);
}

def Stablehlo_ReverseOp : Stablehlo_ShapeOp<"reverse", "Reverses the order of elements along dimensions"> {
  let arguments = (ins AnyRankedTensor:$operand, DenseI64ArrayAttr:$dimensions);
}

def Stablehlo_SliceOp : Stablehlo_ShapeOp<"slice", "The strided slice [start_indices, limit_indices)"> {
  let arguments = (ins AnyRankedTensor:$operand, DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices, DenseI64ArrayAttr:$strides);
}

def Stablehlo_DynamicSliceOp : Stablehlo_ShapeOp<"dynamic_slice",
    "A slice of slice_sizes at run-time start indices, clamped into the operand"> {
  let arguments = (ins AnyRankedTensor:$operand, Variadic<AnyRankedTensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
}

def Stablehlo_DynamicUpdateSliceOp : Stablehlo_ShapeOp<"dynamic_update_slice",
    "The operand with update written at run-time start indices, clamped so it fits"> {
  let arguments = (ins AnyRankedTensor:$operand, AnyRankedTensor:$update,
                       Variadic<AnyRankedTensor>:$start_indices);
}

def Stablehlo_ConcatenateOp : Stablehlo_ShapeOp<"concatenate", "The inputs joined along dimension"> {
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs, I64Attr:$dimension);
}

def Stablehlo_PadOp : Stablehlo_ShapeOp<"pad",
    "The operand with padding_value around (negative: cropped) and between its elements"> {
  let arguments = (ins AnyRankedTensor:$operand, AnyRankedTensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low, DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
}

def Stablehlo_TorchIndexSelectOp : Stablehlo_ShapeOp<"torch_index_select",
    "Slices of the operand along dim at each index (torch.index_select)"> {
  let arguments = (ins AnyRankedTensor:$operand, AnyRankedTensor:$index, I64Attr:$dim, I64Attr:$batch_dims);
}

def Stablehlo_ReturnOp : Stablehlo_Op<"return", [Pure, ReturnLike, Terminator]> {
  let summary = "Returns the values of a stablehlo region";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "$results attr-dict (`:` type($results)^)?";
}

#endif  // KILN_COMPILER_INPUT_STABLEHLO_SHAPEOPS
