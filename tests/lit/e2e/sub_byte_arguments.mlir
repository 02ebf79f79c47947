// Tensors of sub-byte elements as a program's arguments and results: packed buffer views
// (two i4 or f4E2M1FN per byte, low bits first), unpacked where the function starts and
// packed where it returns (kiln-expand-sub-byte-bitcasts); kiln-run reads and prints them.
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// i4 wraps: -(-8) is -8.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=negate_i4 --input="2x4xi4=1 -2 3 7 -8 0 5 -1" --expected_output="2x4xi4=-1 2 -3 -7 -8 0 -5 1"
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=negate_i4 --input="2x4xi4=1 -2 3 7 -8 0 5 -1" --expected_output="2x4xi4=-1 2 -3 -7 -8 0 -5 1"
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=widen_dynamic --input="6xi4=1 -2 3 7 -8 0" --expected_output="6xi32=1 -2 3 7 -8 0"
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=widen_dynamic --input="6xi4=1 -2 3 7 -8 0" --expected_output="6xi32=1 -2 3 7 -8 0"
// f4E2M1FN: 0.25 reads as 0 (a tie, to the even encoding); 3 + 3 is 6, the largest value.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=double_f4 --input="6xf4E2M1FN=0.5 1 1.5 -2 3 0.25" --expected_output="6xf4E2M1FN=1 2 3 -4 6 0" --atol=0 --rtol=0
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=double_f4 --input="6xf4E2M1FN=0.5 1 1.5 -2 3 0.25" --expected_output="6xf4E2M1FN=1 2 3 -4 6 0" --atol=0 --rtol=0
// i2 from i8: -2 wraps to the i2 value -2, 3 to -1.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=narrow_i2 --input="8xi8=0 1 -2 3 -1 1 0 -2" --expected_output="8xi2=0 1 -2 -1 -1 1 0 -2"
// A wrong expectation fails, naming the element.
// RUN: not kiln-run --module=%t.kiln --device=cpu --function=negate_i4 --input="2x4xi4=1 -2 3 7 -8 0 5 -1" --expected_output="2x4xi4=-1 2 -3 -7 -8 0 -5 0" 2>&1 | FileCheck %s --check-prefix=WRONG
// WRONG: element at index 7 (1) does not match the expected (0)

func.func @negate_i4(%x: tensor<2x4xi4>) -> tensor<2x4xi4> {
  %z = arith.constant dense<0> : tensor<2x4xi4>
  %r = arith.subi %z, %x : tensor<2x4xi4>
  return %r : tensor<2x4xi4>
}
func.func @widen_dynamic(%x: tensor<?xi4>) -> tensor<?xi32> {
  %r = arith.extsi %x : tensor<?xi4> to tensor<?xi32>
  return %r : tensor<?xi32>
}
func.func @double_f4(%x: tensor<6xf4E2M1FN>) -> tensor<6xf4E2M1FN> {
  %r = arith.addf %x, %x : tensor<6xf4E2M1FN>
  return %r : tensor<6xf4E2M1FN>
}
func.func @narrow_i2(%x: tensor<8xi8>) -> tensor<8xi2> {
  %r = arith.trunci %x : tensor<8xi8> to tensor<8xi2>
  return %r : tensor<8xi2>
}
