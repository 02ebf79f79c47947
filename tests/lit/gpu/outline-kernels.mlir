// RUN: kiln-opt %s -split-input-file -kiln-gpu-outline-kernels -verify-diagnostics | FileCheck %s

// Every function moves into gpu.module @kiln_kernels; kernels become gpu.func kernels with
// their workgroup size as known_block_size.
// CHECK: module @kiln_executable
// CHECK-NEXT: gpu.module @kiln_kernels
// CHECK: func.func private @scale_body
// CHECK: gpu.func @scale(%{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32) kernel
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
// CHECK: call @scale_body
// CHECK: gpu.return
module @kiln_executable attributes {kiln.executable} {
  func.func private @scale_body(%p: !llvm.ptr) {
    return
  }
  func.func @scale(%p: !llvm.ptr, %cx: i32, %cy: i32, %cz: i32) attributes {kiln.gpu.body = @scale_body, kiln.gpu.kernel, kiln.gpu.workgroup_size = array<i32: 64, 1, 1>} {
    call @scale_body(%p) : (!llvm.ptr) -> ()
    return
  }
}

// -----

// Workgroup memory becomes the kernel's workgroup attribution, and address spaces take
// AMDGPU's numbers (workgroup 3).
// CHECK-LABEL: gpu.func @stage(
// CHECK-SAME: workgroup(%[[LDS:.*]] : memref<16x64xf32, 3>)
// CHECK: memref.store %{{.*}}, %[[LDS]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[LDS]]
module @kiln_executable attributes {kiln.executable} {
  func.func @stage(%p: !llvm.ptr, %cx: i32, %cy: i32, %cz: i32) attributes {kiln.gpu.kernel, kiln.gpu.workgroup_size = array<i32: 256, 1, 1>} {
    %lds = memref.alloc() : memref<16x64xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    memref.store %x, %lds[%c0, %c0] : memref<16x64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %y = memref.load %lds[%c0, %c0] : memref<16x64xf32, #gpu.address_space<workgroup>>
    return
  }
}

// -----

module @kiln_executable attributes {kiln.executable} {
  func.func @dynamic_lds(%p: !llvm.ptr, %n: i32, %cx: i32, %cy: i32, %cz: i32) attributes {kiln.gpu.kernel, kiln.gpu.workgroup_size = array<i32: 64, 1, 1>} {
    %size = arith.index_cast %n : i32 to index
    // expected-error @+1 {{workgroup memory must be allocated with a static shape at the top of kernel 'dynamic_lds'}}
    %lds = memref.alloc(%size) : memref<?xf32, #gpu.address_space<workgroup>>
    return
  }
}
