// DPP checks for isa_dpp_test.cc: `dpp(out)` runs one wave; row r of results goes to
// out[64 * r + lane] (STOREV, store_macros.inc); the test computes each row by hand.
//   row 0: an inclusive prefix sum of lane + 1 over the wave, as LLVM's wave scans build it:
//          row_shr:1, 2, 4, 8 with bound_ctrl (lanes without a source add 0), then row_bcast:15
//          into rows 1 and 3 and row_bcast:31 into rows 2 and 3 (row_mask 0xa, 0xc)
//   row 1: quad_perm:[3,2,1,0] (each quad reversed)
//   row 2: row_shr:1 without bound_ctrl over 0xdead: lane 0 of each row keeps 0xdead
//   row 3: row_shr:1 with bound_ctrl and lane 5 off in EXEC: lane 6 reads 0 (its source is
//          off), lane 5 does not write (0xdead), every other lane reads lane - 1 (0 at row starts)
//   row 4: quad_perm identity under row_mask 0x5 and bank_mask 0x3: rows 0 and 2, lanes 0-7 of
//          the row, write; the rest keep 0xdead
//   row 5: v_add_f32_dpp with a negated SRC0, row_ror:4: -(lane - 4 mod 16 in the row) + 0.5
//   row 6: row_mirror, row 7: row_half_mirror, row 8: wave_shr:1 (bound_ctrl), row 9: wave_rol:1
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.include "row_kernel.inc"

ROW_KERNEL_START dpp
  v_add_u32_e32 v1, 1, v0                      // lane + 1
  s_nop 1
  v_add_u32_dpp v1, v1, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
  s_nop 1
  v_add_u32_dpp v1, v1, v1 row_shr:2 row_mask:0xf bank_mask:0xf bound_ctrl:1
  s_nop 1
  v_add_u32_dpp v1, v1, v1 row_shr:4 row_mask:0xf bank_mask:0xf bound_ctrl:1
  s_nop 1
  v_add_u32_dpp v1, v1, v1 row_shr:8 row_mask:0xf bank_mask:0xf bound_ctrl:1
  s_nop 1
  v_add_u32_dpp v1, v1, v1 row_bcast:15 row_mask:0xa bank_mask:0xf
  s_nop 1
  v_add_u32_dpp v1, v1, v1 row_bcast:31 row_mask:0xc bank_mask:0xf
  STOREV v1, 0
  v_mov_b32_dpp v2, v0 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
  STOREV v2, 1
  v_mov_b32_e32 v3, 0xdead
  s_nop 1
  v_mov_b32_dpp v3, v0 row_shr:1 row_mask:0xf bank_mask:0xf
  STOREV v3, 2
  v_mov_b32_e32 v4, 0xdead
  s_mov_b64 s[4:5], exec
  s_andn2_b64 exec, exec, 0x20                 // lane 5 off
  s_nop 1
  v_mov_b32_dpp v4, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
  s_mov_b64 exec, s[4:5]
  STOREV v4, 3
  v_mov_b32_e32 v5, 0xdead
  s_nop 1
  v_mov_b32_dpp v5, v0 quad_perm:[0,1,2,3] row_mask:0x5 bank_mask:0x3
  STOREV v5, 4
  v_cvt_f32_u32_e32 v6, v0
  v_mov_b32_e32 v7, 0.5
  s_nop 1
  v_add_f32_dpp v7, -v6, v7 row_ror:4 row_mask:0xf bank_mask:0xf
  STOREV v7, 5
  v_mov_b32_dpp v8, v0 row_mirror row_mask:0xf bank_mask:0xf
  STOREV v8, 6
  v_mov_b32_dpp v9, v0 row_half_mirror row_mask:0xf bank_mask:0xf
  STOREV v9, 7
  v_mov_b32_dpp v10, v0 wave_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
  STOREV v10, 8
  v_mov_b32_dpp v11, v0 wave_rol:1 row_mask:0xf bank_mask:0xf
  STOREV v11, 9
ROW_KERNEL_END dpp
