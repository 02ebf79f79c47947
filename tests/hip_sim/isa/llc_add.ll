; What LLVM's AMDGPU backend emits for an elementwise kernel, compiled at build time with
; llc-22 -mcpu=gfx942 (tests/hip_sim/CMakeLists.txt): the executor runs real compiler output,
; its code object v5/v6 metadata and descriptor included. c[i] = 2 * (a[i] + b[i]) for i < n.
; The attributes drop the implicit arguments, as kiln's kernels do (hal/abi/gpu_kernel_abi.h).
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @llc_add(ptr addrspace(1) noalias %a, ptr addrspace(1) noalias %b, ptr addrspace(1) noalias %c, i32 %n) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = mul i32 %wg, 256
  %i = add i32 %base, %tid
  %in = icmp ult i32 %i, %n
  br i1 %in, label %body, label %end
body:
  %ie = zext i32 %i to i64
  %pa = getelementptr float, ptr addrspace(1) %a, i64 %ie
  %pb = getelementptr float, ptr addrspace(1) %b, i64 %ie
  %pc = getelementptr float, ptr addrspace(1) %c, i64 %ie
  %va = load float, ptr addrspace(1) %pa
  %vb = load float, ptr addrspace(1) %pb
  %s = fadd float %va, %vb
  %m = fmul float %s, 2.0
  store float %m, ptr addrspace(1) %pc
  br label %end
end:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
attributes #0 = { "amdgpu-no-implicitarg-ptr" "amdgpu-no-dispatch-ptr" "amdgpu-no-queue-ptr" "amdgpu-no-dispatch-id" "amdgpu-flat-work-group-size"="1,256" }
