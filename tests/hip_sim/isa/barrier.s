// s_barrier across the four waves of a 256-work-item workgroup, for isa_executor_test.cc:
//   exchange(buf, out):            buf[t] = t + 1; wait; barrier; out[t] = buf[(t + 64) % 256]
//   exchange_no_barrier(buf, out): the same without the wait and the barrier (a race on
//                                  hardware; the executor's wave order makes it a wrong result)
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text

.macro EXCHANGE_PROLOGUE
  s_load_dwordx4 s[4:7], s[0:1], 0x0     // buf, out
  v_lshlrev_b32_e32 v1, 2, v0            // t * 4
  v_add_u32_e32 v2, 1, v0                // t + 1
  v_add_u32_e32 v3, 64, v0
  v_and_b32_e32 v3, 0xff, v3
  v_lshlrev_b32_e32 v3, 2, v3            // ((t + 64) % 256) * 4
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v2, s[4:5]
.endm
.macro EXCHANGE_EPILOGUE
  global_load_dword v4, v3, s[4:5]
  s_waitcnt vmcnt(0)
  global_store_dword v1, v4, s[6:7]
  s_endpgm
.endm

.globl exchange
.p2align 8
.type exchange,@function
exchange:
  EXCHANGE_PROLOGUE
  s_waitcnt vmcnt(0)
  s_barrier
  EXCHANGE_EPILOGUE
.Lexchange_end:
.size exchange, .Lexchange_end-exchange

.globl exchange_no_barrier
.p2align 8
.type exchange_no_barrier,@function
exchange_no_barrier:
  EXCHANGE_PROLOGUE
  EXCHANGE_EPILOGUE
.Lexchange_no_barrier_end:
.size exchange_no_barrier, .Lexchange_no_barrier_end-exchange_no_barrier

.rodata
.macro EXCHANGE_DESCRIPTOR name
.p2align 6
.amdhsa_kernel \name
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_kernarg_size 16
  .amdhsa_next_free_vgpr 5
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.endm
EXCHANGE_DESCRIPTOR exchange
EXCHANGE_DESCRIPTOR exchange_no_barrier

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: exchange
    .symbol: exchange.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 5
    .max_flat_workgroup_size: 256
    .args:
      - { .name: buf, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: exchange_no_barrier
    .symbol: exchange_no_barrier.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 5
    .max_flat_workgroup_size: 256
    .args:
      - { .name: buf, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
