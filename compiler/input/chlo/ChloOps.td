// kiln's own definition of the `chlo` dialect: the client ops JAX and TensorFlow emit beside
// StableHLO ("client HLO"): binary ops with implicit broadcasting, and elementwise functions
// StableHLO has no op for. Written from CHLO's documented semantics. Parsed in CHLO's pretty
// and generic forms; kiln-lower-stablehlo lowers them (compiler/input/chlo/lowering) with
// the stablehlo ops. docs/compiler.md, "StableHLO input".
#ifndef KILN_COMPILER_INPUT_CHLO_OPS
#define KILN_COMPILER_INPUT_CHLO_OPS

include "../stablehlo/StablehloBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Chlo_Dialect : Dialect {
  let name = "chlo";
  let cppNamespace = "::kiln::compiler::chlo";
  let summary = "CHLO's client ops accepted as input beside StableHLO";
  let description = [{
    The ops of CHLO that programs exported from JAX contain: `chlo.broadcast_*` binary
    ops, which broadcast their operands numpy-style (or along `broadcast_dimensions`),
    elementwise special functions (erf, lgamma, ...), the float class tests and top_k.
  }];
  let useDefaultAttributePrinterParser = 1;
  // Its lowering makes stablehlo ops.
  let dependentDialects = ["::kiln::compiler::stablehlo::StablehloDialect"];
}

class Chlo_Op<string mnemonic, list<Trait> traits = []> : Op<Chlo_Dialect, mnemonic, !listconcat(traits, [Pure])>;

// `#chlo<comparison_direction LT>`, `#chlo<comparison_type FLOAT>`: StableHLO's enumerations.
def Chlo_ComparisonDirectionAttr : EnumAttr<Chlo_Dialect, Stablehlo_ComparisonDirection, "comparison_direction"> {
  let assemblyFormat = "$value";
  let constBuilderCall = "::kiln::compiler::chlo::ComparisonDirectionAttr::get($_builder.getContext(), $0)";
}
def Chlo_ComparisonTypeAttr : EnumAttr<Chlo_Dialect, Stablehlo_ComparisonType, "comparison_type"> {
  let assemblyFormat = "$value";
  let constBuilderCall = "::kiln::compiler::chlo::ComparisonTypeAttr::get($_builder.getContext(), $0)";
}

// ---------------------------------------------------------------------------------------
// Broadcasting binary ops:
//   %r = chlo.broadcast_add %a, %b : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
//   %r = "chlo.broadcast_add"(%a, %b) {broadcast_dimensions = array<i64: 1>} : (...) -> ...
// Without broadcast_dimensions, the operands' shapes are aligned at their last dimension
// (the lower-rank one gets leading dimensions of size 1); with it, the lower-rank operand's
// dimension i is the higher-rank operand's dimension broadcast_dimensions[i]. Aligned sizes
// must be equal, or one of them 1 (repeated to the other's size). Verifiers in ChloOps.cc
// (the rule in ChloBroadcast.h).
class Chlo_BroadcastingOp<string mnemonic, string summary_text, dag extra_args = (ins)>
    : Chlo_Op<mnemonic> {
  let summary = summary_text;
  let description = [{
    The operands are broadcast to the result's shape (numpy's rule, or the lower-rank
    operand's dimensions placed by `broadcast_dimensions`), then combined elementwise as the
    stablehlo op of the same name does.
  }];
  let arguments = !con((ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                            OptionalAttr<DenseI64ArrayAttr>:$broadcast_dimensions), extra_args);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type($result)";
  let hasVerifier = 1;
}

def Chlo_BroadcastAddOp : Chlo_BroadcastingOp<"broadcast_add", "Broadcasting sum">;
def Chlo_BroadcastSubOp : Chlo_BroadcastingOp<"broadcast_subtract", "Broadcasting difference">;
def Chlo_BroadcastMulOp : Chlo_BroadcastingOp<"broadcast_multiply", "Broadcasting product">;
def Chlo_BroadcastDivOp : Chlo_BroadcastingOp<"broadcast_divide", "Broadcasting quotient">;
def Chlo_BroadcastRemOp : Chlo_BroadcastingOp<"broadcast_remainder", "Broadcasting remainder">;
def Chlo_BroadcastMaxOp : Chlo_BroadcastingOp<"broadcast_maximum", "Broadcasting maximum (NaN propagating)">;
def Chlo_BroadcastMinOp : Chlo_BroadcastingOp<"broadcast_minimum", "Broadcasting minimum (NaN propagating)">;
def Chlo_BroadcastPowOp : Chlo_BroadcastingOp<"broadcast_power", "Broadcasting power">;
def Chlo_BroadcastAtan2Op : Chlo_BroadcastingOp<"broadcast_atan2", "Broadcasting atan2">;
def Chlo_BroadcastAndOp : Chlo_BroadcastingOp<"broadcast_and", "Broadcasting bitwise and">;
def Chlo_BroadcastOrOp : Chlo_BroadcastingOp<"broadcast_or", "Broadcasting bitwise or">;
def Chlo_BroadcastXorOp : Chlo_BroadcastingOp<"broadcast_xor", "Broadcasting bitwise exclusive or">;
def Chlo_BroadcastShiftLeftOp : Chlo_BroadcastingOp<"broadcast_shift_left", "Broadcasting shift left">;
def Chlo_BroadcastShiftRightArithmeticOp
    : Chlo_BroadcastingOp<"broadcast_shift_right_arithmetic", "Broadcasting arithmetic shift right">;
