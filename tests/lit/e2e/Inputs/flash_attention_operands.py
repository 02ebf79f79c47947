"""Writes operands and numpy references (f64, rounded to f32) for gpu_flash_attention.mlir.

The scores are IREE's (docs/iree-compatibility.md): s = log2(e) * scale * q k^T, the score
region applied to s, then the mask (an i1 mask adds 0 or -inf, a float mask log2(e) times
itself), and a base-2 softmax. Usage: DIR
"""
import os
import sys

import numpy as np

HEADS, QUERIES, KEYS, DIM = 4, 200, 333, 64
SCALE = 0.125


def scores(q, k, base2=True):
    """IREE's scores of q [..., M, D] and k [..., N, D] in f64: log2(e) * scale * q k^T, or
    scale * q k^T for a base-e softmax. Also used by cpu_flash_attention_operands.py."""
    s = np.einsum("...md,...nd->...mn", q.astype(np.float64), k.astype(np.float64)) * SCALE
    return s * np.log2(np.e) if base2 else s


def attention(s, v, base2=True):
    """softmax(s) v over the last axis of s (base 2 or e), rounded to f32."""
    p = (np.exp2 if base2 else np.exp)(s - s.max(axis=-1, keepdims=True))
    return np.einsum("...mn,...nd->...md", p / p.sum(axis=-1, keepdims=True), v.astype(np.float64)).astype(np.float32)


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(15)

    def save(name, array):
        np.save(os.path.join(out, name + ".npy"), array)

    q = (rng.standard_normal((HEADS, QUERIES, DIM)) * 0.5).astype(np.float32)
    k, v = ((rng.standard_normal((HEADS, KEYS, DIM)) * 0.5).astype(np.float32) for _ in range(2))
    for name, array in (("q", q), ("k", k), ("v", v)):
        save(name, array)
    s = scores(q, k)
    save("plain", attention(s, v))

    # Masks that drop whole key blocks of some rows (the first 40 keys of rows 0-9) and
    # scattered keys elsewhere; every row keeps keys.
    keep = rng.random((QUERIES, KEYS)) > 0.3
    keep[:10, :40] = False
    keep[:, KEYS - 1] = True
    save("bool_mask", keep)
    save("bool_masked", attention(np.where(keep[None], s, -np.inf), v))
    added = rng.standard_normal((HEADS, QUERIES, KEYS)).astype(np.float32)
    added[:, 10:20, :50] = -np.inf
    save("float_mask", added)
    save("float_masked", attention(s + np.log2(np.e) * added.astype(np.float64), v))

    # A softcap region: 2 tanh(s / 2) of the base-2 scores.
    save("softcapped", attention(2 * np.tanh(s / 2), v))

    # f16 operands: Q scaled in f16 (Q * f16(scale * log2(e)), rounded), f32 arithmetic,
    # an f16 result.
    q16, k16, v16 = (x.astype(np.float16) for x in (q, k, v))
    for name, array in (("q16", q16), ("k16", k16), ("v16", v16)):
        save(name, array)
    scaled = (q16 * np.float16(SCALE * np.log2(np.e))).astype(np.float16)
    s16 = np.einsum("hmd,hnd->hmn", scaled.astype(np.float64), k16.astype(np.float64))
    save("half", attention(s16, v16).astype(np.float16))

    # online_attention from a state (acc, max, sum) in base 2.
    acc = rng.standard_normal((HEADS, QUERIES, DIM)).astype(np.float32)
    old_max = (rng.standard_normal((HEADS, QUERIES)) * 2).astype(np.float32)
    old_sum = (rng.random((HEADS, QUERIES)) * 5).astype(np.float32)
    for name, array in (("acc", acc), ("max", old_max), ("sum", old_sum)):
        save(name, array)
    new_max = np.maximum(old_max.astype(np.float64), s.max(axis=2))
    p = np.exp2(s - new_max[..., None])
    correction = np.exp2(old_max - new_max)
    save("online_acc", (correction[..., None] * acc + np.einsum("hmn,hnd->hmd", p, v.astype(np.float64))).astype(np.float32))
    save("online_max", new_max.astype(np.float32))
    save("online_sum", (correction * old_sum + p.sum(axis=2)).astype(np.float32))

    # K and V read through views of a cache (here k and v themselves): the first 250
    # positions of every head; and head 2's positions 1, 3, 5, ... (166 of them), the
    # head dimension dropped, for head 2's queries.
    save("kv_prefix", attention(scores(q, k[:, :250]), v[:, :250]))
    save("q_head2", q[2])
    strided_k, strided_v = k[2:3, 1::2][:, :166], v[2:3, 1::2][:, :166]
    save("kv_strided", attention(scores(q[2:3], strided_k), strided_v)[0])


if __name__ == "__main__":
    main(sys.argv[1])
