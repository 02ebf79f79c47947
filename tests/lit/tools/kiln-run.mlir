// kiln-run's flags: .mlir modules, --list, file inputs and outputs (.npy and raw),
// --print_statistics, tolerances, and one-line errors with exit 1 for bad input.
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run --module=%s --list | FileCheck %s --check-prefix=LIST
// LIST: @scale(tensor) -> (tensor)
// LIST: @add_i32(tensor, i32) -> (tensor)
// LIST: @to_bf16(tensor) -> (tensor)
//
// Outputs to .npy and raw files, read back by NumPy and by kiln-run itself.
// RUN: rm -f %t.*.npy %t.*.bin
// RUN: kiln-run --module=%t.kiln --function=scale '--input=2x3xf32=[1 2 3][4 5 6]' --output=@%t.out.npy --print_statistics 2>&1 | FileCheck %s --check-prefix=STATS
// STATS: EXEC @scale
// STATS-NOT: result[0]
// STATS: [statistics] dispatches: 1, submissions: 1, allocations: {{[0-9]+}}, bytes live: {{[0-9]+}}, bytes peak: {{[0-9]+}}, load+link: {{[0-9.]+}} ms, call: {{[0-9.]+}} ms
// RUN: %python -c "import numpy as np; a = np.load('%t.out.npy'); print(a.dtype, a.shape, a.tolist())" | FileCheck %s --check-prefix=NUMPY
// NUMPY: float32 (2, 3) {{\[}}[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]
// RUN: kiln-run --module=%t.kiln --function=scale --input=@%t.out.npy --expected_output=2x3xf32=4,8,12,16,20,24
// RUN: kiln-run --module=%t.kiln --function=scale --input=2x3xf32=1 --output=@%t.out.bin
// RUN: kiln-run --module=%t.kiln --function=scale --input=2x3xf32=@%t.out.bin --expected_output=2x3xf32=4
// Appending: two arrays in one file; an input reads the first.
// RUN: kiln-run --module=%t.kiln --function=scale --input=2x3xf32=5 --output=+%t.two.npy
// RUN: kiln-run --module=%t.kiln --function=scale --input=2x3xf32=7 --output=+%t.two.npy
// RUN: %python -c "f = open('%t.two.npy', 'rb'); import numpy as np; print(np.load(f)[1, 2], np.load(f)[1, 2])" | FileCheck %s --check-prefix=TWO
// TWO: 10.0 14.0
// RUN: kiln-run --module=%t.kiln --function=scale --input=@%t.two.npy --expected_output=2x3xf32=20
// NumPy's own files, including integer and bool dtypes.
// RUN: %python -c "import numpy as np; np.save('%t.np.npy', np.arange(6, dtype=np.int32).reshape(2, 3))"
// RUN: kiln-run --module=%t.kiln --function=add_i32 --input=@%t.np.npy --input=10 --expected_output=2x3xi32=10,11,12,13,14,15
// bf16 results are written with ml_dtypes' name for the dtype; a raw void dtype reads
// back when the input names the type.
// RUN: kiln-run --module=%t.kiln --function=to_bf16 --input=2xf32=1.5,-2 --output=@%t.bf16.npy
// RUN: %python -c "print(open('%t.bf16.npy', 'rb').read(64))" | FileCheck %s --check-prefix=BF16
// BF16: 'descr': 'bfloat16'
// RUN: %python -c "import numpy as np; np.save('%t.void.npy', np.array([0x3fc0, 0xc000], dtype=np.uint16).view('V2'))"
// RUN: kiln-run --module=%t.kiln --function=from_bf16 --input=2xbf16=@%t.void.npy --expected_output=2xf32=1.5,-2
// RUN: not kiln-run --module=%t.kiln --function=from_bf16 --input=@%t.void.npy 2>&1 | FileCheck %s --check-prefix=VOID
// VOID: kiln-run: INVALID_ARGUMENT: dtype '|V2' holds raw bytes; name the element type, e.g. --input=2x3xbf16=@file.npy
//
// Tolerances: NumPy isclose, NaN only matches NaN.
// RUN: kiln-run --module=%t.kiln --function=scale --input=2x3xf32=1 --expected_output=2x3xf32=2.01 --atol=0.02
// RUN: not kiln-run --module=%t.kiln --function=scale --input=2x3xf32=1 --expected_output=2x3xf32=2.01 | FileCheck %s --check-prefix=TOL
// TOL: [FAILED] result[0]: element at index 0 (2) does not match the expected (2.01); expected that the view is equal to contents of a view of 2x3xf32
// RUN: not kiln-run --module=%t.kiln --function=scale --input=2x3xf32=nan --expected_output=2x3xf32=2 | FileCheck %s --check-prefix=NAN
// NAN: [FAILED] result[0]: element at index 0 (NAN) does not match the expected (2)
// RUN: kiln-run --module=%t.kiln --function=scale --input=2x3xf32=nan --expected_output=2x3xf32=nan
//
// Bad input: one line naming what was expected, exit 1.
// RUN: not kiln-run --module=%t.kiln --function=scale --input=2x3xf32=1,2 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: kiln-run: INVALID_ARGUMENT: '2x3xf32=1,2': shape 2x3xf32 has 6 elements but 2 values were given
// RUN: not kiln-run --module=%t.kiln --function=scale --input=3x3xf32=1 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: kiln-run: {{.*}}expected a buffer view of 2x3xf32, got 3x3xf32
// RUN: not kiln-run --module=%t.kiln --function=scale --input=2x3xf32=@%t.missing.bin 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: kiln-run: NOT_FOUND: cannot open '{{.*}}missing.bin'; in '2x3xf32=@{{.*}}missing.bin'
// A raw file of the wrong size is refused before anything is allocated or read.
// RUN: not kiln-run --module=%t.kiln --function=scale --input=3x3xf32=@%t.out.bin 2>&1 | FileCheck %s --check-prefix=RAWSIZE
// RAWSIZE: kiln-run: INVALID_ARGUMENT: 3x3xf32 holds 36 bytes, 24 were given; in '3x3xf32=@{{.*}}out.bin'
// RUN: not kiln-run --module=%t.kiln --function=scale --input=2x3xi32=@%t.np.npy 2>&1 | FileCheck %s --check-prefix=NPYTYPE
// NPYTYPE: kiln-run: {{.*}}expected a buffer view of 2x3xf32, got 2x3xi32
// RUN: not kiln-run --module=%t.kiln --function=scale --input=2x3xf32=@%t.np.npy 2>&1 | FileCheck %s --check-prefix=NPYMISMATCH
// NPYMISMATCH: kiln-run: INVALID_ARGUMENT: '2x3xf32=@{{.*}}': the file holds 2x3xi32, not 2x3xf32
// RUN: not kiln-run --module=%t.kiln --function=nope 2>&1 | FileCheck %s --check-prefix=NOFN
// NOFN: kiln-run: NOT_FOUND: module '{{.*}}' has no exported function 'nope'; it exports: scale, add_i32, to_bf16, from_bf16
// RUN: not kiln-run --module=%t.kiln --function=scale --device=warp --input=2x3xf32=1 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: kiln-run: {{.*}}warp
// RUN: not kiln-run --module=%t.kiln --function=scale --input=2x3xf32=1 --output=%t.x.npy 2>&1 | FileCheck %s --check-prefix=OUT
// OUT: kiln-run: INVALID_ARGUMENT: --output='{{.*}}': expected (empty), -, @FILE.npy, +FILE.npy, @FILE.bin or +FILE.bin
// RUN: not kiln-run --module=%t.kiln --function=scale --input=2x3xf32=1 --atol=-1 2>&1 | FileCheck %s --check-prefix=ATOL
// ATOL: kiln-run: INVALID_ARGUMENT: --atol='-1': expected a non-negative number
// RUN: not kiln-run --module=%t.kiln --function=add_i32 --input=2x3xi32=1 --input=x 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: kiln-run: INVALID_ARGUMENT: 'x': expected an integer scalar

func.func @scale(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = arith.addf %x, %x : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func @add_i32(%x: tensor<2x3xi32>, %n: i32) -> tensor<2x3xi32> {
  %s = tensor.splat %n : tensor<2x3xi32>
  %r = arith.addi %x, %s : tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}

func.func @to_bf16(%x: tensor<2xf32>) -> tensor<2xbf16> {
  %r = arith.truncf %x : tensor<2xf32> to tensor<2xbf16>
  return %r : tensor<2xbf16>
}

func.func @from_bf16(%x: tensor<2xbf16>) -> tensor<2xf32> {
  %r = arith.extf %x : tensor<2xbf16> to tensor<2xf32>
  return %r : tensor<2xf32>
}
