// stablehlo.custom_call @shape_assertion: a 0-d predicate known only at run time becomes a
// check that fails the call with the error message; a true constant is dropped.
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run --module=%t.kiln --function=main --input=i32=3 --expected_output=i32=4
// RUN: not kiln-run --module=%t.kiln --function=main --input=i32=5 2>&1 | FileCheck %s
// CHECK: the dimension must be below 4
func.func @main(%n: tensor<i32>) -> tensor<i32> {
  %four = stablehlo.constant dense<4> : tensor<i32>
  %ok = stablehlo.compare LT, %n, %four : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %n) {error_message = "the dimension must be below 4", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  %true = stablehlo.constant dense<true> : tensor<i1>
  stablehlo.custom_call @shape_assertion(%true) {error_message = "never", has_side_effect = true} : (tensor<i1>) -> ()
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r = stablehlo.add %n, %one : tensor<i32>
  return %r : tensor<i32>
}
