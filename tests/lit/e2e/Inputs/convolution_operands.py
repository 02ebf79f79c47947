"""Writes deterministic operands and numpy references for gpu_convolutions.mlir.

Operands are small integers, so every product and sum is exact in f32, f16 inputs and i32:
results compare exactly whatever order a kernel adds them in.
Usage: convolution_operands.py DIR
"""
import os
import sys

import numpy as np


def pattern(shape, seed):
    # Not periodic along any dimension, so that a misplaced window shows.
    return np.random.default_rng(seed).integers(-3, 4, size=shape)


def conv_nhwc_hwcf(x, w, strides=(1, 1), dilations=(1, 1)):
    """y[n, oh, ow, f] = sum over kh, kw, c of x[n, oh*sh + kh*dh, ow*sw + kw*dw, c] * w[kh, kw, c, f]."""
    n, h, wi, c = x.shape
    kh, kw, _, f = w.shape
    (sh, sw), (dh, dw) = strides, dilations
    oh = (h - dh * (kh - 1) - 1) // sh + 1
    ow = (wi - dw * (kw - 1) - 1) // sw + 1
    y = np.zeros((n, oh, ow, f), dtype=np.int64)
    for i in range(kh):
        for j in range(kw):
            window = x[:, i * dh : i * dh + sh * (oh - 1) + 1 : sh, j * dw : j * dw + sw * (ow - 1) + 1 : sw, :]
            y += np.einsum("nhwc,cf->nhwf", window.astype(np.int64), w[i, j].astype(np.int64))
    return y


def main(out):
    os.makedirs(out, exist_ok=True)

    def save(name, array):
        np.save(os.path.join(out, name + ".npy"), array)

    # Channels that fill 128-bit loads, several LDS steps of k (3 x 3 x 16 = 144).
    x = pattern((2, 18, 18, 16), 0)
    w = pattern((3, 3, 16, 32), 1)
    save("x", x.astype(np.float32))
    save("w", w.astype(np.float32))
    save("y", conv_nhwc_hwcf(x, w).astype(np.float32))
    save("x_f16", x.astype(np.float16))
    save("w_f16", w.astype(np.float16))
    save("x_i8", x.astype(np.int8))
    save("w_i8", w.astype(np.int8))
    save("y_i32", conv_nhwc_hwcf(x, w).astype(np.int32))
    # Strides and dilations, channels that fill no vector (5 in, 20 out), unaligned m.
    xs = pattern((1, 17, 19, 5), 2)
    ws = pattern((3, 3, 5, 20), 3)
    save("xs", xs.astype(np.float32))
    save("ws", ws.astype(np.float32))
    save("ys", conv_nhwc_hwcf(xs, ws, strides=(2, 1), dilations=(2, 1)).astype(np.float32))
    # NCHW input and FCHW filter: the input's innermost dimension is a sum of loop indices.
    xc = pattern((2, 3, 20, 20), 4)
    wc = pattern((5, 3, 3, 3), 5)
    yc = conv_nhwc_hwcf(xc.transpose(0, 2, 3, 1), wc.transpose(2, 3, 1, 0)).transpose(0, 3, 1, 2)
    save("xc", xc.astype(np.float32))
    save("wc", wc.astype(np.float32))
    save("yc", np.ascontiguousarray(yc).astype(np.float32))
    # One-dimensional: NWC x WCF.
    x1 = pattern((3, 40, 24), 6)
    w1 = pattern((5, 24, 36), 7)
    y1 = conv_nhwc_hwcf(x1[:, None], w1[None])[:, 0]
    save("x1", x1.astype(np.float32))
    save("w1", w1.astype(np.float32))
    save("y1", y1.astype(np.float32))


if __name__ == "__main__":
    main(sys.argv[1])
