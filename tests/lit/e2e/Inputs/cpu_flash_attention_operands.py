"""Writes operands and numpy references (f64, rounded to f32) for cpu_flash_attention.mlir.

Self-attention of 37 and of 1000 positions (neither a multiple of the CPU's 64-row query
blocks nor of its 128-key blocks), 2 x 3 heads, head dimension 64, value columns 40. The
scores are IREE's (docs/iree-compatibility.md): s = log2(e) * scale * q k^T, the score
region applied to s, and a base-2 softmax; with use_exp2 = false, s = scale * q k^T and
a base-e softmax (the same attention without a region); and the same in f16 (operands
and output). Usage: DIR
"""
import os
import sys

import numpy as np

from flash_attention_operands import attention, scores  # the same references as the GPU test

BATCH, HEADS, DIM, COLUMNS = 2, 3, 64, 40


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(17)

    def save(name, array):
        np.save(os.path.join(out, name + ".npy"), array)

    for seq in (37, 1000):
        # Large enough scores (|s| up to ~20) that the row maxima change between key blocks.
        q = (rng.standard_normal((BATCH, HEADS, seq, DIM)) * 1.5).astype(np.float32)
        k = (rng.standard_normal((BATCH, HEADS, seq, DIM)) * 1.5).astype(np.float32)
        v = rng.standard_normal((BATCH, HEADS, seq, COLUMNS)).astype(np.float32)
        for name, array in (("q", q), ("k", k), ("v", v)):
            save(f"{name}{seq}", array)
        s = scores(q, k)
        save(f"plain{seq}", attention(s, v))
        save(f"softcap{seq}", attention(8 * np.tanh(s / 8), v))
        save(f"base_e{seq}", attention(scores(q, k, base2=False), v, base2=False))
        # f16 operands and output: the reference of the f16 values, rounded to f16 at the end.
        q16, k16, v16 = q.astype(np.float16), k.astype(np.float16), v.astype(np.float16)
        for name, array in (("q", q16), ("k", k16), ("v", v16)):
            save(f"{name}{seq}_f16", array)
        save(f"half{seq}", attention(scores(q16, k16), v16).astype(np.float16))


if __name__ == "__main__":
    main(sys.argv[1])
