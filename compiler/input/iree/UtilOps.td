// IREE's `util` ops that test programs use, in IREE's textual syntax, with kiln's
// meaning (docs/iree-compatibility.md).
#ifndef KILN_COMPILER_INPUT_IREE_UTILOPS
#define KILN_COMPILER_INPUT_IREE_UTILOPS

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Util_Dialect : Dialect {
  let name = "util";
  let cppNamespace = "::kiln::compiler::iree";
  let summary = "IREE's util ops accepted as input";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

class Util_Op<string mnemonic, list<Trait> traits = []> : Op<Util_Dialect, mnemonic, traits>;

def Util_UnfoldableConstantOp : Util_Op<"unfoldable_constant",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A constant the compiler must not fold into its users";
  let description = [{
    ```mlir
    %0 = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
    %n = util.unfoldable_constant 16 : index
    ```
    Tests use it so that the computation under test runs on the device instead of being
    folded at compile time. kiln lowers it to a constant behind `util.optimization_barrier`.
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs AnyType:$result);
  let assemblyFormat = "attr-dict $value";
}

def Util_OptimizationBarrierOp : Util_Op<"optimization_barrier",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Returns its operands unchanged, opaque to every optimisation";
  let description = [{
    ```mlir
    %0, %1 = util.optimization_barrier %a, %b : tensor<4xf32>, index
    ```
    No pattern folds through it and no dispatch fuses across it; the host program passes
    the values through as they are.
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

include "UtilStateOps.td"

#endif  // KILN_COMPILER_INPUT_IREE_UTILOPS
