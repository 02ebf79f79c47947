// Checks of the narrow-integer, extra integer, scalar and f32 special groups for
// isa_mfma_test.cc: `extra(out)` runs one wave; row r of results goes to out[64 * r + lane]
// (STOREV/STORES, store_macros.inc); the test lists each row's hand-computed value.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.include "store_macros.inc"

.globl extra
.p2align 8
.type extra,@function
extra:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshlrev_b32_e32 v20, 2, v0                 // lane * 4
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v1, 0xfff0
  v_add_u16_e32 v2, v1, v0                     // wraps at 16 bits for lanes >= 16
  STOREV v2, 0
  v_mov_b32_e32 v3, 0x12345678
  v_mov_b32_e32 v4, 0x9abcdef0
  v_mov_b32_e32 v5, 0x0c080701                 // selectors 1, 7, 8 (sign of byte 1), 12
  v_perm_b32 v6, v3, v4, v5
  STOREV v6, 1
  v_subrev_u32_e32 v7, 32, v0                  // lane - 32
  v_med3_i32 v8, v7, -5, 7                     // clamp to [-5, 7]
  STOREV v8, 2
  v_mov_b32_e32 v9, 0xff000003                 // low 24 bits: 3
  v_mul_u32_u24_e32 v10, v9, v0
  STOREV v10, 3
  s_mov_b32 s4, -3
  s_mov_b32 s5, 0x40000000
  s_mul_hi_i32 s6, s4, s5                      // -3 * 2^30 >> 32 = -1
  STORES s6, 4
  s_mov_b32 s7, 0
  s_cmpk_lt_i32 s4, 0xfffe                     // -3 < -2: SCC = 1
  s_cselect_b32 s7, 1, 2
  STORES s7, 5
  s_mov_b64 s[8:9], 0x100000
  s_flbit_i32_b64 s10, s[8:9]                  // bit 20 is the highest: 43 zeros above it
  STORES s10, 6
  v_cvt_f32_u32_e32 v11, v0
  v_add_f32_e32 v11, 1.0, v11                  // lane + 1
  v_rcp_f32_e32 v12, v11
  STOREV v12, 7
  v_mov_b32_e32 v13, 0x40a00000                // 5.0
  v_fmamk_f32 v14, v11, 0x40400000, v13        // (lane + 1) * 3 + 5
  STOREV v14, 8
  v_mov_b64 v[16:17], v[4:5]
  STOREV v17, 9
  s_endpgm
.Lextra_end:
.size extra, .Lextra_end-extra

.rodata
.p2align 6
.amdhsa_kernel extra
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 24
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: extra
    .symbol: extra.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 24
    .agpr_count: 0
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
