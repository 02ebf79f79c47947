// kiln's own definition of the `stablehlo` dialect (StableHLO's portable op set, as JAX,
// TensorFlow/XLA and PyTorch/XLA export it): the dialect, its enumerations and its
// dimension-number attributes, in StableHLO's textual syntax. The ops are in the
// Stablehlo*Ops.td files beside this one; what kiln makes of them is in
// docs/compiler.md, "StableHLO input".
#ifndef KILN_COMPILER_INPUT_STABLEHLO_BASE
#define KILN_COMPILER_INPUT_STABLEHLO_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/CommonAttrConstraints.td"

def Stablehlo_Dialect : Dialect {
  let name = "stablehlo";
  let cppNamespace = "::kiln::compiler::stablehlo";
  let summary = "StableHLO ops accepted as input";
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    // Defined with the attributes' storage (StablehloAttrs.cc).
    void registerAttributes();
  }];
}

class Stablehlo_Op<string mnemonic, list<Trait> traits = []> : Op<Stablehlo_Dialect, mnemonic, traits>;

// An enumeration written `#stablehlo<NAME VALUE>`, e.g. `#stablehlo<comparison_direction LT>`.
class Stablehlo_EnumAttr<EnumAttrInfo info, string name> : EnumAttr<Stablehlo_Dialect, info, name> {
  let assemblyFormat = "$value";
}

def Stablehlo_ComparisonDirection : I32EnumAttr<"ComparisonDirection", "how compare relates its operands", [
    I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>, I32EnumAttrCase<"GE", 2>,
    I32EnumAttrCase<"GT", 3>, I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::kiln::compiler::stablehlo";
}
def Stablehlo_ComparisonDirectionAttr : Stablehlo_EnumAttr<Stablehlo_ComparisonDirection, "comparison_direction">;

def Stablehlo_ComparisonType : I32EnumAttr<"ComparisonType", "the order compare uses", [
    I32EnumAttrCase<"NOTYPE", 0>, I32EnumAttrCase<"FLOAT", 1>, I32EnumAttrCase<"TOTALORDER", 2>,
    I32EnumAttrCase<"SIGNED", 3>, I32EnumAttrCase<"UNSIGNED", 4>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::kiln::compiler::stablehlo";
}
def Stablehlo_ComparisonTypeAttr : Stablehlo_EnumAttr<Stablehlo_ComparisonType, "comparison_type">;

def Stablehlo_Precision : I32EnumAttr<"Precision", "how precisely a contraction computes", [
    I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGH", 1>, I32EnumAttrCase<"HIGHEST", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::kiln::compiler::stablehlo";
}
def Stablehlo_PrecisionAttr : Stablehlo_EnumAttr<Stablehlo_Precision, "precision">;

def Stablehlo_RngDistribution : I32EnumAttr<"RngDistribution", "the distribution of stablehlo.rng", [
    I32EnumAttrCase<"UNIFORM", 1>, I32EnumAttrCase<"NORMAL", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::kiln::compiler::stablehlo";
}
def Stablehlo_RngDistributionAttr : Stablehlo_EnumAttr<Stablehlo_RngDistribution, "rng_distribution">;

def Stablehlo_RngAlgorithm : I32EnumAttr<"RngAlgorithm", "the generator of stablehlo.rng_bit_generator", [
    I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"THREE_FRY", 1>, I32EnumAttrCase<"PHILOX", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::kiln::compiler::stablehlo";
}
def Stablehlo_RngAlgorithmAttr : Stablehlo_EnumAttr<Stablehlo_RngAlgorithm, "rng_algorithm">;

// Dimension numbers written `#stablehlo.NAME<key = [d, ...], key = n, ...>`: keys in any
// order, a trailing comma allowed, keys left out empty (or, for index_vector_dim, 0).
// Parsed and printed by one routine (StablehloAttrs.cc).
class Stablehlo_DimensionsAttr<string name, string attr_mnemonic, dag params> : AttrDef<Stablehlo_Dialect, name> {
  let mnemonic = attr_mnemonic;
  let parameters = params;
  let hasCustomAssemblyFormat = 1;
}

def Stablehlo_DotDimensionNumbers : Stablehlo_DimensionsAttr<"DotDimensionNumbers", "dot", (ins
    OptionalArrayRefParameter<"int64_t">:$lhsBatchingDimensions,
    OptionalArrayRefParameter<"int64_t">:$rhsBatchingDimensions,
    OptionalArrayRefParameter<"int64_t">:$lhsContractingDimensions,
    OptionalArrayRefParameter<"int64_t">:$rhsContractingDimensions)>;

def Stablehlo_GatherDimensionNumbers : Stablehlo_DimensionsAttr<"GatherDimensionNumbers", "gather", (ins
    OptionalArrayRefParameter<"int64_t">:$offsetDims,
    OptionalArrayRefParameter<"int64_t">:$collapsedSliceDims,
    OptionalArrayRefParameter<"int64_t">:$operandBatchingDims,
    OptionalArrayRefParameter<"int64_t">:$startIndicesBatchingDims,
    OptionalArrayRefParameter<"int64_t">:$startIndexMap,
    "int64_t":$indexVectorDim)>;

def Stablehlo_ScatterDimensionNumbers : Stablehlo_DimensionsAttr<"ScatterDimensionNumbers", "scatter", (ins
    OptionalArrayRefParameter<"int64_t">:$updateWindowDims,
    OptionalArrayRefParameter<"int64_t">:$insertedWindowDims,
    OptionalArrayRefParameter<"int64_t">:$inputBatchingDims,
    OptionalArrayRefParameter<"int64_t">:$scatterIndicesBatchingDims,
    OptionalArrayRefParameter<"int64_t">:$scatterDimsToOperandDims,
    "int64_t":$indexVectorDim)>;

// Convolution's dimension numbers, in either of StableHLO's forms (StablehloConvolution.cc):
//   #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>   (printed so)
//   #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, ...>
def Stablehlo_ConvDimensionNumbers : AttrDef<Stablehlo_Dialect, "ConvDimensionNumbers"> {
  let mnemonic = "conv";
  let parameters = (ins
    "int64_t":$inputBatchDimension, "int64_t":$inputFeatureDimension,
    OptionalArrayRefParameter<"int64_t">:$inputSpatialDimensions,
    "int64_t":$kernelInputFeatureDimension, "int64_t":$kernelOutputFeatureDimension,
    OptionalArrayRefParameter<"int64_t">:$kernelSpatialDimensions,
    "int64_t":$outputBatchDimension, "int64_t":$outputFeatureDimension,
    OptionalArrayRefParameter<"int64_t">:$outputSpatialDimensions);
  let hasCustomAssemblyFormat = 1;
}

#endif  // KILN_COMPILER_INPUT_STABLEHLO_BASE
