// Elementwise f32 kernels for the code-object executor's tests (isa_executor_test.cc):
//   add_f32(a, b, c, n):       c[i] = a[i] + b[i] for i < n, one element per work-item
//   add_f32_x4(a, b, c, n4):   the same four elements per work-item (global_load_dwordx4)
//   add_f32_no_wait(...):      add_f32 without the s_waitcnt vmcnt(0) before the add
//   add_f32_short_wait(...):   add_f32 waiting for vmcnt(1): the second load is outstanding
//   add_f32_no_lgkm_wait(...): uses the kernel arguments before their s_load returns
// Workgroups of 256 work-items (four waves); s2 is the workgroup id, v0 the work-item id.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text

.macro ELEMENTWISE_PROLOGUE wait=1
  s_load_dwordx4 s[4:7], s[0:1], 0x0     // a, b
  s_load_dwordx2 s[8:9], s[0:1], 0x10    // c
  s_load_dword s10, s[0:1], 0x18         // n
  s_lshl_b32 s11, s2, 8                  // first work-item of the workgroup
  v_add_u32_e32 v1, s11, v0              // global id
.if \wait
  s_waitcnt lgkmcnt(0)
.endif
  v_cmp_gt_u32_e32 vcc, s10, v1
  s_and_saveexec_b64 s[12:13], vcc
.endm

.globl add_f32
.p2align 8
.type add_f32,@function
add_f32:
  ELEMENTWISE_PROLOGUE
  s_cbranch_execz .Ladd_end
  v_lshlrev_b32_e32 v1, 2, v1
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[6:7]
  s_waitcnt vmcnt(0)
  v_add_f32_e32 v2, v2, v3
  global_store_dword v1, v2, s[8:9]
.Ladd_end:
  s_endpgm
.Ladd_f32_end:
.size add_f32, .Ladd_f32_end-add_f32

.globl add_f32_x4
.p2align 8
.type add_f32_x4,@function
add_f32_x4:
  ELEMENTWISE_PROLOGUE
  s_cbranch_execz .Lx4_end
  v_lshlrev_b32_e32 v1, 4, v1
  global_load_dwordx4 v[2:5], v1, s[4:5]
  global_load_dwordx4 v[6:9], v1, s[6:7]
  s_waitcnt vmcnt(0)
  v_add_f32_e32 v2, v2, v6
  v_add_f32_e32 v3, v3, v7
  v_add_f32_e32 v4, v4, v8
  v_add_f32_e32 v5, v5, v9
  global_store_dwordx4 v1, v[2:5], s[8:9]
.Lx4_end:
  s_endpgm
.Ladd_f32_x4_end:
.size add_f32_x4, .Ladd_f32_x4_end-add_f32_x4

.globl add_f32_no_wait
.p2align 8
.type add_f32_no_wait,@function
add_f32_no_wait:
  ELEMENTWISE_PROLOGUE
  s_cbranch_execz .Lno_wait_end
  v_lshlrev_b32_e32 v1, 2, v1
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[6:7]
  v_add_f32_e32 v2, v2, v3               // BUG: reads v2 and v3 before their loads return
  global_store_dword v1, v2, s[8:9]
.Lno_wait_end:
  s_endpgm
.Ladd_f32_no_wait_end:
.size add_f32_no_wait, .Ladd_f32_no_wait_end-add_f32_no_wait

.globl add_f32_short_wait
.p2align 8
.type add_f32_short_wait,@function
add_f32_short_wait:
  ELEMENTWISE_PROLOGUE
  s_cbranch_execz .Lshort_wait_end
  v_lshlrev_b32_e32 v1, 2, v1
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[6:7]
  s_waitcnt vmcnt(1)                     // BUG: only the first load has returned
  v_add_f32_e32 v2, v2, v3
  global_store_dword v1, v2, s[8:9]
.Lshort_wait_end:
  s_endpgm
.Ladd_f32_short_wait_end:
.size add_f32_short_wait, .Ladd_f32_short_wait_end-add_f32_short_wait

.globl add_f32_no_lgkm_wait
.p2align 8
.type add_f32_no_lgkm_wait,@function
add_f32_no_lgkm_wait:
  ELEMENTWISE_PROLOGUE 0                 // BUG: no s_waitcnt lgkmcnt(0) for the arguments
  s_cbranch_execz .Lno_lgkm_wait_end
  v_lshlrev_b32_e32 v1, 2, v1
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[6:7]
  s_waitcnt vmcnt(0)
  v_add_f32_e32 v2, v2, v3
  global_store_dword v1, v2, s[8:9]
.Lno_lgkm_wait_end:
  s_endpgm
.Ladd_f32_no_lgkm_wait_end:
.size add_f32_no_lgkm_wait, .Ladd_f32_no_lgkm_wait_end-add_f32_no_lgkm_wait

.rodata
.macro ELEMENTWISE_DESCRIPTOR name, vgprs
.p2align 6
.amdhsa_kernel \name
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_kernarg_size 28
  .amdhsa_next_free_vgpr \vgprs
  .amdhsa_next_free_sgpr 14
  .amdhsa_accum_offset 4
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel
.endm
ELEMENTWISE_DESCRIPTOR add_f32, 4
ELEMENTWISE_DESCRIPTOR add_f32_x4, 12
ELEMENTWISE_DESCRIPTOR add_f32_no_wait, 4
ELEMENTWISE_DESCRIPTOR add_f32_short_wait, 4
ELEMENTWISE_DESCRIPTOR add_f32_no_lgkm_wait, 4

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: add_f32
    .symbol: add_f32.kd
    .kernarg_segment_size: 28
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 4
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - { .name: a, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: b, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: c, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 24, .size: 4, .value_kind: by_value }
  - .name: add_f32_x4
    .symbol: add_f32_x4.kd
    .kernarg_segment_size: 28
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 10
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - { .name: a, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: b, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: c, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n4, .offset: 24, .size: 4, .value_kind: by_value }
  - .name: add_f32_no_wait
    .symbol: add_f32_no_wait.kd
    .kernarg_segment_size: 28
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 4
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - { .name: a, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: b, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: c, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 24, .size: 4, .value_kind: by_value }
  - .name: add_f32_short_wait
    .symbol: add_f32_short_wait.kd
    .kernarg_segment_size: 28
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 4
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - { .name: a, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: b, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: c, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 24, .size: 4, .value_kind: by_value }
  - .name: add_f32_no_lgkm_wait
    .symbol: add_f32_no_lgkm_wait.kd
    .kernarg_segment_size: 28
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 4
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - { .name: a, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: b, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: c, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 24, .size: 4, .value_kind: by_value }
...
.end_amdgpu_metadata
