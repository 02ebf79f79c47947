// StableHLO's ops with dimension numbers or a computation region: reductions, sort,
// gather and scatter, and contractions. Generic form. Verifiers in
// StablehloStructuredOps.cc.
#ifndef KILN_COMPILER_INPUT_STABLEHLO_STRUCTUREDOPS
#define KILN_COMPILER_INPUT_STABLEHLO_STRUCTUREDOPS

include "StablehloBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Stablehlo_StructuredOp<string mnemonic, string summary_text, list<Trait> traits = []>
    : Stablehlo_Op<mnemonic, !listconcat(traits, [Pure])> {
  let summary = summary_text;
  let hasVerifier = 1;
}

def Stablehlo_ReduceOp : Stablehlo_StructuredOp<"reduce", "Reduces inputs along dimensions with a body",
    [IsolatedFromAbove]> {
  let description = [{
    ```mlir
    %r = "stablehlo.reduce"(%x, %zero) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    ```
    The operands are N inputs then N 0-d init values; the body takes N accumulators and
    N elements (0-d tensors) and returns N. With N > 1 it reduces the inputs together
    (an argmax: values and indices).
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$operands, DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let extraClassDeclaration = [{
    ::mlir::OperandRange getInputs() { return getOperands().take_front(getOperands().size() / 2); }
    ::mlir::OperandRange getInitValues() { return getOperands().drop_front(getOperands().size() / 2); }
  }];
}

def Stablehlo_SortOp : Stablehlo_StructuredOp<"sort", "Sorts the inputs together along dimension by a comparator"> {
  let description = [{
    The comparator takes two 0-d elements of each input (left, right; input by input) and
    returns a 0-d i1: whether left goes before right. `dimension` -1 is the last.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs, DefaultValuedAttr<I64Attr, "-1">:$dimension,
                       DefaultValuedAttr<BoolAttr, "false">:$is_stable);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$comparator);
}

def Stablehlo_GatherOp : Stablehlo_StructuredOp<"gather", "Slices of the operand at positions read from start_indices"> {
  let arguments = (ins AnyRankedTensor:$operand, AnyRankedTensor:$start_indices,
                       Stablehlo_GatherDimensionNumbers:$dimension_numbers, DenseI64ArrayAttr:$slice_sizes,
                       DefaultValuedAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs AnyRankedTensor:$result);
}

def Stablehlo_ScatterOp : Stablehlo_StructuredOp<"scatter",
    "The inputs with updates combined in at positions read from scatter_indices"> {
  let description = [{
    The operands are N inputs, the scatter indices, then N updates; the body combines an
    input element with an update element (0-d tensors, N of each) and returns N.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$operands,
                       Stablehlo_ScatterDimensionNumbers:$scatter_dimension_numbers,
                       DefaultValuedAttr<BoolAttr, "false">:$indices_are_sorted,
                       DefaultValuedAttr<BoolAttr, "false">:$unique_indices);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$update_computation);
  let extraClassDeclaration = [{
    size_t getNumInputs() { return (getOperands().size() - 1) / 2; }
    ::mlir::OperandRange getInputs() { return getOperands().take_front(getNumInputs()); }
    ::mlir::Value getScatterIndices() { return getOperands()[getNumInputs()]; }
    ::mlir::OperandRange getUpdates() { return getOperands().drop_front(getNumInputs() + 1); }
  }];
}

def Stablehlo_DotOp : Stablehlo_StructuredOp<"dot", "Vector and matrix products of rank-1 and rank-2 operands"> {
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs, OptionalAttr<ArrayAttr>:$precision_config);
  let results = (outs AnyRankedTensor:$result);
}

def Stablehlo_DotGeneralOp : Stablehlo_StructuredOp<"dot_general",
    "Contraction with batching and contracting dimensions on each side"> {
  let description = [{
    The result's dimensions are the batch dimensions (in lhs_batching_dimensions' order),
    then lhs's free dimensions, then rhs's, each in order.
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       Stablehlo_DotDimensionNumbers:$dot_dimension_numbers,
                       OptionalAttr<ArrayAttr>:$precision_config);
  let results = (outs AnyRankedTensor:$result);
}

def Stablehlo_ReduceWindowOp : Stablehlo_StructuredOp<"reduce_window",
    "Reduces each window of the inputs with a body", [IsolatedFromAbove]> {
  let description = [{
    The operands are N inputs then N 0-d init values, as for reduce. Result element i is
    the reduction of the window of `window_dimensions` starting at i * window_strides in
    the inputs padded with the init values by `padding` ([rank, 2]: low, high), its
    elements window_dilations apart.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$operands, DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let extraClassDeclaration = [{
    ::mlir::OperandRange getInputs() { return getOperands().take_front(getOperands().size() / 2); }
    ::mlir::OperandRange getInitValues() { return getOperands().drop_front(getOperands().size() / 2); }
  }];
}

def Stablehlo_BatchNormInferenceOp : Stablehlo_StructuredOp<"batch_norm_inference",
    "Normalizes the operand along feature_index with given mean and variance"> {
  let description = [{
    scale * (operand - mean) / sqrt(variance + epsilon) + offset, with scale, offset,
    mean and variance 1-d along dimension feature_index of the operand.
  }];
  let arguments = (ins AnyRankedTensor:$operand, AnyRankedTensor:$scale, AnyRankedTensor:$offset,
                       AnyRankedTensor:$mean, AnyRankedTensor:$variance, F32Attr:$epsilon, I64Attr:$feature_index);
  let results = (outs AnyRankedTensor:$result);
}

def Stablehlo_ConvolutionOp : Stablehlo_StructuredOp<"convolution",
    "Convolution of lhs (the input) with rhs (the kernel), with groups and dilations"> {
  let description = [{
    ```mlir
    %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
        window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
        {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
        : (tensor<1x4x4x2xf32>, tensor<3x2x2x1xf32>) -> tensor<1x2x3x1xf32>
    ```
    or the generic form with `dimension_numbers = #stablehlo.conv<...>`, `window_strides`,
    `padding` ([spatial rank, 2]: low, high; negative crops), `lhs_dilation`,
    `rhs_dilation` and `window_reversal`. The input is dilated and padded with zeros; each
    output element sums input times kernel over a window and the input features of its
    group: with feature_group_count G, the input features and the output features are split
    into G groups, output group g reading input group g; with batch_group_count B, the
    input batch is split into B groups, output feature group g reading batch group g.
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       Stablehlo_ConvDimensionNumbers:$dimension_numbers,
                       I64Attr:$feature_group_count, I64Attr:$batch_group_count,
                       OptionalAttr<ArrayAttr>:$precision_config);
  let results = (outs AnyRankedTensor:$result);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    // Per spatial dimension, with the defaults of the attributes left out.
    llvm::SmallVector<int64_t> getStrides();
    llvm::SmallVector<int64_t> getLhsDilations();
    llvm::SmallVector<int64_t> getRhsDilations();
    llvm::SmallVector<std::pair<int64_t, int64_t>> getPads();
    llvm::SmallVector<bool> getReversals();
  }];
}

#endif  // KILN_COMPILER_INPUT_STABLEHLO_STRUCTUREDOPS
