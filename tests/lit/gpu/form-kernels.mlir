// RUN: kiln-opt %s -split-input-file -kiln-gpu-form-kernels=workgroup-size=64 -verify-diagnostics | FileCheck %s

// A distributed dispatch: every work-item of the grid is one worker. The kernel's arguments
// are the ABI's kernarg block: binding pointers, push-constant words, workgroup count.
// CHECK-LABEL: func.func private @scale_body(
// CHECK-SAME: llvm.noalias
// CHECK-LABEL: func.func @scale(
// CHECK-SAME: %[[IN:[a-z0-9]+]]: !llvm.ptr, %[[OUT:[a-z0-9]+]]: !llvm.ptr, %[[N:[a-z0-9]+]]: i32, %[[CX:[a-z0-9]+]]: i32, %{{.*}}: i32, %{{.*}}: i32)
// CHECK-SAME: kiln.gpu.body = @scale_body, kiln.gpu.kernel, kiln.gpu.workgroup_size = array<i32: 64, 1, 1>
// CHECK: %[[DIM:.*]] = llvm.sext %[[N]] : i32 to i64
// CHECK: llvm.insertvalue %[[DIM]], %{{.*}}[3, 0]
// CHECK: %[[NIDX:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[SIZE:.*]] = arith.constant 64 : index
// CHECK: %[[COUNT:.*]] = arith.index_castui %[[CX]] : i32 to index
// CHECK: %[[BASE:.*]] = arith.muli %[[BID]], %[[SIZE]]
// CHECK: %[[ID:.*]] = arith.addi %[[BASE]], %[[TID]]
// CHECK: %[[WORKERS:.*]] = arith.muli %[[COUNT]], %[[SIZE]]
// CHECK: call @scale_body(%{{.*}}, %{{.*}}, %[[NIDX]], %[[ID]], %[[WORKERS]])
module @kiln_executable attributes {kiln.executable} {
  func.func @scale(%in: memref<?xf32>, %out: memref<?xf32>, %n: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: 0>, array<i64: 0>], kiln.input_count = 1 : i64, kiln.distributed} {
    return
  }
}

// -----

// Not distributed: work-item 0 of workgroup 0 is the only worker.
// CHECK-LABEL: func.func @sum(
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK-DAG: %[[T0:.*]] = arith.cmpi eq, %[[TID]]
// CHECK-DAG: %[[B0:.*]] = arith.cmpi eq, %[[BID]]
// CHECK: %[[FIRST:.*]] = arith.andi
// CHECK: scf.if %[[FIRST]]
// CHECK: call @sum_body
module @kiln_executable attributes {kiln.executable} {
  func.func @sum(%in: memref<8xf32>, %out: memref<f32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>, array<i64>], kiln.input_count = 1 : i64} {
    return
  }
}

// -----

// 64-bit push constants take two words, low first.
// CHECK-LABEL: func.func @wide(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %[[LO:[a-z0-9]+]]: i32, %[[HI:[a-z0-9]+]]: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32)
// CHECK: arith.extui %[[LO]]
// CHECK: arith.extui %[[HI]]
// CHECK: arith.bitcast %{{.*}} : i64 to f64
module @kiln_executable attributes {kiln.executable} {
  func.func @wide(%out: memref<4xf64>, %v: f64, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>], kiln.input_count = 0 : i64} {
    return
  }
}

// -----

