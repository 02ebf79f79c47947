// RUN: kiln-opt %s -kiln-cpu-approximate-math | FileCheck %s

// exp on f32 becomes arithmetic that vectorises; no libm call is left.
// CHECK-LABEL: func.func @exp
// CHECK-NOT: math.exp
// CHECK: arith.mulf
func.func @exp(%x: f32) -> f32 {
  %r = math.exp %x : f32
  return %r : f32
}
