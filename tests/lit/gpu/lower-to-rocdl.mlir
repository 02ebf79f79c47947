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
// CHECK-NOT: ocml
module {
  gpu.module @kiln_kernels {
    gpu.func @scale(%p: !llvm.ptr, %n: i32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %i = arith.addi %t, %b : index
      %i64 = arith.index_cast %i : index to i64
      %q = llvm.getelementptr %p[%i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      %f = math.floor %v : f32
      llvm.store %f, %q : f32, !llvm.ptr
      gpu.return
    }
  }
}
