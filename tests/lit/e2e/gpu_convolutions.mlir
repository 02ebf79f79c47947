// Convolutions through the GPU's workgroup contraction strategy as implicit GEMMs (m = batch
// and output image, n = output channels, k = filter window and input channels; the input
// is staged into LDS through its indexing map, the im2col matrix never stored), on hip-sim
// against numpy and the CPU: MFMA on gfx942 (f32, f16 into f32, i8 into i32), WMMA on
// gfx1100 (f16 into f32), SIMT tiles for f32 on gfx1100; strides and dilations, channel
// counts that fill no vector, NCHW x FCHW, one-dimensional, a dynamic batch. Operands are
// small integers: results compare exactly.
// RUN: rm -rf %t && %python %S/Inputs/convolution_operands.py %t
// RUN: kiln-compile --target=gfx942 %s -o %t/gfx942.kiln --report=%t/report.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.txt
// RUN: kiln-compile --target=gfx1100 %s -o %t/gfx1100.kiln
// RUN: kiln-compile %s -o %t/cpu.kiln
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=conv_f32 --input=@%t/x.npy --input=@%t/w.npy --expected_output=@%t/y.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=conv_f16 --input=@%t/x_f16.npy --input=@%t/w_f16.npy --expected_output=@%t/y.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=conv_i8 --input=@%t/x_i8.npy --input=@%t/w_i8.npy --expected_output=@%t/y_i32.npy
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=conv_strided --input=@%t/xs.npy --input=@%t/ws.npy --expected_output=@%t/ys.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=conv_nchw --input=@%t/xc.npy --input=@%t/wc.npy --expected_output=@%t/yc.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=conv_1d --input=@%t/x1.npy --input=@%t/w1.npy --expected_output=@%t/y1.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim --function=conv_dynamic_batch --input=@%t/x.npy --input=@%t/w.npy --expected_output=@%t/y.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=conv_f32 --input=@%t/x.npy --input=@%t/w.npy --expected_output=@%t/y.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=conv_f16 --input=@%t/x_f16.npy --input=@%t/w_f16.npy --expected_output=@%t/y.npy --atol=0 --rtol=0
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=conv_i8 --input=@%t/x_i8.npy --input=@%t/w_i8.npy --expected_output=@%t/y_i32.npy
// RUN: env KILN_HSA_SIM_AGENTS=gfx1100 kiln-run --module=%t/gfx1100.kiln --device=hip-sim --function=conv_strided --input=@%t/xs.npy --input=@%t/ws.npy --expected_output=@%t/ys.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu --function=conv_strided --input=@%t/xs.npy --input=@%t/ws.npy --expected_output=@%t/ys.npy --atol=0 --rtol=0
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync --function=conv_nchw --input=@%t/xc.npy --input=@%t/wc.npy --expected_output=@%t/yc.npy --atol=0 --rtol=0
// Every convolution stages its operands through LDS:
// REPORT-COUNT-7: gfx942 {{conv_[a-z0-9_]+}}: workgroup 256x1x1 (distributed), {{.*}} LDS {{[1-9][0-9]*}} B, scratch 0 B/work-item

func.func @conv_f32(%x: tensor<2x18x18x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<2x16x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x16x32xf32>) -> tensor<2x16x16x32xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x18x18x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<2x16x16x32xf32>) -> tensor<2x16x16x32xf32>
  return %y : tensor<2x16x16x32xf32>
}

func.func @conv_f16(%x: tensor<2x18x18x16xf16>, %w: tensor<3x3x16x32xf16>) -> tensor<2x16x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x16x32xf32>) -> tensor<2x16x16x32xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x18x18x16xf16>, tensor<3x3x16x32xf16>) outs(%f : tensor<2x16x16x32xf32>) -> tensor<2x16x16x32xf32>
  return %y : tensor<2x16x16x32xf32>
}

func.func @conv_i8(%x: tensor<2x18x18x16xi8>, %w: tensor<3x3x16x32xi8>) -> tensor<2x16x16x32xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x16x16x32xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<2x16x16x32xi32>) -> tensor<2x16x16x32xi32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x18x18x16xi8>, tensor<3x3x16x32xi8>) outs(%f : tensor<2x16x16x32xi32>) -> tensor<2x16x16x32xi32>
  return %y : tensor<2x16x16x32xi32>
}

func.func @conv_strided(%x: tensor<1x17x19x5xf32>, %w: tensor<3x3x5x20xf32>) -> tensor<1x7x17x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x17x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x17x20xf32>) -> tensor<1x7x17x20xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w : tensor<1x17x19x5xf32>, tensor<3x3x5x20xf32>) outs(%f : tensor<1x7x17x20xf32>) -> tensor<1x7x17x20xf32>
  return %y : tensor<1x7x17x20xf32>
}

func.func @conv_nchw(%x: tensor<2x3x20x20xf32>, %w: tensor<5x3x3x3xf32>) -> tensor<2x5x18x18xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x18x18xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x18x18xf32>) -> tensor<2x5x18x18xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x20x20xf32>, tensor<5x3x3x3xf32>) outs(%f : tensor<2x5x18x18xf32>) -> tensor<2x5x18x18xf32>
  return %y : tensor<2x5x18x18xf32>
}

func.func @conv_1d(%x: tensor<3x40x24xf32>, %w: tensor<5x24x36xf32>) -> tensor<3x36x36xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x36x36xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x36x36xf32>) -> tensor<3x36x36xf32>
  %y = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<3x40x24xf32>, tensor<5x24x36xf32>) outs(%f : tensor<3x36x36xf32>) -> tensor<3x36x36xf32>
  return %y : tensor<3x36x36xf32>
}

func.func @conv_dynamic_batch(%x: tensor<?x18x18x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<?x16x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x18x18x16xf32>
  %e = tensor.empty(%n) : tensor<?x16x16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16x16x32xf32>) -> tensor<?x16x16x32xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<?x18x18x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<?x16x16x32xf32>) -> tensor<?x16x16x32xf32>
  return %y : tensor<?x16x16x32xf32>
}
