// StableHLO's elementwise ops. Every one has the generic form
//   %r = "stablehlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// and StableHLO's pretty form, with one type when operands and results share it:
//   %r = stablehlo.add %a, %b : tensor<4xf32>
//   %r = stablehlo.convert %x : (tensor<4xi32>) -> tensor<4xf32>
// Operands and results have one shape (no implicit broadcasting); the verifiers
// (StablehloElementwiseOps.cc) name the operand that breaks it.
#ifndef KILN_COMPILER_INPUT_STABLEHLO_ELEMENTWISEOPS
#define KILN_COMPILER_INPUT_STABLEHLO_ELEMENTWISEOPS

include "StablehloBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// An op in the pretty form `operands attr-dict : type` or `: (types) -> type`.
class Stablehlo_PrettyOp<string mnemonic, list<Trait> traits = []> : Stablehlo_Op<mnemonic, !listconcat(traits, [Pure])> {
  let results = (outs AnyRankedTensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  code parsePrint = [{
    ::mlir::ParseResult $cppClass::parse(::mlir::OpAsmParser& parser, ::mlir::OperationState& result) {
      return ParseElementwise(parser, result);
    }
    void $cppClass::print(::mlir::OpAsmPrinter& printer) { PrintElementwise(printer, *this); }
  }];
  let extraClassDefinition = parsePrint;
}

class Stablehlo_ElementwiseOp<string mnemonic, dag args, string rule> : Stablehlo_PrettyOp<mnemonic> {
  let arguments = args;
  let extraClassDefinition = parsePrint # [{
    ::mlir::LogicalResult $cppClass::verify() { return VerifyElementwise(*this, ElementRule::}] # rule # [{); }
  }];
}

// Results of the operands' element type.
class Stablehlo_UnaryOp<string mnemonic, string summary_text>
    : Stablehlo_ElementwiseOp<mnemonic, (ins AnyRankedTensor:$operand), "kSame"> {
  let summary = summary_text;
}
class Stablehlo_BinaryOp<string mnemonic, string summary_text>
    : Stablehlo_ElementwiseOp<mnemonic, (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs), "kSame"> {
  let summary = summary_text;
}

def Stablehlo_AbsOp : Stablehlo_UnaryOp<"abs", "Absolute value">;
def Stablehlo_NegOp : Stablehlo_UnaryOp<"negate", "Negation">;
def Stablehlo_ExpOp : Stablehlo_UnaryOp<"exponential", "e to the operand">;
def Stablehlo_Expm1Op : Stablehlo_UnaryOp<"exponential_minus_one", "e to the operand, minus one">;
def Stablehlo_LogOp : Stablehlo_UnaryOp<"log", "Natural logarithm">;
def Stablehlo_Log1pOp : Stablehlo_UnaryOp<"log_plus_one", "Natural logarithm of one plus the operand">;
def Stablehlo_LogisticOp : Stablehlo_UnaryOp<"logistic", "1 / (1 + e^-x)">;
def Stablehlo_SineOp : Stablehlo_UnaryOp<"sine", "Sine">;
def Stablehlo_CosineOp : Stablehlo_UnaryOp<"cosine", "Cosine">;
def Stablehlo_TanOp : Stablehlo_UnaryOp<"tan", "Tangent">;
def Stablehlo_TanhOp : Stablehlo_UnaryOp<"tanh", "Hyperbolic tangent">;
def Stablehlo_SqrtOp : Stablehlo_UnaryOp<"sqrt", "Square root">;
def Stablehlo_RsqrtOp : Stablehlo_UnaryOp<"rsqrt", "Reciprocal square root">;
def Stablehlo_CbrtOp : Stablehlo_UnaryOp<"cbrt", "Cube root">;
def Stablehlo_FloorOp : Stablehlo_UnaryOp<"floor", "Rounds toward negative infinity">;
def Stablehlo_CeilOp : Stablehlo_UnaryOp<"ceil", "Rounds toward positive infinity">;
def Stablehlo_RoundOp : Stablehlo_UnaryOp<"round_nearest_afz", "Rounds to nearest, ties away from zero">;
def Stablehlo_RoundEvenOp : Stablehlo_UnaryOp<"round_nearest_even", "Rounds to nearest, ties to even">;
def Stablehlo_SignOp : Stablehlo_UnaryOp<"sign", "-1, 0 or 1 by the operand's sign (NaN stays NaN)">;
def Stablehlo_NotOp : Stablehlo_UnaryOp<"not", "Bitwise (logical for i1) not">;
def Stablehlo_PopcntOp : Stablehlo_UnaryOp<"popcnt", "Number of set bits">;
def Stablehlo_ClzOp : Stablehlo_UnaryOp<"count_leading_zeros", "Number of leading zero bits">;

