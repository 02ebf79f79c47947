// stablehlo.custom_call: a call of a target the producer's backend defines, written
//   stablehlo.custom_call @shape_assertion(%ok) {error_message = "...", has_side_effect = true} : (tensor<i1>) -> ()
//   "stablehlo.custom_call"(%x) {call_target_name = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
// kiln knows the targets listed in the op's description; kiln-lower-stablehlo names any
// other and fails.
#ifndef KILN_COMPILER_INPUT_STABLEHLO_CUSTOMCALLOP
#define KILN_COMPILER_INPUT_STABLEHLO_CUSTOMCALLOP

include "StablehloBase.td"

def Stablehlo_CustomCallOp : Stablehlo_Op<"custom_call"> {
  let summary = "A call of a backend-defined target";
  let description = [{
    The operands and results are any values; the other attributes (backend_config,
    api_version, operand layouts, ...) are kept as given. Targets kiln lowers:
    `shape_assertion` (JAX's shape-polymorphism check: a 0-d i1 predicate, then the
    dimension values `error_message` refers to): dropped when the predicate is a true
    constant, an error with the message when a false one, else a run-time check that fails
    the call with the message. A predicate of more than 0 dimensions is not JAX's form;
    IREE ignores such assertions and so does kiln, with a warning.
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$call_target_name,
                       OptionalAttr<BoolAttr>:$has_side_effect);
  let results = (outs Variadic<AnyType>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif  // KILN_COMPILER_INPUT_STABLEHLO_CUSTOMCALLOP
