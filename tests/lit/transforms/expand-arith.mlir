// RUN: kiln-opt %s -kiln-cpu-expand-arith | FileCheck %s

// Divisions LLVM has no instruction for become plain arithmetic; float min and max stay
// whole (they lower to LLVM intrinsics that vectorise as reductions).
// CHECK-LABEL: func.func @expand
// CHECK-NOT: arith.ceildivsi
// CHECK-NOT: arith.floordivsi
// CHECK: arith.maxnumf
// CHECK: arith.minimumf
// CHECK-NOT: arith.extf {{.*}} f8E8M0FNU
func.func @expand(%a: i32, %b: i32, %x: f32, %y: f32, %s: f8E8M0FNU) -> (i32, i32, f32, f32, f32) {
  %c = arith.ceildivsi %a, %b : i32
  %f = arith.floordivsi %a, %b : i32
  %m = arith.maxnumf %x, %y : f32
  %n = arith.minimumf %x, %y : f32
  %e = arith.extf %s : f8E8M0FNU to f32
  return %c, %f, %m, %n, %e : i32, i32, f32, f32, f32
}
