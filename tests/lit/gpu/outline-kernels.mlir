// RUN: kiln-opt %s -kiln-gpu-outline-kernels | FileCheck %s

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
