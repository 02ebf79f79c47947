// RUN: kiln-opt %s -pass-pipeline='builtin.module(gpu.module(kiln-gpu-lower-to-rocdl{chip=gfx942}),reconcile-unrealized-casts)' | FileCheck %s

// The kernel becomes an LLVM function with ROCDL's kernel attributes and its workgroup
// size; ids are ROCDL intrinsics; math intrinsics stay LLVM intrinsics (no ocml calls).
// CHECK: gpu.module @kiln_kernels
// CHECK: llvm.func @scale(%{{.*}}: !llvm.ptr, %{{.*}}: i32)
// CHECK-SAME: rocdl.kernel
// CHECK-SAME: rocdl.reqd_work_group_size = array<i32: 64, 1, 1>
// CHECK: rocdl.workitem.id.x
// CHECK: rocdl.workgroup.id.x
// CHECK: llvm.intr.floor
// Read-modify-write atomics on a binding are the device's own: agent scope, no remote or
// fine-grained memory (native global_atomic_add_f32 rather than a compare-and-swap loop);
// those on LDS are left as they are.
// CHECK: llvm.atomicrmw fadd %{{.*}}, %{{.*}} syncscope("agent") acq_rel {rocdl.no_fine_grained_memory, rocdl.no_remote_memory}
// CHECK: llvm.atomicrmw fadd %{{.*}}, %{{.*}} acq_rel : !llvm.ptr<3>, f32
// CHECK-NOT: ocml
module {
  gpu.module @kiln_kernels {
    llvm.mlir.global internal @lds() {addr_space = 3 : i32} : f32
    gpu.func @scale(%p: !llvm.ptr, %n: i32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %i = arith.addi %t, %b : index
      %i64 = arith.index_cast %i : index to i64
      %q = llvm.getelementptr %p[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      %f = math.floor %v : f32
      llvm.store %f, %q : f32, !llvm.ptr
      %old = llvm.atomicrmw fadd %q, %f acq_rel : !llvm.ptr, f32
      %lds = llvm.mlir.addressof @lds : !llvm.ptr<3>
      %old_lds = llvm.atomicrmw fadd %lds, %f acq_rel : !llvm.ptr<3>, f32
      gpu.return
    }
  }
}
