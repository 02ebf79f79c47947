// Scalar ALU and control-flow checks for isa_executor_test.cc: kernel `salu(out)` runs one
// work-item and stores each result to out[k] (the test's table lists k, the instruction and
// the hand-computed value). s[0:1] is the kernarg pointer; no system SGPRs.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.include "store_macros.inc"


.globl salu
.p2align 8
.type salu,@function
salu:
  s_load_dwordx2 s[28:29], s[0:1], 0x0
  v_mov_b32_e32 v0, 0
  s_mov_b32 s4, 0xffffffff
  s_add_u32 s5, s4, 2                    // 1, SCC = 1 (carry)
  s_cselect_b32 s6, 11, 22               // 11
  s_addc_u32 s7, 5, 6                    // 12 (carry in), SCC = 0
  s_cselect_b32 s8, 11, 22               // 22
  s_sub_u32 s9, 3, 5                     // 0xfffffffe, SCC = 1 (borrow)
  s_subb_u32 s10, 10, 3                  // 6 (borrow in), SCC = 0
  s_mul_i32 s11, -7, 6                   // -42
  s_lshl_b32 s12, 0x12345678, 4          // 0x23456780
  s_ashr_i32 s13, 0x80000000, 4          // 0xf8000000
  s_lshr_b32 s14, 0x80000000, 4          // 0x08000000
  s_mov_b32 s15, 0x0ff00ff0
  s_and_b32 s15, 0xff00ff00, s15         // 0x0f000f00
  s_or_b32 s16, 0xf0, 0x0f               // 0xff
  s_movk_i32 s17, 0x7f00
  s_xor_b32 s17, 0x7fff, s17             // 0xff
  s_mov_b64 s[18:19], -1
  s_lshl_b64 s[18:19], s[18:19], 40      // 0xffffff00_00000000
  s_cmp_lt_i32 -1, 0                     // SCC = 1
  s_cselect_b32 s20, 1, 0                // 1
  s_cmp_lt_u32 -1, 0                     // SCC = 0
  s_cselect_b32 s21, 1, 0                // 0
  s_add_i32 s22, 0x7fffffff, 1           // 0x80000000, SCC = 1 (signed overflow)
  s_cselect_b32 s23, 1, 0                // 1
  s_movk_i32 s24, 0x8000                 // 0xffff8000 (sign-extended)
  s_xor_b64 s[26:27], s[18:19], -1       // 0x000000ff_ffffffff
  s_cmp_eq_u64 s[26:27], 0               // SCC = 0
  s_cselect_b32 s25, 1, 0                // 0
  // A loop: s30 = sum of 1..5 with s_cbranch_scc1.
  s_mov_b32 s30, 0
  s_mov_b32 s31, 1
.Lloop:
  s_add_u32 s30, s30, s31
  s_add_u32 s31, s31, 1
  s_cmp_le_u32 s31, 5
  s_cbranch_scc1 .Lloop                  // s30 = 15
  s_waitcnt lgkmcnt(0)
  STORE s5, 0
  STORE s6, 1
  STORE s7, 2
  STORE s8, 3
  STORE s9, 4
  STORE s10, 5
  STORE s11, 6
  STORE s12, 7
  STORE s13, 8
  STORE s14, 9
  STORE s15, 10
  STORE s16, 11
  STORE s17, 12
  STORE s18, 13
  STORE s19, 14
  STORE s20, 15
  STORE s21, 16
  STORE s22, 17
  STORE s23, 18
  STORE s24, 19
  STORE s26, 20
  STORE s27, 21
  STORE s25, 22
  STORE s30, 23
  s_endpgm
.Lsalu_end:
.size salu, .Lsalu_end-salu

.rodata
.p2align 6
.amdhsa_kernel salu
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_system_vgpr_workitem_id 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 2
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 4
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: salu
    .symbol: salu.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 32
    .vgpr_count: 2
    .agpr_count: 0
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
