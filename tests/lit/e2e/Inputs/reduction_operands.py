"""Writes deterministic operands and numpy references for gpu_reductions.mlir.

Small integers again, so that sums are exact in f32 in any order. Usage: DIR
"""
import os
import sys

import numpy as np


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda name, array: np.save(os.path.join(out, name + ".npy"), array)
    rows = (np.arange(37 * 1000).reshape(37, 1000) * 7 % 19 - 9).astype(np.float32)
    save("rows", rows)
    save("row_sums", rows.sum(axis=1))
    save("row_maxima", rows.max(axis=1))
    save("column_sums", rows.sum(axis=0))
    shifted = rows.astype(np.float64) / 4
    save("softmax_in", shifted.astype(np.float32))
    e = np.exp(shifted - shifted.max(axis=1, keepdims=True))
    save("softmax_ref", (e / e.sum(axis=1, keepdims=True)).astype(np.float32))
    # Rows of 1003: whole 128-bit vectors, then a tail of 3 columns.
    odd = (np.arange(37 * 1003).reshape(37, 1003) * 7 % 19 - 9).astype(np.float64) / 4
    save("softmax_odd_in", odd.astype(np.float32))
    e = np.exp(odd - odd.max(axis=1, keepdims=True))
    save("softmax_odd_ref", (e / e.sum(axis=1, keepdims=True)).astype(np.float32))
    # Products reduced along rows: a matvec with rows of 1003, one token times weights
    # stored [n, k] (decode), f16 operands summed in f32. Small integers: exact.
    matrix = (np.arange(300 * 1003).reshape(300, 1003) * 5 % 13 - 6).astype(np.float32)
    vector = (np.arange(1003) * 3 % 7 - 3).astype(np.float32)
    save("matrix", matrix)
    save("vector", vector)
    save("matvec", matrix @ vector)
    save("token", vector[None, :])
    save("decode", (vector[None, :] @ matrix.T).astype(np.float32))
    save("matrix_f16", matrix.astype(np.float16))
    save("vector_f16", vector.astype(np.float16))
    long = (np.arange(300001) * 5 % 23 - 11).astype(np.float32)
    save("long", long)
    save("long_sum", np.array(long.sum(), dtype=np.float32))
    ints = (np.arange(5 * 3 * 777).reshape(5, 3, 777) * 3 % 101 - 50).astype(np.int32)
    save("ints", ints)
    save("int_sums", ints.sum(axis=2).astype(np.int32))


if __name__ == "__main__":
    main(sys.argv[1])
