// RUN: kiln-opt %s -kiln-cpu-wrap-entry-points | FileCheck %s

// The entry point reads binding pointers and push constants from the ABI structs, builds
// the memref descriptors (the dynamic size from push-constant word 0) and calls the body.
// CHECK-LABEL: func.func private @scale
// CHECK: func.func @scale_entry(%[[D:.*]]: !llvm.ptr, %[[W:.*]]: !llvm.ptr) -> i32
// CHECK-SAME: kiln.entry_for = @scale
// CHECK-SAME: kiln.push_constant_words = 3
// CHECK: llvm.getelementptr %[[D]][40] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.getelementptr %[[D]][32] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.sext %{{.*}} : i32 to i64
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xf32>
// CHECK: arith.index_cast %{{.*}} : i32 to index
// CHECK: arith.ori
// CHECK: arith.bitcast %{{.*}} : i64 to f64
// CHECK: call @scale(
// CHECK: return %{{.*}} : i32
module @kiln_executable attributes {kiln.executable} {
  func.func @scale(%in: memref<?xf32>, %out: memref<?xf32>, %n: index, %factor: f64, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: 0>, array<i64: 0>], kiln.input_count = 1 : i64} {
    return
  }
}