// Index checks (checked mode): the body gets its workgroup's record, x + count_x * (y +
// count_y * z) of the records array the kernel takes last (hal/abi/gpu_kernel_abi.h), and
// each check claims it with a compare-and-swap of its site word, the work-items racing.
// CHECK-LABEL: func.func private @checked_body(
// CHECK-SAME: %[[REC:[a-z0-9]+]]: memref<3xi64> {kiln.index_check_record})
// CHECK-SAME: kiln.index_check_sites = ["gather index", "scatter index"]
// CHECK: %[[HIGH:.*]] = arith.cmpi sge, %{{.*}}, %c4
// CHECK: scf.if
// CHECK: %[[OLD:.*]] = memref.generic_atomic_rmw %[[REC]][%{{.*}}] : memref<3xi64> {
// CHECK: ^bb0(%[[CUR:.*]]: i64):
// CHECK: %[[UNSET:.*]] = llvm.icmp "eq" %[[CUR]], %c0_i64
// CHECK: %[[NEW:.*]] = llvm.select %[[UNSET]], %c2_i64, %[[CUR]]
// CHECK: memref.atomic_yield %[[NEW]]
// CHECK: %[[WON:.*]] = arith.cmpi eq, %[[OLD]], %c0_i64
// CHECK: scf.if %[[WON]] {
// CHECK: memref.store %{{.*}}, %[[REC]][%c1]
// CHECK: memref.store %{{.*}}, %[[REC]][%c2]
// CHECK-NOT: kiln.index_check
// CHECK-LABEL: func.func @checked(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: i32, %[[CX:[a-z0-9]+]]: i32, %[[CY:[a-z0-9]+]]: i32, %{{.*}}: i32, %[[RECORDS:[a-z0-9]+]]: !llvm.ptr)
// CHECK: %[[X:.*]] = gpu.block_id x
// CHECK: %[[Y:.*]] = gpu.block_id y
// CHECK: %[[Z:.*]] = gpu.block_id z
// CHECK: %[[NX:.*]] = arith.index_castui %[[CX]]
// CHECK: %[[NY:.*]] = arith.index_castui %[[CY]]
// CHECK: %[[YZ:.*]] = arith.muli %[[NY]], %[[Z]]
// CHECK: %[[PLANE:.*]] = arith.addi %[[Y]], %[[YZ]]
// CHECK: %[[ROWS:.*]] = arith.muli %[[NX]], %[[PLANE]]
// CHECK: %[[LINEAR:.*]] = arith.addi %[[X]], %[[ROWS]]
// CHECK: %[[ELEMENT:.*]] = arith.muli %[[LINEAR]], %c3
// CHECK: %[[OFFSET:.*]] = arith.index_cast %[[ELEMENT]] : index to i64
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[RECORDS]][%[[OFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK: %[[MINE:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<3xi64>
// CHECK: call @checked_body(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[MINE]])
module @kiln_executable attributes {kiln.executable} {
  func.func @checked(%out: memref<4xf32>, %i: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>], kiln.input_count = 0 : i64, kiln.distributed} {
    %c4 = arith.constant 4 : index
    kiln.index_check %i below %c4 for "gather index"
    kiln.index_check %i below %c4 for "scatter index"
    kiln.index_check %i below %c4 for "gather index"
    return
  }
}

// -----

// A cooperative body is inlined with its checks already lowered against its record.
// CHECK-LABEL: func.func @checked_tiles(
// CHECK-SAME: %[[RECORDS:[a-z0-9]+]]: !llvm.ptr)
// CHECK-SAME: kiln.index_check_sites = ["row index"]
// CHECK: llvm.getelementptr %[[RECORDS]]
// CHECK: %[[MINE:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<3xi64>
// CHECK: scf.for
// CHECK: memref.generic_atomic_rmw %[[MINE]]
// CHECK: gpu.barrier
// CHECK-NOT: kiln.index_check
module @kiln_executable attributes {kiln.executable} {
  func.func @checked_tiles(%out: memref<8xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>], kiln.input_count = 0 : i64, kiln.distributed, kiln.gpu.workgroup_workers, kiln.gpu.workgroup_size = array<i32: 256, 1, 1>} {
    %c8 = arith.constant 8 : index
    %c6 = arith.constant 6 : index
    scf.for %i = %id to %c8 step %count {
      kiln.index_check %i below %c6 for "row index"
      gpu.barrier
    }
    return
  }
}

// -----

// A workgroup-cooperative dispatch: its own workgroup size, the workgroup id and count as
// worker id and count, and its body inlined (its LDS and barriers belong to the kernel).
// CHECK-LABEL: func.func @tiles(
// CHECK-SAME: kiln.distributed
// CHECK-SAME: kiln.gpu.workgroup_size = array<i32: 256, 1, 1>
// CHECK-SAME: kiln.source_location = "mm.mlir:3:5"
// CHECK-NOT: kiln.gpu.body
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[LDS:.*]] = memref.alloc() : memref<16x64xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} = %[[BID]] to
// CHECK: gpu.barrier
// CHECK-NOT: call
// CHECK-NOT: @tiles_body
module @kiln_executable attributes {kiln.executable} {
  func.func @tiles(%out: memref<8xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>], kiln.input_count = 0 : i64, kiln.distributed, kiln.gpu.workgroup_workers, kiln.gpu.workgroup_size = array<i32: 256, 1, 1>, kiln.source_location = "mm.mlir:3:5"} {
    %lds = memref.alloc() : memref<16x64xf32, #gpu.address_space<workgroup>>
    %c8 = arith.constant 8 : index
    scf.for %i = %id to %c8 step %count {
      gpu.barrier
    }
    return
  }
}

