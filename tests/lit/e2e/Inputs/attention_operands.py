"""Writes deterministic operands and a numpy reference for gpu_attention.mlir.

attention(q, k, v) = softmax(scale * q k^T) v per head, in f64, rounded to f32. Usage: DIR
"""
import os
import sys

import numpy as np


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    heads, seq, dim = 8, 256, 64
    q, k, v = ((rng.standard_normal((heads, seq, dim)) * 0.5).astype(np.float32) for _ in range(3))
    for name, array in (("q", q), ("k", k), ("v", v)):
        np.save(os.path.join(out, name + ".npy"), array)
    s = np.einsum("hmd,hnd->hmn", q.astype(np.float64), k.astype(np.float64)) * 0.125
    p = np.exp(s - s.max(axis=2, keepdims=True))
    p /= p.sum(axis=2, keepdims=True)
    np.save(os.path.join(out, "reference.npy"), np.einsum("hmn,hnd->hmd", p, v).astype(np.float32))


if __name__ == "__main__":
    main(sys.argv[1])