def Stablehlo_AddOp : Stablehlo_BinaryOp<"add", "Sum (logical or for i1)">;
def Stablehlo_SubtractOp : Stablehlo_BinaryOp<"subtract", "Difference">;
def Stablehlo_MulOp : Stablehlo_BinaryOp<"multiply", "Product (logical and for i1)">;
def Stablehlo_DivOp : Stablehlo_BinaryOp<"divide", "Quotient; integers round toward zero">;
def Stablehlo_RemOp : Stablehlo_BinaryOp<"remainder", "Remainder with the dividend's sign">;
def Stablehlo_MaxOp : Stablehlo_BinaryOp<"maximum", "Larger operand; NaN if either is NaN">;
def Stablehlo_MinOp : Stablehlo_BinaryOp<"minimum", "Smaller operand; NaN if either is NaN">;
def Stablehlo_PowOp : Stablehlo_BinaryOp<"power", "lhs to the power rhs">;
def Stablehlo_Atan2Op : Stablehlo_BinaryOp<"atan2", "Arc tangent of lhs / rhs in the right quadrant">;
def Stablehlo_AndOp : Stablehlo_BinaryOp<"and", "Bitwise and">;
def Stablehlo_OrOp : Stablehlo_BinaryOp<"or", "Bitwise or">;
def Stablehlo_XorOp : Stablehlo_BinaryOp<"xor", "Bitwise exclusive or">;
def Stablehlo_ShiftLeftOp : Stablehlo_BinaryOp<"shift_left", "lhs shifted left by rhs bits (0 past the width)">;
def Stablehlo_ShiftRightArithmeticOp
    : Stablehlo_BinaryOp<"shift_right_arithmetic", "lhs shifted right by rhs bits, sign filled">;
def Stablehlo_ShiftRightLogicalOp
    : Stablehlo_BinaryOp<"shift_right_logical", "lhs shifted right by rhs bits, zero filled">;

def Stablehlo_IsFiniteOp : Stablehlo_ElementwiseOp<"is_finite", (ins AnyRankedTensor:$x), "kBool"> {
  let summary = "Whether each float element is neither infinite nor NaN";
}

def Stablehlo_ConvertOp : Stablehlo_ElementwiseOp<"convert", (ins AnyRankedTensor:$operand), "kAny"> {
  let summary = "Converts each element to the result's element type";
  let description = [{
    Floats round to nearest even; floats to integers round toward zero (out-of-range values
    saturate); integers are sign-extended or truncated; to i1, non-zero is true.
  }];
}

def Stablehlo_BitcastConvertOp
    : Stablehlo_ElementwiseOp<"bitcast_convert", (ins AnyRankedTensor:$operand), "kSameWidth"> {
  let summary = "Reinterprets each element's bits as the result's element type";
}

def Stablehlo_CompareOp : Stablehlo_Op<"compare", [Pure]> {
  let summary = "Compares elementwise, giving i1";
  let description = [{
    ```mlir
    %r = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %r = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>}
        : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    ```
    Without a comparison type, floats compare as FLOAT (every comparison with NaN false,
    except NE), integers as SIGNED.
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       Stablehlo_ComparisonDirectionAttr:$comparison_direction,
                       OptionalAttr<Stablehlo_ComparisonTypeAttr>:$compare_type);
  let results = (outs AnyRankedTensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Stablehlo_SelectOp : Stablehlo_PrettyOp<"select"> {
  let summary = "Picks on_true where pred holds, else on_false";
  let description = [{
    `pred` is an i1 tensor of the operands' shape, or a 0-d one choosing for every element.
  }];
  let arguments = (ins AnyRankedTensor:$pred, AnyRankedTensor:$on_true, AnyRankedTensor:$on_false);
}

def Stablehlo_ClampOp : Stablehlo_PrettyOp<"clamp"> {
  let summary = "min(max(operand, min), max) elementwise";
  let description = [{
    `min` and `max` have the operand's shape, or are 0-d and bound every element.
  }];
  let arguments = (ins AnyRankedTensor:$min, AnyRankedTensor:$operand, AnyRankedTensor:$max);
}

#endif  // KILN_COMPILER_INPUT_STABLEHLO_ELEMENTWISEOPS
