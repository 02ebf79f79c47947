"""Writes deterministic operands and numpy references for gpu_contractions.mlir.

Operands are small integers, so every product and every sum is exact in f32 (and in
f16/bf16 inputs), whatever order a kernel adds them in: results compare exactly. The 8-bit
float operands (FNUZ formats, as gfx942's MFMAs take them) are written as raw bytes and
decoded here by hand from their bit patterns (numpy has no 8-bit floats).
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


def fnuz_values(exponent_bits, mantissa_bits):
    """The value of each of the 256 codes of f8E4M3FNUZ (4, 3) or f8E5M2FNUZ (5, 2): bias
    2^(e-1), no infinities, no negative zero; 0x80 is the only NaN."""
    bias = 1 << (exponent_bits - 1)
    codes = np.arange(256)
    sign = np.where(codes & 0x80, -1.0, 1.0)
    exponent = (codes >> mantissa_bits) & ((1 << exponent_bits) - 1)
    mantissa = codes & ((1 << mantissa_bits) - 1)
    fraction = mantissa / float(1 << mantissa_bits)
    magnitude = np.where(exponent == 0, fraction * 2.0 ** (1 - bias), (1 + fraction) * 2.0 ** (exponent - bias))
    values = sign * magnitude
    values[0x80] = np.nan
    return values


E4M3FNUZ = fnuz_values(4, 3)
E5M2FNUZ = fnuz_values(5, 2)


def f8_codes(values, shape, seed, exact):
    """Codes of a `shape` operand, deterministic: with `exact` only zero and magnitudes in
    [1/4, 8] (every product of two and every sum below is then exact in f32), else every
    finite code, subnormals included."""
    usable = np.flatnonzero(~np.isnan(values))
    if exact:
        usable = usable[(values[usable] == 0) | ((np.abs(values[usable]) >= 0.25) & (np.abs(values[usable]) <= 8))]
    i, j = np.indices(shape)
    # Mixed so that no two rows or columns repeat each other.
    picks = (i * 131 + j * 71 + i * j * 17 + (i // 3) * (j // 5) * 29 + seed * 7) % len(usable)
    return usable[picks].astype(np.uint8)


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
    # Unaligned in every dimension (67 x 45 x 33): f16, bf16 and i8 (WMMA on gfx1100).
    a, b = pattern((67, 33), 10), pattern((33, 45), 11)
    save("odd_f16_a", a.astype(np.float16))
    save("odd_f16_b", b.astype(np.float16))
    save("odd_bf16_a", bf16_array(a))
    save("odd_bf16_b", bf16_array(b))
    save("odd_i8_a", a.astype(np.int8))
    save("odd_i8_b", b.astype(np.int8))
    save("odd_ref", (a @ b).astype(np.float32))
    save("odd_i8_ref", (a @ b).astype(np.int32))
    # 8-bit floats, stored as raw bytes ('V1', read with the element type named): exactly
    # representable sums (compared exactly), and every finite code with a float64
    # reference (compared to f32 rounding).
    a, b = f8_codes(E4M3FNUZ, (67, 33), 12, True), f8_codes(E4M3FNUZ, (33, 45), 13, True)
    save("f8_a", a.view("V1"))
    save("f8_b", b.view("V1"))
    save("f8_ref", (E4M3FNUZ[a] @ E4M3FNUZ[b]).astype(np.float32))
    a, b = f8_codes(E5M2FNUZ, (67, 33), 16, True), f8_codes(E5M2FNUZ, (33, 45), 17, True)
    save("bf8_a", a.view("V1"))
    save("bf8_b", b.view("V1"))
    save("bf8_ref", (E5M2FNUZ[a] @ E5M2FNUZ[b]).astype(np.float32))
    a, b = f8_codes(E4M3FNUZ, (70, 90), 14, False), f8_codes(E5M2FNUZ, (90, 66), 15, False)
    save("f8_mixed_a", a.view("V1"))
    save("f8_mixed_b", b.view("V1"))
    save("f8_mixed_ref", (E4M3FNUZ[a] @ E5M2FNUZ[b]).astype(np.float32))


if __name__ == "__main__":
    main(sys.argv[1])
