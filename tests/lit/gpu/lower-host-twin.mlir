// RUN: kiln-opt %s -split-input-file -kiln-gpu-lower-host-twin -verify-diagnostics | FileCheck %s

// The kernel takes its ids as arguments; the twin entry reads the kernarg block at the ABI's
// offsets (pointers 8 bytes each, then 32-bit words) and the workgroup id and size from the
// simulator's workgroup state, and runs the work-items in turn.
// CHECK-LABEL: func.func private @scale(
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[N:[a-z0-9]+]]: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %[[TID:[a-z0-9]+]]: index, %[[BX:[a-z0-9]+]]: index, %{{.*}}: index, %{{.*}}: index)
// CHECK: arith.addi %[[BX]], %[[TID]]
// CHECK-LABEL: func.func @scale_twin(
// CHECK-SAME: %[[KERNARG:[a-z0-9]+]]: !llvm.ptr, %[[WG:[a-z0-9]+]]: !llvm.ptr) -> i32
// CHECK: %[[P0:.*]] = llvm.load %[[KERNARG]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[A1:.*]] = llvm.getelementptr %[[KERNARG]][8] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[N0:.*]] = llvm.load %[[A1]] : !llvm.ptr -> i32
// CHECK: llvm.getelementptr %[[KERNARG]][12]
// CHECK: llvm.getelementptr %[[KERNARG]][16]
// CHECK: llvm.getelementptr %[[KERNARG]][20]
// CHECK: %[[BID:.*]] = llvm.load %[[WG]] : !llvm.ptr -> i32
// CHECK: llvm.getelementptr %[[WG]][4]
// CHECK: llvm.getelementptr %[[WG]][8]
// CHECK: %[[SIZEP:.*]] = llvm.getelementptr %[[WG]][12]
// CHECK: %[[SIZE:.*]] = llvm.load %[[SIZEP]]
// CHECK: %[[N_ITEMS:.*]] = arith.index_castui %[[SIZE]]
// CHECK: scf.for %[[ITEM:.*]] = %{{.*}} to %[[N_ITEMS]]
// CHECK: func.call @scale(%[[P0]], %[[N0]], %{{.*}}, %{{.*}}, %{{.*}}, %[[ITEM]],
// CHECK: return %{{.*}} : i32
module @kiln_executable attributes {kiln.executable} {
  func.func @scale(%p: !llvm.ptr, %n: i32, %cx: i32, %cy: i32, %cz: i32) attributes {kiln.gpu.kernel, kiln.gpu.workgroup_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %s = arith.addi %b, %t : index
    return
  }
}

// -----

module @kiln_executable attributes {kiln.executable} {
  func.func @shared(%p: !llvm.ptr, %cx: i32, %cy: i32, %cz: i32) attributes {kiln.gpu.kernel, kiln.gpu.workgroup_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{the host twin cannot emulate 'gpu.barrier' yet}}
    gpu.barrier
    return
  }
}
