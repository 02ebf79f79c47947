// More scalar and vector checks for isa_executor_test.cc, beside scalar_ops.s and
// vector_ops.s: `salu2(out)` (one work-item, out[k]) and `valu2(out)` (one wave, row r of
// out[64 * r + lane]); the test lists each result with its hand-computed value.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.include "store_macros.inc"


.globl salu2
.p2align 8
.type salu2,@function
salu2:
  s_load_dwordx2 s[28:29], s[0:1], 0x0
  v_mov_b32_e32 v0, 0
  s_min_i32 s4, -3, 2                    // -3, SCC = 1 (S0 chosen)
  s_cselect_b32 s5, 1, 0                 // 1
  s_max_u32 s6, 3, 0xfffffffe            // 0xfffffffe, SCC = 0
  s_cselect_b32 s7, 1, 0                 // 0
  s_mov_b32 s8, 0x80004
  s_bfe_u32 s9, 0x12345678, s8           // (0x12345678 >> 4) & 0xff = 0x67
  s_mov_b32 s10, 0
  s_mov_b32 s11, 0x80000000
  s_ashr_i64 s[10:11], s[10:11], 60      // 0xffffffff_fffffff8
  s_andn2_b32 s12, 0xff, 15              // 0xf0
  s_bitcmp1_b32 16, 4                    // SCC = 1
  s_mov_b32 s13, 5
  s_cmov_b32 s13, 6                      // 6
  s_bitcmp0_b32 16, 4                    // SCC = 0
  s_cmov_b32 s13, 7                      // still 6
  s_mul_hi_u32 s14, 0x80000000, 6        // 3
  s_movk_i32 s15, 0x7fff
  s_addk_i32 s15, 0x7fff                 // 0xfffe
  s_mulk_i32 s15, -2                     // -0x1fffc
  s_nand_b32 s16, -1, 0xf0               // 0xffffff0f
  s_lshr_b64 s[18:19], -1, 36            // 0x00000000_0fffffff
  // s_cbranch_vccz / vccnz / execnz: s20 counts the branches taken.
  s_mov_b32 s20, 0
  s_mov_b64 vcc, 0
  s_cbranch_vccnz .Lskip1                // not taken
  s_add_u32 s20, s20, 1
.Lskip1:
  s_cbranch_vccz .Ltaken1                // taken
  s_add_u32 s20, s20, 100
.Ltaken1:
  s_cbranch_execnz .Ltaken2              // taken (lane 0 is active)
  s_add_u32 s20, s20, 100
.Ltaken2:
  s_branch .Ltaken3
  s_add_u32 s20, s20, 100
.Ltaken3:
  s_waitcnt lgkmcnt(0)
  STORE s4, 0
  STORE s5, 1
  STORE s6, 2
  STORE s7, 3
  STORE s9, 4
  STORE s10, 5
  STORE s11, 6
  STORE s12, 7
  STORE s13, 8
  STORE s14, 9
  STORE s15, 10
  STORE s16, 11
  STORE s18, 12
  STORE s19, 13
  STORE s20, 14
  s_endpgm
.Lsalu2_end:
.size salu2, .Lsalu2_end-salu2

.globl valu2
.p2align 8
.type valu2,@function
valu2:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshlrev_b32_e32 v20, 2, v0
  v_cvt_f32_u32_e32 v14, v0                    // float(lane)
  v_bfe_u32 v1, v0, 1, 3                       // (lane >> 1) & 7
  v_subrev_u32_e32 v3, 32, v0                  // lane - 32
  v_max_i32_e32 v2, -5, v3                     // max(lane - 32, -5)
  v_mov_b32_e32 v4, 0x7fbadbad                 // a signalling NaN
  v_max_f32_e32 v5, v4, v14                    // the NaN, quieted
  v_min_f32_e32 v6, 0x41200000, v14            // min(10.0, lane)
  v_mul_f32_e32 v7, -1.5, v14
  v_cvt_i32_f32_e32 v7, v7                     // trunc(-1.5 lane)
  v_mov_b32_e32 v9, 0x4cbebc20                 // 1e8
  v_mul_f32_e32 v9, v9, v14
  v_cvt_u32_f32_e32 v9, v9                     // lane * 1e8, saturated at 2^32 - 1
  s_mov_b32 s6, 0x55555555
  s_mov_b32 s7, 0x55555555
  v_addc_co_u32_e64 v10, s[4:5], v0, -1, s[6:7]  // lane - 1 + carry-in (even lanes)
  v_cndmask_b32_e64 v11, 0, -v14, s[6:7]       // even lanes: -lane, odd: 0
  s_waitcnt lgkmcnt(0)
  STOREV v1, 0
  STOREV v2, 1
  STOREV v5, 2
  STOREV v6, 3
  STOREV v7, 4
  STOREV v9, 5
  STOREV v10, 6
  STORES s4, 7
  STORES s5, 8
  STOREV v11, 9
  // v_cmpx: EXEC = lanes below 20, also in s[10:11].
  v_mov_b32_e32 v12, 0
  s_mov_b64 s[8:9], exec
  v_cmpx_gt_u32_e64 s[10:11], 20, v0
  v_mov_b32_e32 v12, 99
  v_cmp_lt_u32_e32 vcc, 4, v0                  // lanes 5..19 of the active ones
  s_and_b64 exec, exec, vcc
  v_readfirstlane_b32 s12, v0                  // 5
  s_mov_b64 exec, s[8:9]
  STOREV v12, 10
  STORES s10, 11
  STORES s12, 12
  v_mov_b32_e32 v13, 0x80000001
  v_mul_hi_u32 v13, v0, v13                    // lane >> 1
  v_lshl_add_u32 v15, v0, 4, 3                 // 16 lane + 3
  v_ashrrev_i32_e32 v16, 2, v3                 // (lane - 32) >> 2, arithmetic
  STOREV v13, 13
  STOREV v15, 14
  STOREV v16, 15
  s_endpgm
.Lvalu2_end:
.size valu2, .Lvalu2_end-valu2

.rodata
.p2align 6
.amdhsa_kernel salu2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 2
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel valu2
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 21
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 24
  .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: salu2
    .symbol: salu2.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 32
    .vgpr_count: 2
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: valu2
    .symbol: valu2.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 21
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
