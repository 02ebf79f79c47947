// Elementwise kernels on the GPU move 128 bits per work-item and access: an f32 add reads
// and writes with global_load/store_dwordx4 (4 elements a work-item), an f16 to f32
// widening with 64-bit loads and 128-bit stores; an extent that 4 does not divide keeps
// one element a work-item. Results checked on hip-sim and the CPU.
// RUN: rm -rf %t && %python %S/Inputs/elementwise_operands.py %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln
// RUN: kiln-dump %t/gfx942.kiln --extract-executables=%t/gfx942
// RUN: llvm-objdump-22 -d --mcpu=gfx942 %t/gfx942/kiln_executable.gfx942.hsaco | FileCheck %s --check-prefix=ACCESS
// RUN: kiln-compile %s -o %t/cpu.kiln
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=add --input=@%t/a.npy --input=@%t/b.npy --expected_output=@%t/add.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=widen --input=@%t/h.npy --expected_output=@%t/widened.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=odd_mul --input=@%t/odd_a.npy --input=@%t/odd_b.npy --expected_output=@%t/odd_mul.npy --atol=0 --rtol=0
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
// ACCESS-LABEL: <odd_mul_dispatch_0_mul>:
// ACCESS: global_load_dword{{ }}

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
