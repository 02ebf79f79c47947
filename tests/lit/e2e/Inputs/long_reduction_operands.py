"""Writes deterministic operands and numpy references for gpu_long_reductions.mlir.

Small integers, so that every sum is exact in f32 in any order (all partial sums stay
below 2^24). Usage: DIR
"""
import os
import sys

import numpy as np


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda name, array: np.save(os.path.join(out, name + ".npy"), array)
    flat = (np.arange(1 << 20) * 7 % 17 - 8).astype(np.float32)
    save("flat", flat)
    save("flat_sum", np.array(flat.sum(dtype=np.float64), dtype=np.float32))
    # Not a multiple of any chunk: the remainder's own dispatch.
    odd = (np.arange(1000003) * 5 % 23 - 11).astype(np.float32)
    save("odd", odd)
    save("odd_sum", np.array(odd.sum(dtype=np.float64), dtype=np.float32))
    short = odd[:1000].copy()
    save("short", short)
    save("short_sum", np.array(short.sum(dtype=np.float64), dtype=np.float32))
    plane = (np.arange(1024 * 1000).reshape(1024, 1000) * 3 % 11 - 5).astype(np.float32)
    save("plane", plane)
    save("plane_sum", np.array(plane.sum(dtype=np.float64), dtype=np.float32))
    tall = (np.arange(100003 * 3).reshape(100003, 3) * 7 % 13 - 6).astype(np.float32)
    save("tall", tall)
    save("tall_column_sums", tall.sum(axis=0, dtype=np.float64).astype(np.float32))
    rows = (np.arange(3 * 200001).reshape(3, 200001) * 5 % 15 - 7).astype(np.float32)
    save("rows", rows)
    save("row_squares", (rows.astype(np.float64) ** 2).sum(axis=1).astype(np.float32))
    ints = (np.arange(300007, dtype=np.int64) * 7919 % 1000003 - 500000).astype(np.int32)
    save("ints", ints)
    save("ints_max", np.array(ints.max(), dtype=np.int32))
    # The mean rounds the f32 sum to f16, then scales it by 2^-16 (exact).
    halves = ((np.arange(65536) % 7) / 4).astype(np.float16)
    save("halves", halves)
    total = np.float16(halves.astype(np.float64).sum())
    save("halves_mean", np.array(total * np.float16(2.0**-16), dtype=np.float16))


if __name__ == "__main__":
    main(sys.argv[1])
