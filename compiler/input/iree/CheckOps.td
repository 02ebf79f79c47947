// IREE's `check` ops: assertions in test programs, in IREE's textual syntax. kiln-check
// runs the functions that use them (docs/iree-compatibility.md).
#ifndef KILN_COMPILER_INPUT_IREE_CHECKOPS
#define KILN_COMPILER_INPUT_IREE_CHECKOPS

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"

def Check_Dialect : Dialect {
  let name = "check";
  let cppNamespace = "::kiln::compiler::iree";
  let summary = "IREE's check ops accepted as input";
}

class Check_Op<string mnemonic, list<Trait> traits = []> : Op<Check_Dialect, mnemonic, traits>;

def Check_ExpectTrueOp : Check_Op<"expect_true"> {
  let summary = "Fails the test unless an integer is non-zero";
  let arguments = (ins AnySignlessInteger:$operand);
  let assemblyFormat = "`(` $operand `)` attr-dict `:` type($operand)";
}

def Check_ExpectFalseOp : Check_Op<"expect_false"> {
  let summary = "Fails the test unless an integer is zero";
  let arguments = (ins AnySignlessInteger:$operand);
  let assemblyFormat = "`(` $operand `)` attr-dict `:` type($operand)";
}

def Check_ExpectAllTrueOp : Check_Op<"expect_all_true"> {
  let summary = "Fails the test unless every element of an integer tensor is non-zero";
  let arguments = (ins AnyRankedTensor:$operand);
  let assemblyFormat = "`(` $operand `)` attr-dict `:` type($operand)";
}

def Check_ExpectEqOp : Check_Op<"expect_eq", [AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Fails the test unless two tensors have equal shapes and elements";
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let assemblyFormat = "`(` $lhs `,` $rhs `)` attr-dict `:` type($lhs)";
}

def Check_ExpectEqConstOp : Check_Op<"expect_eq_const"> {
  let summary = "Fails the test unless a tensor equals a constant";
  let arguments = (ins AnyRankedTensor:$lhs, ElementsAttr:$value);
  let assemblyFormat = "`(` $lhs `,` $value `)` attr-dict `:` type($lhs)";
  let hasVerifier = 1;
}

// IREE's defaults: |lhs - rhs| <= atol + rtol * |rhs| with atol 1e-4 and rtol 0.
def Check_ExpectAlmostEqOp : Check_Op<"expect_almost_eq", [AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Fails the test unless two float tensors are elementwise close";
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       DefaultValuedAttr<F32Attr, "1.e-4f">:$atol, DefaultValuedAttr<F32Attr, "0.f">:$rtol);
  let assemblyFormat = [{
    `(` $lhs `,` $rhs (`,` `atol` $atol^)? (`,` `rtol` $rtol^)? `)` attr-dict `:` type($lhs)
  }];
}

def Check_ExpectAlmostEqConstOp : Check_Op<"expect_almost_eq_const"> {
  let summary = "Fails the test unless a float tensor is elementwise close to a constant";
  let arguments = (ins AnyRankedTensor:$lhs, ElementsAttr:$value,
                       DefaultValuedAttr<F32Attr, "1.e-4f">:$atol, DefaultValuedAttr<F32Attr, "0.f">:$rtol);
  let assemblyFormat = [{
    `(` $lhs `,` $value (`,` `atol` $atol^)? (`,` `rtol` $rtol^)? `)` attr-dict `:` type($lhs)
  }];
  let hasVerifier = 1;
}

#endif  // KILN_COMPILER_INPUT_IREE_CHECKOPS
