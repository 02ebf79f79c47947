// stablehlo.rng_bit_generator end to end: the conformance files' THREE_FRY and PHILOX
// with more blocks than one, a last block used in part, and the 64-bit counter carrying
// from its low word (s3 = 0xFFFFFFFF) into its high word; the output states advanced by the
// blocks used. Expected values from a direct Python implementation of both generators.
// RUN: kiln-check %s | FileCheck %s
// CHECK: 2 passed, 0 failed

func.func @three_fry() {
  %s = util.unfoldable_constant dense<[7, 305419896, 5, -1]> : tensor<4xi32>
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<2x3xi32>)
  check.expect_eq_const(%0#1, dense<[[780046172, 1227745382, 367675918], [2084944440, 429799570, 1194297937]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  check.expect_eq_const(%0#0, dense<[7, 305419896, 6, 2]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @philox() {
  %s = util.unfoldable_constant dense<[7, 305419896, 5, -1]> : tensor<4xi32>
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<10xi32>)
  check.expect_eq_const(%0#1, dense<[-1983336474, -837010822, -719990817, 1111575402, -1758366398, -67499496, 397990122, -688526011, 121631009, -74303729]> : tensor<10xi32>) : tensor<10xi32>
  check.expect_eq_const(%0#0, dense<[7, 305419896, 6, 2]> : tensor<4xi32>) : tensor<4xi32>
  return
}
