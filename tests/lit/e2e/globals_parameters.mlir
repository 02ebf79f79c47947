// Module state and weights in files, end to end through kiln-run: immutable globals bound to
// named parameters in two scopes (safetensors, an .irpa made by kiln-convert-parameters, a
// GGUF file of f16), a mutable tensor global set by an initializer and updated twice within
// one call (the second load sees the first store, ordered with the dispatches), a scalar
// counter; file and preload modes, on cpu, cpu-sync and hip-sim; and each error of a
// missing or mismatched parameter, one line naming the file, the key and what differs.
// (Calls that see the state of earlier calls: tests/runtime/state_test.cc.)
// RUN: rm -rf %t && %python %S/Inputs/parameter_files.py %t
// RUN: kiln-convert-parameters %t/weights.safetensors -o %t/weights.irpa
// RUN: kiln-compile %s -o %t/cpu.kiln
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --parameters=model=%t/weights.safetensors --parameters=extra=%t/extra.gguf --function=linear --input=@%t/x.npy --expected_output=@%t/linear.npy
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --parameters=model=%t/weights.irpa --parameters=extra=%t/extra.gguf --parameter_mode=preload --function=linear --input=@%t/x.npy --expected_output=@%t/linear.npy
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --parameters=model=%t/weights.irpa --parameters=extra=%t/extra.gguf --function=scaled_twice --input=@%t/x.npy --expected_output=@%t/scaled_twice.npy --expected_output=i32=1
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --parameters=model=%t/weights.safetensors --parameters=extra=%t/extra.gguf --function=scaled_twice --input=@%t/x.npy --expected_output=@%t/scaled_twice.npy --expected_output=i32=1
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --parameters=model=%t/weights.irpa --parameters=extra=%t/extra.gguf --parameter_mode=preload --function=linear --input=@%t/x.npy --expected_output=@%t/linear.npy
//
// RUN: not kiln-run --module=%t/cpu.kiln --function=linear --input=@%t/x.npy 2>&1 | FileCheck %s --check-prefix=NOFILES
// NOFILES: no parameter files were given; pass --parameters=model=FILE
// RUN: not kiln-run --module=%t/cpu.kiln --parameters=model=%t/missing_b.safetensors --parameters=extra=%t/extra.gguf --function=linear --input=@%t/x.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: no parameter 'b' in scope 'model' (files: {{.*}}missing_b.safetensors)
// RUN: not kiln-run --module=%t/cpu.kiln --parameters=model=%t/weights.safetensors --function=linear --input=@%t/x.npy 2>&1 | FileCheck %s --check-prefix=SCOPE
// SCOPE: no parameter scope 'extra' (scopes: 'model')
// RUN: not kiln-run --module=%t/cpu.kiln --parameters=model=%t/w_transposed.safetensors --parameters=extra=%t/extra.gguf --function=linear --input=@%t/x.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: w_transposed.safetensors it is 3x4xf32; the program's global is 4x3xf32
// SHAPE-SAME: for parameter 'model'::'w'
// RUN: not kiln-run --module=%t/cpu.kiln --parameters=model=%t/weights.safetensors --parameters=extra=%t/extra.gguf --parameter_mode=mapped --function=linear --input=@%t/x.npy 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: unknown parameter mode 'mapped'; expected 'file' or 'preload'

util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<4x3xf32>
util.global private @b = #stream.parameter.named<"model"::"b"> : tensor<3xf32>
util.global private @scale = #stream.parameter.named<"extra"::"scale"> : tensor<3xf16>
util.global private mutable @acc : tensor<3xf32>
util.global private mutable @calls = 0 : i32

util.initializer {
  %zero = arith.constant dense<0.0> : tensor<3xf32>
  util.global.store %zero, @acc : tensor<3xf32>
  util.return
}

util.func public @linear(%x: tensor<4xf32>) -> tensor<3xf32> {
  %w = util.global.load @w : tensor<4x3xf32>
  %b = util.global.load @b : tensor<3xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<3xf32>) -> tensor<3xf32>
  %xw = linalg.vecmat ins(%x, %w : tensor<4xf32>, tensor<4x3xf32>) outs(%init : tensor<3xf32>) -> tensor<3xf32>
  %y = arith.addf %xw, %b : tensor<3xf32>
  util.return %y : tensor<3xf32>
}

// acc += y * scale, twice; returns acc (2 y scale on the first call) and the call count.
util.func public @scaled_twice(%x: tensor<4xf32>) -> (tensor<3xf32>, i32) {
  %y = util.call @linear(%x) : (tensor<4xf32>) -> tensor<3xf32>
  %scale16 = util.global.load @scale : tensor<3xf16>
  %scale = arith.extf %scale16 : tensor<3xf16> to tensor<3xf32>
  %step = arith.mulf %y, %scale : tensor<3xf32>
  %a0 = util.global.load @acc : tensor<3xf32>
  %a1 = arith.addf %a0, %step : tensor<3xf32>
  util.global.store %a1, @acc : tensor<3xf32>
  %a2 = util.global.load @acc : tensor<3xf32>
  %a3 = arith.addf %a2, %step : tensor<3xf32>
  util.global.store %a3, @acc : tensor<3xf32>
  %n = util.global.load @calls : i32
  %one = arith.constant 1 : i32
  %n1 = arith.addi %n, %one : i32
  util.global.store %n1, @calls : i32
  %result = util.global.load @acc : tensor<3xf32>
  util.return %result, %n1 : tensor<3xf32>, i32
}
