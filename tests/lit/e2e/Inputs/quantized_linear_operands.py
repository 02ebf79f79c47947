"""Writes operands and numpy references for quantized_linear.mlir.

Shapes are odd on purpose: 101 output columns (odd: a last column after whole register tiles; at least 64, so that the columns are split across workgroups and the vector tiles take them), M = 1, 5
and 8 rows, depth 256 with groups of 32 and 128 along k. W4 holds i4 values in [-8, 7]
packed two a byte, the first in the low bits (IREE's layout; numpy has no int4), written
as raw bytes; U4 unsigned nibbles with a zero point per group; W8 i8 values. x and the
scales are small integers over powers of two, so every product and sum is exact in f32
whatever the order of the sum.
Usage: quantized_linear_operands.py DIR
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
columns, depth = 101, 256
index = np.indices((columns, depth))
w4 = (5 * index[0] + 3 * index[1]) % 16 - 8
u4 = (7 * index[0] + index[1]) % 16
w8 = (11 * index[0] + 7 * index[1]) % 255 - 127
scale32 = (2.0 ** -(np.indices((columns, depth // 32)).sum(axis=0) % 4)).astype(np.float32)
scale128 = (2.0 ** -(np.indices((columns, depth // 128)).sum(axis=0) % 3)).astype(np.float32)
zero32 = (np.indices((columns, depth // 32)).sum(axis=0) % 16).astype(np.float32)
scale8 = (2.0 ** -(np.arange(columns) % 5)).astype(np.float32)


def packed(nibbles):
    flat = (nibbles.flatten() & 0xF).astype(np.uint8)
    return (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)


packed(w4).tofile(os.path.join(out, "w4.bin"))
packed(u4).tofile(os.path.join(out, "u4.bin"))
w8.astype(np.int8).tofile(os.path.join(out, "w8.bin"))
np.save(os.path.join(out, "scale32.npy"), scale32)
np.save(os.path.join(out, "scale128.npy"), scale128)
np.save(os.path.join(out, "zero32.npy"), zero32)
np.save(os.path.join(out, "scale32_f16.npy"), scale32.astype(np.float16))
np.save(os.path.join(out, "scale8.npy"), scale8)
dequant_w4_32 = w4 * np.repeat(scale32, 32, axis=1)
dequant_w4_128 = w4 * np.repeat(scale128, 128, axis=1)
dequant_u4 = (u4 - np.repeat(zero32, 32, axis=1)) * np.repeat(scale32, 32, axis=1)
dequant_w8 = w8 * scale8[:, None]
for rows in (1, 5, 8):
    x = ((np.indices((rows, depth)).sum(axis=0) % 7) - 3).astype(np.float32) / 4
    np.save(os.path.join(out, f"x{rows}.npy"), x)
    for name, w in (("w4_32", dequant_w4_32), ("w4_128", dequant_w4_128), ("u4", dequant_u4), ("w8", dequant_w8)):
        y = (x.astype(np.float64) @ w.T).astype(np.float32)
        np.save(os.path.join(out, f"y_{name}_{rows}.npy"), y)
