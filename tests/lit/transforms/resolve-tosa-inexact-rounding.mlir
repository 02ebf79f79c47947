// RUN: kiln-opt %s -kiln-resolve-tosa-inexact-rounding | FileCheck %s

// INEXACT_ROUND becomes SINGLE_ROUND; the other modes stay.
// CHECK-LABEL: func.func @rescales
// CHECK: tosa.rescale {{.*}}rounding_mode = SINGLE_ROUND
// CHECK: tosa.rescale {{.*}}rounding_mode = SINGLE_ROUND
// CHECK: tosa.rescale {{.*}}rounding_mode = DOUBLE_ROUND
func.func @rescales(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<33> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %a = tosa.rescale %x, %m, %s, %zp, %zp {scale32 = true, rounding_mode = INEXACT_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %b = tosa.rescale %x, %m, %s, %zp, %zp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %c = tosa.rescale %x, %m, %s, %zp, %zp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  return %a, %b, %c : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}
