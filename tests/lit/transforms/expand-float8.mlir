// RUN: kiln-opt %s -kiln-cpu-expand-float8 | FileCheck %s

// Conversions to and from f8 become integer and f32 arithmetic on the i8 bit pattern.
// CHECK-LABEL: func.func @convert
// CHECK-NOT: arith.truncf
// CHECK: math.roundeven
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.bitcast %{{.*}} : i8 to f8E4M3FN
// CHECK: arith.bitcast %{{.*}} : f8E4M3FN to i8
// CHECK: arith.extui
// CHECK-NOT: arith.extf
// CHECK: return
func.func @convert(%x: f32) -> f32 {
  %t = arith.truncf %x : f32 to f8E4M3FN
  %r = arith.extf %t : f8E4M3FN to f32
  return %r : f32
}

// Constants become their bit patterns: 1.0 in f8E5M2 is 0x3C.
// CHECK-LABEL: func.func @constant
// CHECK: arith.constant 60 : i8
// CHECK: arith.bitcast %{{.*}} : i8 to f8E5M2
func.func @constant() -> f8E5M2 {
  %c = arith.constant 1.0 : f8E5M2
  return %c : f8E5M2
}
