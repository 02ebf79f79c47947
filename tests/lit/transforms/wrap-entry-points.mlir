// RUN: kiln-opt %s -split-input-file -kiln-cpu-wrap-entry-points | FileCheck %s

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

// -----

// A function with index checks gets its workgroup's record (the workgroup state's
// index_check pointer, byte 32) as a last argument and its distinct sites in order; the
// entry point returns KILN_DISPATCH_INDEX_OUT_OF_RANGE (7435) once the record's site word
// is set.
// CHECK-LABEL: func.func private @checked
// CHECK-SAME: %{{.*}}: memref<3xi64> {kiln.index_check_record}
// CHECK-SAME: kiln.index_check_sites = ["dimension 0 of the source of a gather", "dimension 1 of the source of a gather"]
// CHECK: func.func @checked_entry(%{{.*}}: !llvm.ptr, %[[W:.*]]: !llvm.ptr) -> i32
// CHECK: %[[FIELD:.*]] = llvm.getelementptr %[[W]][32] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[RECORD:.*]] = llvm.load %[[FIELD]] : !llvm.ptr -> !llvm.ptr
// CHECK: call @checked(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<8xf32>, index, index, memref<3xi64>) -> ()
// CHECK: %[[SITE:.*]] = llvm.load %[[RECORD]] : !llvm.ptr -> i64
// CHECK: %[[SET:.*]] = llvm.icmp "ne" %[[SITE]], %{{.*}} : i64
// CHECK: %[[CODE:.*]] = llvm.mlir.constant(7435 : i32) : i32
// CHECK: %[[RC:.*]] = llvm.select %[[SET]], %[[CODE]], %{{.*}} : i1, i32
// CHECK: return %[[RC]] : i32
module @kiln_executable attributes {kiln.executable} {
  func.func @checked(%out: memref<8xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64>], kiln.input_count = 0 : i64} {
    %c8 = arith.constant 8 : index
    kiln.index_check %id below %c8 for "dimension 0 of the source of a gather"
    kiln.index_check %count below %c8 for "dimension 1 of the source of a gather"
    kiln.index_check %id below %count for "dimension 0 of the source of a gather"
    return
  }
}
