"""Writes operands and a numpy reference for int4_linear.mlir.

W holds i4 values in [-8, 7], packed two per byte with the first in the low bits (IREE's
layout, numpy has no int4), written as raw bytes; x and the per-row scales are powers of
two over small integers, so every product and sum is exact in f32 whatever the order.
Usage: int4_linear_operands.py DIR
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rows, columns, depth = 3, 40, 64
index = np.indices((columns, depth))
w = (5 * index[0] + 3 * index[1]) % 16 - 8
x = ((np.indices((rows, depth)).sum(axis=0) % 7) - 3).astype(np.float32) / 4
scale = (2.0 ** -(np.arange(columns) % 4)).astype(np.float32)
y = (x.astype(np.float64) @ (w * scale[:, None]).T).astype(np.float32)
nibbles = (w.flatten() & 0xF).astype(np.uint8)
with open(os.path.join(out, "w.bin"), "wb") as f:
    f.write((nibbles[0::2] | (nibbles[1::2] << 4)).astype(np.uint8).tobytes())
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "scale.npy"), scale)
np.save(os.path.join(out, "y.npy"), y)
