// Without -verify-diagnostics, invalid input makes kiln-opt exit non-zero with the
// diagnostic and its location on stderr.
// RUN: not kiln-opt %s 2>&1 | FileCheck %s
// CHECK: exit-code.mlir:[[@LINE+2]]:3: error: type of return operand 0 ('tensor<4xf32>') doesn't match function result type ('tensor<4xi32>')
func.func @type_mismatch(%a: tensor<4xf32>) -> tensor<4xi32> {
  return %a : tensor<4xf32>
}