def Chlo_BroadcastShiftRightLogicalOp
    : Chlo_BroadcastingOp<"broadcast_shift_right_logical", "Broadcasting logical shift right">;
def Chlo_BroadcastCompareOp : Chlo_BroadcastingOp<"broadcast_compare", "Broadcasting compare, giving i1",
    (ins Chlo_ComparisonDirectionAttr:$comparison_direction, OptionalAttr<Chlo_ComparisonTypeAttr>:$compare_type)>;

def Chlo_BroadcastSelectOp : Chlo_Op<"broadcast_select"> {
  let summary = "Broadcasting select";
  let description = [{
    ```mlir
    %r = chlo.broadcast_select %pred, %t, %f : (tensor<4xi1>, tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
    ```
    The three operands are broadcast numpy-style to the result's shape; where `pred` holds
    the element of `on_true`, else that of `on_false`.
  }];
  let arguments = (ins AnyRankedTensor:$pred, AnyRankedTensor:$on_true, AnyRankedTensor:$on_false);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $pred `,` $on_true `,` $on_false attr-dict `:`
    `(` type($pred) `,` type($on_true) `,` type($on_false) `)` `->` type($result)
  }];
  let hasVerifier = 1;
}

// ---------------------------------------------------------------------------------------
// Elementwise functions, `%r = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>`: result of
// the operand's shape; of its element type, or i1 for the class tests.
class Chlo_UnaryOp<string mnemonic, string summary_text, bit gives_bool = 0> : Chlo_Op<mnemonic> {
  let summary = summary_text;
  let arguments = (ins AnyRankedTensor:$operand);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() { return VerifyUnary(*this, }] # !if(gives_bool, "true", "false") # [{); }
  }];
}

def Chlo_AcosOp : Chlo_UnaryOp<"acos", "Arc cosine">;
def Chlo_AcoshOp : Chlo_UnaryOp<"acosh", "Inverse hyperbolic cosine">;
def Chlo_AsinOp : Chlo_UnaryOp<"asin", "Arc sine">;
def Chlo_AsinhOp : Chlo_UnaryOp<"asinh", "Inverse hyperbolic sine">;
def Chlo_AtanOp : Chlo_UnaryOp<"atan", "Arc tangent">;
def Chlo_AtanhOp : Chlo_UnaryOp<"atanh", "Inverse hyperbolic tangent">;
def Chlo_CoshOp : Chlo_UnaryOp<"cosh", "Hyperbolic cosine">;
def Chlo_SinhOp : Chlo_UnaryOp<"sinh", "Hyperbolic sine">;
def Chlo_TanOp : Chlo_UnaryOp<"tan", "Tangent">;
def Chlo_ErfOp : Chlo_UnaryOp<"erf", "Error function">;
def Chlo_ErfcOp : Chlo_UnaryOp<"erfc", "Complementary error function, 1 - erf(x)">;
def Chlo_ErfInvOp : Chlo_UnaryOp<"erf_inv", "Inverse of the error function on (-1, 1)"> {
  let description = [{
    erf_inv(x) is the y with erf(y) = x; +-inf at +-1, NaN outside [-1, 1]. kiln computes it
    with M. Giles' single-precision polynomial approximations ("Approximating the erfinv
    function", GPU Computing Gems, 2011), in f32 for narrower floats.
  }];
}
def Chlo_LgammaOp : Chlo_UnaryOp<"lgamma", "Natural logarithm of |gamma(x)|"> {
  let description = [{
    Computed with Lanczos' approximation (g = 7, nine coefficients) for x >= 0.5 and the
    reflection formula below; +inf at the poles (zero and the negative integers).
  }];
}
def Chlo_DigammaOp : Chlo_UnaryOp<"digamma", "Logarithmic derivative of gamma"> {
  let description = [{
    Computed by the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 6, then the asymptotic
    series; the reflection formula for negative x; NaN at the poles.
  }];
}
def Chlo_IsInfOp : Chlo_UnaryOp<"is_inf", "Whether each element is +inf or -inf", 1>;
def Chlo_IsPosInfOp : Chlo_UnaryOp<"is_pos_inf", "Whether each element is +inf", 1>;
def Chlo_IsNegInfOp : Chlo_UnaryOp<"is_neg_inf", "Whether each element is -inf", 1>;

def Chlo_TopKOp : Chlo_Op<"top_k"> {
  let summary = "The k largest elements along the last dimension and their indices";
  let description = [{
    ```mlir
    %values, %indices = chlo.top_k(%x, k = 3) : tensor<2x10xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
    ```
    Sorted largest first; equal elements keep their order (the lower index first). Lowered
    to iree_linalg_ext.topk.
  }];
  let arguments = (ins AnyRankedTensor:$operand, I64Attr:$k);
  let results = (outs AnyRankedTensor:$values, AnyRankedTensor:$indices);
  let assemblyFormat = "`(` $operand `,` `k` `=` $k `)` attr-dict `:` type($operand) `->` `(` type($values) `,` type($indices) `)`";
  let hasVerifier = 1;
}

#endif  // KILN_COMPILER_INPUT_CHLO_OPS