// -----

// Workgroup bounds: a body whose work is one grid-stride loop from its worker id tells how
// many workgroups have work, ceil(E / (T * workers per workgroup)) for a loop to E in steps
// of T: the host launches no more (array<i64: E, push-constant word of E or -1, divisor>).
// CHECK-LABEL: func.func @static_rows(
// CHECK-SAME: kiln.gpu.workgroup_bound = array<i64: 100, -1, 64>
// CHECK-LABEL: func.func @blocks_of_four(
// CHECK-SAME: kiln.gpu.workgroup_bound = array<i64: 100, -1, 256>
// The extent is push constant 1 (word 2: the f64 before it takes two), read directly or
// through the size of the binding it gives.
// CHECK-LABEL: func.func @dynamic_rows(
// CHECK-SAME: kiln.gpu.workgroup_bound = array<i64: 0, 2, 64>
// CHECK-LABEL: func.func @binding_rows(
// CHECK-SAME: kiln.gpu.workgroup_bound = array<i64: 0, 0, 64>
// A product by a constant one (as strategies leave row counts) is looked through.
// CHECK-LABEL: func.func @times_one(
// CHECK-SAME: kiln.gpu.workgroup_bound = array<i64: 0, 0, 64>
// A store outside the loop runs in every worker: no bound.
// CHECK-LABEL: func.func @store_outside(
// CHECK-NOT: workgroup_bound
// CHECK-SAME: {
// Not distributed: one workgroup anyway.
// CHECK-LABEL: func.func @single(
// CHECK-NOT: workgroup_bound
// CHECK-SAME: {
module @kiln_executable attributes {kiln.executable} {
  func.func @static_rows(%out: memref<100xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>], kiln.input_count = 0 : i64, kiln.distributed} {
    %c100 = arith.constant 100 : index
    %one = arith.constant 1.0 : f32
    scf.for %i = %id to %c100 step %count {
      memref.store %one, %out[%i] : memref<100xf32>
    }
    return
  }
  func.func @blocks_of_four(%out: memref<100xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>], kiln.input_count = 0 : i64, kiln.distributed} {
    %c4 = arith.constant 4 : index
    %c100 = arith.constant 100 : index
    %one = arith.constant 1.0 : f32
    %lower = arith.muli %id, %c4 : index
    %step = arith.muli %c4, %count : index
    scf.for %i = %lower to %c100 step %step {
      memref.store %one, %out[%i] : memref<100xf32>
    }
    return
  }
  func.func @dynamic_rows(%out: memref<100xf32>, %v: f64, %n: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>], kiln.input_count = 0 : i64, kiln.distributed} {
    %one = arith.constant 1.0 : f32
    scf.for %i = %id to %n step %count {
      memref.store %one, %out[%i] : memref<100xf32>
    }
    return
  }
  func.func @binding_rows(%out: memref<?xf32>, %n: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: 0>], kiln.input_count = 0 : i64, kiln.distributed} {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    %rows = memref.dim %out, %c0 : memref<?xf32>
    scf.for %i = %id to %rows step %count {
      memref.store %one, %out[%i] : memref<?xf32>
    }
    return
  }
  func.func @times_one(%out: memref<100xf32>, %n: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>], kiln.input_count = 0 : i64, kiln.distributed} {
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f32
    %rows = arith.muli %c1, %n : index
    scf.for %i = %id to %rows step %count {
      memref.store %one, %out[%i] : memref<100xf32>
    }
    return
  }
  func.func @store_outside(%out: memref<100xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>], kiln.input_count = 0 : i64, kiln.distributed} {
    %c0 = arith.constant 0 : index
    %c100 = arith.constant 100 : index
    %one = arith.constant 1.0 : f32
    memref.store %one, %out[%c0] : memref<100xf32>
    scf.for %i = %id to %c100 step %count {
      memref.store %one, %out[%i] : memref<100xf32>
    }
    return
  }
  func.func @single(%out: memref<100xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>], kiln.input_count = 0 : i64} {
    %c100 = arith.constant 100 : index
    %one = arith.constant 1.0 : f32
    scf.for %i = %id to %c100 step %count {
      memref.store %one, %out[%i] : memref<100xf32>
    }
    return
  }
}
