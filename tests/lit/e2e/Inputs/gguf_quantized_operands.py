#!/usr/bin/python3
"""A GGUF file of Q8_0 and Q4_0 weights and numpy references for gguf_quantized_linear.mlir.

  gguf_quantized_operands.py DIR

writes DIR/weights.gguf with blk.q8 (Q8_0) and blk.q4 (Q4_0), each W[101, 1024] (101 rows
of 32 blocks of 32), DIR/x{1,5,8}.npy and DIR/y_{q8,q4}_{1,5,8}.npy = x dequant(W)^T.
GGML's blocks: Q8_0 is an f16 scale d and 32 int8 q (w = d q); Q4_0 is d and 16 bytes
whose low nibbles are elements 0-15 and high nibbles 16-31 (w = d (nibble - 8)). The
scales are powers of two and x small multiples of 1/4, so every sum is exact in f32.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "io"))
from parameter_writers import write_gguf  # noqa: E402

GGML_Q4_0, GGML_Q8_0 = 2, 8
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rows, depth, block = 101, 1024, 32
blocks = depth // block
index = np.indices((rows, depth))
scales = (2.0 ** -(np.indices((rows, blocks)).sum(axis=0) % 4)).astype(np.float16)

q8 = ((11 * index[0] + 7 * index[1]) % 255 - 127).astype(np.int8)
q8_blocks = np.zeros((rows, blocks), dtype=[("d", "<f2"), ("q", "i1", block)])
q8_blocks["d"] = scales
q8_blocks["q"] = q8.reshape(rows, blocks, block)
w8 = q8.astype(np.float64) * np.repeat(scales.astype(np.float64), block, axis=1)

nibbles = ((5 * index[0] + 3 * index[1]) % 16).astype(np.uint8).reshape(rows, blocks, block)
q4_blocks = np.zeros((rows, blocks), dtype=[("d", "<f2"), ("q", "u1", block // 2)])
q4_blocks["d"] = scales
q4_blocks["q"] = nibbles[:, :, :16] | (nibbles[:, :, 16:] << 4)
w4 = (nibbles.reshape(rows, depth).astype(np.float64) - 8) * np.repeat(scales.astype(np.float64), block, axis=1)

write_gguf(os.path.join(out, "weights.gguf"), [("general.architecture", "s", "kiln-test")],
           [("blk.q8", GGML_Q8_0, (rows, depth), q8_blocks.tobytes()),
            ("blk.q4", GGML_Q4_0, (rows, depth), q4_blocks.tobytes())])
for m in (1, 5, 8):
    x = ((np.indices((m, depth)).sum(axis=0) % 7) - 3).astype(np.float32) / 4
    np.save(os.path.join(out, f"x{m}.npy"), x)
    for name, w in (("q8", w8), ("q4", w4)):
        np.save(os.path.join(out, f"y_{name}_{m}.npy"), (x.astype(np.float64) @ w.T).astype(np.float32))
