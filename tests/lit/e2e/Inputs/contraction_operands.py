"""Writes deterministic operands and numpy references for gpu_contractions.mlir.

Operands are small integers, so every product and every sum is exact in f32 (and in
f16/bf16 inputs), whatever order a kernel adds them in: results compare exactly.
Usage: contraction_operands.py DIR
"""
import os
import sys

import numpy as np


def pattern(shape, seed):
    index = np.indices(shape).reshape(len(shape), -1)
    weights = np.array([7, 3, 5, 2][: len(shape)]) + seed
    values = (weights @ index) % 11 - 5
    return values.reshape(shape)


def bf16_array(values):
    # numpy has no bf16: the file holds raw 16-bit patterns ('V2'), which kiln-run reads
    # as bf16 when the input names the type; small integers are exact in bf16.
    bits = np.asarray(values, dtype=np.float32).view(np.uint32) >> 16
    return bits.astype(np.uint16).view("V2")


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda name, array: np.save(os.path.join(out, name + ".npy"), array)
    a, b = pattern((130, 70), 0), pattern((70, 100), 1)
    save("f32_a", a.astype(np.float32))
    save("f32_b", b.astype(np.float32))
    save("f32_ref", (a @ b).astype(np.float32))
    a, b = pattern((96, 200), 2), pattern((200, 72), 3)
    save("f16_a", a.astype(np.float16))
    save("f16_b", b.astype(np.float16))
    save("bf16_a", bf16_array(a))
    save("bf16_b", bf16_array(b))
    save("f16_ref", (a @ b).astype(np.float32))
    a, w = pattern((33, 80), 4), pattern((65, 80), 5)
    save("nt_a", a.astype(np.float32))
    save("nt_w", w.astype(np.float32))
    save("nt_ref", (a @ w.T).astype(np.float32))
    a, b = pattern((3, 40, 50), 6), pattern((3, 50, 70), 7)
    save("batch_a", a.astype(np.float32))
    save("batch_b", b.astype(np.float32))
    save("batch_ref", np.matmul(a, b).astype(np.float32))
    a, b = pattern((70, 90), 8), pattern((90, 66), 9)
    save("i8_a", a.astype(np.int8))
    save("i8_b", b.astype(np.int8))
    save("i8_ref", (a @ b).astype(np.int32))


if __name__ == "__main__":
    main(sys.argv[1])
