// Tensors of sub-byte elements stay inside a program (one element per byte): as a public
// function's argument or result they are refused with the way around it.
// RUN: not kiln-compile %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: argument 0 of 'unpack' is 'tensor<8xi4>': tensors of sub-byte elements cannot be a program's arguments or results yet (kiln stores them one element per byte); pass their bytes as i8 and flow.tensor.bitcast them inside the program
func.func @unpack(%x: tensor<8xi4>) -> tensor<8xi8> {
  %r = arith.extui %x : tensor<8xi4> to tensor<8xi8>
  return %r : tensor<8xi8>
}
