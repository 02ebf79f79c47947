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

// A cooperative kernel: the LDS allocation is a slice of the group segment, the private
// accumulator a work-item's slice of a buffer for all 64, and the work-items run in loops
// split at the barriers; the uniform k loop runs once. A value loaded before the barrier
// is kept per work-item; an index computed from the work-item id is recomputed.
// CHECK-LABEL: func.func private @stage(
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %[[BX:[a-z0-9]+]]: index, %{{.*}}: index, %{{.*}}: index, %[[SEG:[a-z0-9]+]]: !llvm.ptr)
// CHECK-DAG: %[[N:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[ACC:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4096xi8>
// CHECK-DAG: %[[KEEP:.*]] = memref.alloca() {alignment = 64 : i64} : memref<64xf32>
// CHECK-DAG: %[[IN:.*]] = builtin.unrealized_conversion_cast %[[P]] : !llvm.ptr to memref<256xf32>
// CHECK-DAG: llvm.getelementptr %[[SEG]][0]
// CHECK-DAG: %[[LDS:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<64xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4
// CHECK: arith.muli %[[BX]]
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK: %[[X:.*]] = memref.load %[[IN]]
// CHECK: memref.store %[[X]], %[[KEEP]][%[[I]]]
// CHECK: memref.store %{{.*}}, %[[LDS]][%[[I]]]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[N]]
// CHECK: %[[Y:.*]] = memref.load %[[KEEP]][%[[J]]]
// CHECK: %[[SLICE:.*]] = memref.view %[[ACC]]
// CHECK: %[[R:.*]] = arith.subi %{{.*}}, %[[J]]
// CHECK: memref.load %[[LDS]][%[[R]]]
// CHECK: memref.store %{{.*}}, %[[SLICE]]
// CHECK-NOT: gpu.barrier
// CHECK-LABEL: func.func @stage_twin(
// CHECK: %[[SIZE_OK:.*]] = arith.cmpi eq, %{{.*}}, %c64
// CHECK: %[[LDS_OK:.*]] = arith.cmpi uge, %{{.*}}, %c256
// CHECK: %[[LDS_CODE:.*]] = arith.select %[[LDS_OK]], %c0_i32, %c3_i32
// CHECK: %[[CODE:.*]] = arith.select %[[SIZE_OK]], %[[LDS_CODE]], %c2_i32
// CHECK: scf.if
// CHECK: func.call @stage(
// CHECK: return %[[CODE]] : i32
module @kiln_executable attributes {kiln.executable} {
  func.func @stage(%p: !llvm.ptr, %cx: i32, %cy: i32, %cz: i32) attributes {kiln.gpu.kernel, kiln.gpu.workgroup_size = array<i32: 64, 1, 1>} {
    %in = builtin.unrealized_conversion_cast %p : !llvm.ptr to memref<256xf32>
    %lds = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %acc = memref.alloca() : memref<4x4xf32>
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c63 = arith.constant 63 : index
    scf.for %k = %c0 to %c4 step %c1 {
      %base = arith.muli %b, %c4 : index
      %at = arith.addi %base, %t : index
      %x = memref.load %in[%at] : memref<256xf32>
      memref.store %x, %lds[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c63, %t : index
      %y = memref.load %lds[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %x, %y : f32
      memref.store %s, %acc[%c0, %c0] : memref<4x4xf32>
      gpu.barrier
    }
    return
  }
}

// -----

module @kiln_executable attributes {kiln.executable} {
  func.func @divergent(%p: !llvm.ptr, %cx: i32, %cy: i32, %cz: i32) attributes {kiln.gpu.kernel, kiln.gpu.workgroup_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{barrier in a loop whose bounds differ between work-items}}
    scf.for %i = %c0 to %t step %c1 {
      gpu.barrier
    }
    return
  }
}

// -----

module @kiln_executable attributes {kiln.executable} {
  func.func @carried(%p: !llvm.ptr, %cx: i32, %cy: i32, %cz: i32) attributes {kiln.gpu.kernel, kiln.gpu.workgroup_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 0.0 : f32
    // expected-error @+1 {{the host twin cannot split a loop that carries values across a barrier}}
    %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %f) -> f32 {
      gpu.barrier
      scf.yield %a : f32
    }
    return
  }
}

// -----

// A shuffle: every work-item stores its value, the loop ends, and in the next loop each
// reads its partner's (lane xor 1 within segments of 64).
// CHECK-LABEL: func.func private @shuffle(
// CHECK: %[[VALUES:.*]] = memref.alloca() {alignment = 64 : i64} : memref<64xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: memref.store %{{.*}}, %[[VALUES]][%[[I]]]
// CHECK: }
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[LANE:.*]] = arith.remui %[[J]]
// CHECK: %[[BASE:.*]] = arith.subi %[[J]], %[[LANE]]
// CHECK: %[[PARTNER:.*]] = arith.xori %[[LANE]]
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %[[PARTNER]]
// CHECK: %[[AT:.*]] = arith.addi %[[BASE]], %[[PARTNER]]
// CHECK: %[[SOURCE:.*]] = arith.select %[[VALID]], %[[AT]], %[[J]]
// CHECK: memref.load %[[VALUES]][%[[SOURCE]]]
module @kiln_executable attributes {kiln.executable} {
  func.func @shuffle(%p: !llvm.ptr, %cx: i32, %cy: i32, %cz: i32) attributes {kiln.gpu.kernel, kiln.gpu.workgroup_size = array<i32: 64, 1, 1>} {
    %out = builtin.unrealized_conversion_cast %p : !llvm.ptr to memref<64xf32>
    %t = gpu.thread_id x
    %ti = arith.index_cast %t : index to i32
    %f = arith.sitofp %ti : i32 to f32
    %o = arith.constant 1 : i32
    %w = arith.constant 64 : i32
    %r, %v = gpu.shuffle xor %f, %o, %w : f32
    memref.store %r, %out[%t] : memref<64xf32>
    return
  }
}

// -----

module @kiln_executable attributes {kiln.executable} {
  func.func @subgroup_reduce(%p: !llvm.ptr, %cx: i32, %cy: i32, %cz: i32) attributes {kiln.gpu.kernel, kiln.gpu.workgroup_size = array<i32: 64, 1, 1>} {
    %f = arith.constant 1.0 : f32
    gpu.barrier
    // expected-error @+1 {{the host twin cannot emulate 'gpu.subgroup_reduce' yet}}
    %r = gpu.subgroup_reduce add %f : (f32) -> f32
    return
  }
}
