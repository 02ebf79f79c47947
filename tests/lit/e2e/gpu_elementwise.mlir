// Elementwise kernels on the GPU move 128 bits per work-item and access: an f32 add reads
// and writes with global_load/store_dwordx4 (4 elements a work-item), an f16 to f32
// widening with 64-bit loads and 128-bit stores. Over two dimensions the same, through one
// flattened dimension (kiln-gpu-flatten-elementwise). An extent that 4 does not divide
// takes whole vectors, then its last 1 to 3 elements one a work-item in a loop of their
// own; fewer than 4 elements, one a work-item. Results checked on hip-sim and the CPU
// (and on the code object in tests/hip_sim/code_object_e2e).
// RUN: rm -rf %t && %python %S/Inputs/elementwise_operands.py %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln
// RUN: kiln-dump %t/gfx942.kiln --extract-executables=%t/gfx942
// RUN: llvm-objdump-22 -d --mcpu=gfx942 %t/gfx942/kiln_executable.gfx942.hsaco | FileCheck %s --check-prefix=ACCESS
// RUN: kiln-compile %s -o %t/cpu.kiln
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=add --input=@%t/a.npy --input=@%t/b.npy --expected_output=@%t/add.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=widen --input=@%t/h.npy --expected_output=@%t/widened.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=odd_mul --input=@%t/odd_a.npy --input=@%t/odd_b.npy --expected_output=@%t/odd_mul.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=add2d --input=@%t/m_a.npy --input=@%t/m_b.npy --expected_output=@%t/add2d.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=odd_sub2d --input=@%t/o_a.npy --input=@%t/o_b.npy --expected_output=@%t/odd_sub2d.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=tiny_mul --input=@%t/t_a.npy --input=@%t/t_b.npy --expected_output=@%t/tiny_mul.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=add --input=@%t/a.npy --input=@%t/b.npy --expected_output=@%t/add.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=widen --input=@%t/h.npy --expected_output=@%t/widened.npy --atol=0 --rtol=0

// ACCESS-LABEL: <add_dispatch_0_add>:
// ACCESS-NOT: global_{{load|store}}_dword{{ }}
// ACCESS: global_load_dwordx4
// ACCESS-NEXT: global_load_dwordx4
// ACCESS-NOT: global_{{load|store}}_dword{{ }}
// ACCESS: global_store_dwordx4
// ACCESS-LABEL: <widen_dispatch_0_generic>:
// ACCESS-NOT: global_load_ushort
// ACCESS: global_load_dwordx2
// ACCESS-NOT: global_{{load|store}}_dword{{ }}
// ACCESS: global_store_dwordx4
// 1022 = 255 vectors and 2 elements.
// ACCESS-LABEL: <odd_mul_dispatch_0_mul>:
// ACCESS-NOT: global_{{load|store}}_dword{{ }}
// ACCESS: global_load_dwordx4
// ACCESS-NEXT: global_load_dwordx4
// ACCESS-NOT: global_{{load|store}}_dword{{ }}
// ACCESS: global_store_dwordx4
// ACCESS: global_load_dword{{ }}
// ACCESS-NEXT: global_load_dword{{ }}
// ACCESS: global_store_dword{{ }}
// ACCESS-NOT: global_{{load|store}}_dwordx4
// ACCESS-LABEL: <add2d_dispatch_0_add>:
// ACCESS-NOT: global_{{load|store}}_dword{{ }}
// ACCESS: global_load_dwordx4
// ACCESS-NEXT: global_load_dwordx4
// ACCESS-NOT: global_{{load|store}}_dword{{ }}
// ACCESS: global_store_dwordx4
// ACCESS-NOT: global_{{load|store}}_dword{{ }}
// ACCESS-LABEL: <odd_sub2d_dispatch_0_sub>:
// ACCESS-NOT: global_{{load|store}}_dword{{ }}
// ACCESS: global_load_dwordx4
// ACCESS-NEXT: global_load_dwordx4
// ACCESS: global_store_dwordx4
// ACCESS: global_load_dword{{ }}
// ACCESS-NEXT: global_load_dword{{ }}
// ACCESS: global_store_dword{{ }}
// ACCESS-LABEL: <tiny_mul_dispatch_0_mul>:
// ACCESS-NOT: global_{{load|store}}_dwordx4
// ACCESS: global_load_dword{{ }}
// ACCESS-NOT: global_{{load|store}}_dwordx4

func.func @add(%a: tensor<65536xf32>, %b: tensor<65536xf32>) -> tensor<65536xf32> {
  %e = tensor.empty() : tensor<65536xf32>
  %r = linalg.add ins(%a, %b : tensor<65536xf32>, tensor<65536xf32>) outs(%e : tensor<65536xf32>) -> tensor<65536xf32>
  return %r : tensor<65536xf32>
}

func.func @widen(%h: tensor<65536xf16>) -> tensor<65536xf32> {
  %e = tensor.empty() : tensor<65536xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%h : tensor<65536xf16>) outs(%e : tensor<65536xf32>) {
  ^bb0(%in: f16, %o: f32):
    %w = arith.extf %in : f16 to f32
    %d = arith.mulf %w, %two : f32
    linalg.yield %d : f32
  } -> tensor<65536xf32>
  return %r : tensor<65536xf32>
}

func.func @odd_mul(%a: tensor<1022xf32>, %b: tensor<1022xf32>) -> tensor<1022xf32> {
  %e = tensor.empty() : tensor<1022xf32>
  %r = linalg.mul ins(%a, %b : tensor<1022xf32>, tensor<1022xf32>) outs(%e : tensor<1022xf32>) -> tensor<1022xf32>
  return %r : tensor<1022xf32>
}

func.func @add2d(%a: tensor<256x250xf32>, %b: tensor<256x250xf32>) -> tensor<256x250xf32> {
  %e = tensor.empty() : tensor<256x250xf32>
  %r = linalg.add ins(%a, %b : tensor<256x250xf32>, tensor<256x250xf32>) outs(%e : tensor<256x250xf32>) -> tensor<256x250xf32>
  return %r : tensor<256x250xf32>
}

func.func @odd_sub2d(%a: tensor<37x41xf32>, %b: tensor<37x41xf32>) -> tensor<37x41xf32> {
  %e = tensor.empty() : tensor<37x41xf32>
  %r = linalg.sub ins(%a, %b : tensor<37x41xf32>, tensor<37x41xf32>) outs(%e : tensor<37x41xf32>) -> tensor<37x41xf32>
  return %r : tensor<37x41xf32>
}

func.func @tiny_mul(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.mul ins(%a, %b : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
