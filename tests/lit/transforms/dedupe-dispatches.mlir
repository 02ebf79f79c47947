// kiln-dedupe-dispatches: two layers' identical matmuls (other operands, other source
// lines) share one dispatch function, whose location says so; a matmul of another shape
// keeps its own.
// RUN: kiln-opt %s -kiln-form-dispatches -kiln-dedupe-dispatches | FileCheck %s
// RUN: kiln-opt %s -kiln-form-dispatches -kiln-dedupe-dispatches | grep -c "func.func @two_layers_dispatch" | FileCheck %s --check-prefix=COUNT
// COUNT: 2

// CHECK-LABEL: func.func @two_layers
// CHECK:   %[[A:.*]] = kiln.dispatch @kiln_executable::@[[MM:two_layers_dispatch_[0-9]+_matmul]](%arg0, %arg1)
// CHECK:   kiln.dispatch @kiln_executable::@[[MM]](%[[A]], %arg2)
// CHECK:   kiln.dispatch @kiln_executable::@[[OTHER:two_layers_dispatch_[0-9]+_matmul]](%arg3, %arg4)
// CHECK:   module @kiln_executable
// CHECK-DAG:   func.func @[[MM]]({{.*}}kiln.source_location = "{{.*}}dedupe-dispatches.mlir:{{[0-9]+}}:{{[0-9]+}} (and 1 identical)"
// CHECK-DAG:   func.func @[[OTHER]](
func.func @two_layers(%x: tensor<4x8xf32>, %w0: tensor<8x8xf32>, %w1: tensor<8x8xf32>,
                      %y: tensor<2x8xf32>, %w2: tensor<8x3xf32>) -> (tensor<4x8xf32>, tensor<2x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %a = linalg.matmul ins(%x, %w0 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = linalg.matmul ins(%a, %w1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = linalg.matmul ins(%y, %w2 : tensor<2x8xf32>, tensor<8x3xf32>) outs(%f2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %b, %c : tensor<4x8xf32>, tensor<2x3xf32>
}
