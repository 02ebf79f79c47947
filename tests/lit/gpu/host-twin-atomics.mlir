// RUN: kiln-opt %s -kiln-gpu-lower-host-twin | FileCheck %s
// RUN: kiln-opt %s -kiln-gpu-lower-host-twin -finalize-memref-to-llvm | FileCheck %s --check-prefix=LLVM

// A cooperative kernel's atomics (the scatter strategy's combiners) stay atomic in the host
// twin: its work-items run in loops, but the simulator runs workgroups on several threads
// at once, so memref.atomic_rmw remains (in the work-item loop after the barrier) and
// lowers to llvm.atomicrmw like on the GPU.
// CHECK-LABEL: func.func private @add_rows(
// CHECK: scf.for
// CHECK: memref.store
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c64
// CHECK: memref.atomic_rmw addf %{{.*}}, %{{.*}}[%{{.*}}] : (f32, memref<16xf32>) -> f32
// CHECK: memref.atomic_rmw maxs %{{.*}}, %{{.*}}[%{{.*}}] : (i32, memref<16xi32>) -> i32
// LLVM-LABEL: func.func private @add_rows(
// LLVM: llvm.atomicrmw fadd %{{.*}}, %{{.*}} acq_rel : !llvm.ptr, f32
// LLVM: llvm.atomicrmw max %{{.*}}, %{{.*}} acq_rel : !llvm.ptr, i32
module @kiln_executable attributes {kiln.executable} {
  func.func @add_rows(%p: !llvm.ptr, %q: !llvm.ptr, %cx: i32, %cy: i32, %cz: i32) attributes {kiln.gpu.kernel, kiln.gpu.workgroup_size = array<i32: 64, 1, 1>} {
    %out = builtin.unrealized_conversion_cast %p : !llvm.ptr to memref<16xf32>
    %hits = builtin.unrealized_conversion_cast %q : !llvm.ptr to memref<16xi32>
    %t = gpu.thread_id x
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1 : i32
    %lane = arith.remui %t, %c16 : index
    memref.store %zero, %out[%lane] : memref<16xf32>
    gpu.barrier
    %x = arith.index_cast %t : index to i32
    %f = arith.sitofp %x : i32 to f32
    %old = memref.atomic_rmw addf %f, %out[%lane] : (f32, memref<16xf32>) -> f32
    %m = memref.atomic_rmw maxs %x, %hits[%lane] : (i32, memref<16xi32>) -> i32
    return
  }
}
