"""Writes random operands and numpy references for matmul_low_precision.mlir, matmul_amx.mlir
and matmul_f16.mlir.

bf16: values uniform in [-1, 1) rounded to bf16 (written as raw 16-bit patterns, 'V2',
which kiln-run reads as bf16 when the input names the type); the reference is the product
of those bf16 values in float64. Every product of two bf16 is exact in f32, so a kernel
differs from it only by f32 rounding of its sums, in whatever order it adds them.
f16: the same with values rounded to float16 (products of two f16 are exact in f32 too).
f16 into f16 (matmul_f16_native.mlir): values in {-1, 0, 1}, so that every product and
every partial sum (at most K <= 2048 in magnitude) is exact in f16, whatever the order of
the additions: the reference is exact.
i8: every value of int8, -128 and 127 included; the reference is exact (int64, then i32).
Usage: low_precision_operands.py DIR
"""
import os
import sys

import numpy as np

# (name, M, K, N): remainders of the 8-row and 32-column tiles and of the k groups (2 for
# bf16, 4 for i8); 517 spans three 256-deep blocks. For AMX tiles (matmul_amx.mlir, depths
# a multiple of 64): 77 rows are two 32-row tiles, an 8-row vector tile and 5 rows of one,
# 1152 k three 384-deep bf16 blocks and two 576-deep i8 blocks; 64x192x32 is whole tiles;
# 600 columns are a block of 512 and one of 88 (2 pieces of 32 and 24 columns of loops).
# 4x517x70: a decode-shaped product (few rows, which f16 packs too). 520x600x1040: an
# output of 2.1 MiB, which the vdpbf16ps / vpdpbusd tiles prefetch for writing (the
# "biased" references add the fill of matmul_low_precision.mlir's *_biased functions).
# 4x1040x1030: a W[N, K] of f16 beyond the core's L2 (2.04 MiB), read in order by 4 x 6
# dot-product tiles that prefetch the next tile's rows (matmul_f16.mlir).
SHAPES = [("37x130x61", 37, 130, 61), ("37x131x61", 37, 131, 61), ("45x517x70", 45, 517, 70),
          ("77x1152x70", 77, 1152, 70), ("64x192x32", 64, 192, 32), ("40x128x600", 40, 128, 600),
          ("4x517x70", 4, 517, 70), ("520x600x1040", 520, 600, 1040), ("4x1040x1030", 4, 1040, 1030)]
BF16_BIAS, I8_BIAS = 0.5, 7


def bf16_round(values):
    """`values` rounded to the nearest bf16 (ties to even), as float32."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return rounded.astype(np.uint32).view(np.float32)


def bf16_file(values):
    return (np.asarray(values, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16).view("V2")


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda name, array: np.save(os.path.join(out, name + ".npy"), array)
    random = np.random.default_rng(17)
    for name, m, k, n in SHAPES:
        a = bf16_round(random.uniform(-1, 1, (m, k)))
        b = bf16_round(random.uniform(-1, 1, (k, n)))
        save(f"bf16_a_{name}", bf16_file(a))
        save(f"bf16_b_{name}", bf16_file(b))
        save(f"bf16_w_{name}", bf16_file(np.ascontiguousarray(b.T)))
        product = a.astype(np.float64) @ b.astype(np.float64)
        save(f"bf16_ref_{name}", product.astype(np.float32))
        save(f"bf16_biased_ref_{name}", (product + BF16_BIAS).astype(np.float32))
        for prefix, draw, reference_type in (("f16", lambda shape: random.uniform(-1, 1, shape), np.float32),
                                             ("f16i", lambda shape: random.integers(-1, 2, shape), np.float16)):
            a16, b16 = draw((m, k)).astype(np.float16), draw((k, n)).astype(np.float16)
            save(f"{prefix}_a_{name}", a16)
            save(f"{prefix}_b_{name}", b16)
            save(f"{prefix}_w_{name}", np.ascontiguousarray(b16.T))
            save(f"{prefix}_ref_{name}", (a16.astype(np.float64) @ b16.astype(np.float64)).astype(reference_type))
        a8 = random.integers(-128, 128, (m, k), dtype=np.int64)
        b8 = random.integers(-128, 128, (k, n), dtype=np.int64)
        a8[0, :] = -128  # the extremes of vpdpbusd's unsigned offset
        b8[:, 0] = -128
        save(f"i8_a_{name}", a8.astype(np.int8))
        save(f"i8_b_{name}", b8.astype(np.int8))
        save(f"i8_w_{name}", np.ascontiguousarray(b8.T).astype(np.int8))
        save(f"i8_ref_{name}", (a8 @ b8).astype(np.int32))
        save(f"i8_biased_ref_{name}", (a8 @ b8 + I8_BIAS).astype(np.int32))


if __name__ == "__main__":
    main(sys.argv[1])
