// Vector ALU checks for isa_executor_test.cc: kernel `valu(out)` runs one wave of 64
// work-items and stores row r of results to out[64 * r + lane] (the test's table lists each
// row's instruction and hand-computed value, including carries and exec-masked lanes).
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.include "store_macros.inc"


.globl valu
.p2align 8
.type valu,@function
valu:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshlrev_b32_e32 v20, 2, v0                 // lane * 4
  s_waitcnt lgkmcnt(0)
  s_add_u32 s14, s2, 0x1000
  s_addc_u32 s15, s3, 0
  // Carries: 0xffffffe0 + lane carries for lanes 32..63; the carry-in adds 1 there.
  v_mov_b32_e32 v1, 0xffffffe0
  v_add_co_u32_e32 v1, vcc, v1, v0
  s_mov_b64 s[4:5], vcc
  v_mov_b32_e32 v3, 0
  v_addc_co_u32_e32 v2, vcc, 0, v3, vcc
  STOREV v1, 0
  STOREV v2, 1
  STORES s4, 2
  STORES s5, 3
  STORES vcc_hi, 4
  // EXEC: lanes 0..9 only; masks written by VALU have 0 for inactive lanes.
  v_mov_b32_e32 v6, 1
  v_cmp_gt_u32_e32 vcc, 10, v0
  s_and_saveexec_b64 s[6:7], vcc
  v_mov_b32_e32 v6, 7
  v_cmp_eq_u32_e64 s[8:9], v0, v0
  v_add_co_u32_e64 v7, s[10:11], -1, v0
  s_mov_b64 exec, s[6:7]
  STOREV v6, 5
  STORES s8, 6
  STORES s9, 7
  STORES s10, 8
  // v_mad_u64_u32: lane * lane + (2^64 - 1), carrying out for every lane but 0.
  v_mov_b32_e32 v10, -1
  v_mov_b32_e32 v11, -1
  v_mad_u64_u32 v[12:13], s[12:13], v0, v0, v[10:11]
  STOREV v12, 9
  STOREV v13, 10
  STORES s12, 11
  STORES s13, 12
  // f32 with input modifiers; a select on an f32 compare.
  v_cvt_f32_u32_e32 v14, v0
  v_fma_f32 v15, v14, -0.5, 1.0                // 1 - lane / 2
  v_mul_f32_e32 v16, v14, v14                  // lane^2
  v_fma_f32 v17, -|v15|, 2.0, v16              // lane^2 - 2 |1 - lane / 2|
  v_add_f32_e32 v18, 0.5, v17
  v_cmp_gt_f32_e32 vcc, 0, v15                 // lanes 3..63
  v_cndmask_b32_e32 v19, v0, v16, vcc
  STOREV v15, 13
  STOREV v16, 14
  STOREV v17, 15
  STOREV v18, 16
  STOREV v19, 17
  // 64-bit shift of {v1 (high), v0 (low)} by 33.
  v_lshlrev_b64 v[22:23], 33, v[0:1]
  STOREV v22, 18
  STOREV v23, 19
  // Borrow: 32 - lane borrows for lanes 33..63.
  v_sub_co_u32_e32 v24, vcc, 32, v0
  STOREV v24, 20
  STORES vcc_lo, 21
  STORES vcc_hi, 22
  s_endpgm
.Lvalu_end:
.size valu, .Lvalu_end-valu

.rodata
.p2align 6
.amdhsa_kernel valu
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 25
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 28
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: valu
    .symbol: valu.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 25
    .agpr_count: 0
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
