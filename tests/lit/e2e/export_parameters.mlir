// kiln-compile --export-parameters (and IREE's --iree-parameter-export*): the weights of a
// linear layer (a function constant) and an immutable global move into an archive that
// kiln-run binds with --parameters, giving the results of the module that embeds them;
// the small bias stays in the module. --iree-parameter-splat writes the weightless archive
// with which the same module runs on zeros. On cpu, cpu-sync and hip-sim.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-compile %s -o %t/inline.kiln
// RUN: kiln-compile %s --export-parameters=model=%t/w.irpa --export-parameters-minimum-size=64 -o %t/cpu.kiln
// RUN: kiln-convert-parameters --list %t/w.irpa | FileCheck %s --check-prefix=LIST
// LIST:      w.irpa: 2 parameters
// LIST-NEXT: table - - 64 data@
// LIST-NEXT: __constant_0 - - 128 data@
// RUN: kiln-compile %s --target=gfx942 --iree-parameter-export=model=%t/w_gpu.irpa --iree-parameter-export-minimum-size=64 --iree-parameter-splat=%t/splat.irpa -o %t/gpu.kiln
// RUN: kiln-convert-parameters --list %t/splat.irpa | FileCheck %s --check-prefix=SPLAT
// SPLAT:      splat.irpa: 2 parameters
// SPLAT-NEXT: __constant_0 - - 128 splat:0x00
// SPLAT-NEXT: table - - 64 splat:0x00
//
// RUN: kiln-run --module=%t/inline.kiln --function=linear --input=1x4xf32=1,2,3,4 --expected_output=1x8xf32=160,171,182,193,204,215,226,237
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --parameters=model=%t/w.irpa --function=linear --input=1x4xf32=1,2,3,4 --expected_output=1x8xf32=160,171,182,193,204,215,226,237
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --parameters=model=%t/w.irpa --parameter_mode=preload --function=scaled --expected_output=16xf32=2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32
// RUN: kiln-run --module=%t/gpu.kiln --device=hip-sim --parameters=model=%t/w_gpu.irpa --function=linear --input=1x4xf32=1,2,3,4 --expected_output=1x8xf32=160,171,182,193,204,215,226,237
// RUN: kiln-run --module=%t/gpu.kiln --device=hip-sim --parameters=model=%t/splat.irpa --function=linear --input=1x4xf32=1,2,3,4 --expected_output=1x8xf32=0,1,2,3,4,5,6,7
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --parameters=model=%t/splat.irpa --function=scaled --expected_output=16xf32=0
//
// The exported module has no weights without the archive:
// RUN: not kiln-run --module=%t/cpu.kiln --function=linear --input=1x4xf32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=NOFILES
// NOFILES: no parameter files were given; pass --parameters=model=FILE
// RUN: not kiln-compile %s --export-parameters=model= -o %t/x.kiln 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: kiln-compile: --export-parameters='model=' names no file; expected [SCOPE=]FILE

util.global private @table = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]> : tensor<16xf32>

func.func @linear(%x: tensor<1x4xf32>) -> tensor<1x8xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
                             [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0],
                             [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0],
                             [24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0]]> : tensor<4x8xf32>
  %b = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]]> : tensor<1x8xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x4xf32>, tensor<4x8xf32>) outs(%b : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

func.func @scaled() -> tensor<16xf32> {
  %t = util.global.load @table : tensor<16xf32>
  %s = arith.addf %t, %t : tensor<16xf32>
  return %s : tensor<16xf32>
}
