"""Writes deterministic operands and numpy references for gpu_contraction_epilogues.mlir.

Small integers: every product and sum is exact in f32, and the results (at most a few
hundred) are exact in f16, so results compare exactly whatever the order of the sums.
Usage: epilogue_operands.py DIR
"""
import os
import sys

import numpy as np


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda name, array: np.save(os.path.join(out, name + ".npy"), array)
    rng = np.random.default_rng(7)
    x = rng.integers(-3, 4, size=(100, 72))
    w = rng.integers(-3, 4, size=(90, 72))
    bias = rng.integers(-20, 21, size=(90,))
    scale = rng.integers(1, 4, size=(100,))
    y = x @ w.T
    save("x", x.astype(np.float32))
    save("w", w.astype(np.float32))
    save("bias", bias.astype(np.float32))
    save("scale", scale.astype(np.float32))
    save("linear_relu", np.maximum(y + bias, 0).astype(np.float32))
    save("scaled", (y * scale[:, None]).astype(np.float32))
    save("x_f16", x.astype(np.float16))
    save("w_f16", w.astype(np.float16))
    save("linear_f16", y.astype(np.float16))


if __name__ == "__main__":
    main(sys.argv[1])
