"""Writes deterministic operands and numpy references for sort_cpu_line.mlir.

One long line per sort (what a split of the line across CPU workers must get exactly
right), with many ties so that the references (numpy's stable sorts) pin the order of
equal keys. Usage: DIR
"""
import os
import sys

import numpy as np


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda name, array: np.save(os.path.join(out, name + ".npy"), array)

    def keys(count, distinct, dtype=np.float32):
        # A fixed pseudo-random permutation folded onto `distinct` values, centred on 0.
        return (np.arange(count, dtype=np.int64) * 7919 % 1000003 % distinct - distinct // 2).astype(dtype)

    def reference(name, values, descending=False):
        order = np.argsort(-values if descending else values, kind="stable")
        save(name + "_keys", values[order])
        save(name + "_indices", order.astype(np.int32))

    # 2^20 keys in [-10000, 10000), and -0.0 beside +0.0 (equal for the comparator).
    million = keys(1 << 20, 20000)
    million[::3][million[::3] == 0] = np.float32(-0.0)
    save("million", million)
    reference("million_ascending", million)
    # An odd length (not a multiple of any chunk count), keys in [-2500, 2500).
    odd = keys(1000003, 5000)
    save("odd", odd)
    reference("odd_ascending", odd)
    reference("odd_descending", odd, descending=True)
    # Signed integer keys, descending, with every key repeated ~200 times.
    ints = keys(1000003, 5000, np.int32) * 1000
    save("ints", ints)
    reference("ints_descending", ints, descending=True)
    # Payloads of 64 bits (beyond 2^32, so a narrowed copy shows): 20 bytes an element
    # take the radix sort's keys and ranks (rows of 50001, sorted in place), 16 bytes move
    # through its passes (one long line, split into runs).
    rows = keys(4 * 50001, 3000).reshape(4, 50001)
    wide = (np.arange(rows.size, dtype=np.int64).reshape(rows.shape) + (1 << 40)) * 3
    save("rows", rows)
    save("rows_wide_a", wide)
    save("rows_wide_b", -wide)
    order = np.argsort(rows, axis=1, kind="stable")
    save("rows_sorted", np.take_along_axis(rows, order, axis=1))
    save("rows_sorted_a", np.take_along_axis(wide, order, axis=1))
    save("rows_sorted_b", np.take_along_axis(-wide, order, axis=1))
    mixed_wide = np.arange(1000003, dtype=np.int64) * 5 - (1 << 41)
    save("odd_wide", mixed_wide)
    order = np.argsort(-odd, kind="stable")
    save("odd_mixed_keys", odd[order])
    save("odd_mixed_wide", mixed_wide[order])
    save("odd_mixed_indices", order.astype(np.int32))
    # Narrow operands packed into one integer through the radix passes (RadixPackedType):
    # f16 keys with i16 and i32 payloads (64 bits: an i64) on the odd line; i16 keys
    # descending with f16 payloads (an i32) on rows of 40001 (four 8-bit digits); and
    # non-negative i16 keys ascending with i1 and i8 payloads (25 bits: an i32), whose
    # digits above bit 15 are the same for every key, so the last two passes are trivial
    # (a middle one skipped, the last a copy that unpacks). Negative payloads show a sign
    # lost or smeared by the packing.
    half = keys(1000003, 3000, np.float16)
    half[::5][half[::5] == 0] = np.float16(-0.0)
    short = (np.arange(1000003, dtype=np.int64) * 3 % 65521 - 32760).astype(np.int16)
    word = (np.arange(1000003, dtype=np.int64) * 40503 - (1 << 31)).astype(np.int32)
    save("half", half)
    save("half_short", short)
    save("half_word", word)
    order = np.argsort(half, kind="stable")
    save("half_sorted", half[order])
    save("half_sorted_short", short[order])
    save("half_sorted_word", word[order])
    shorts = keys(3 * 40001, 4000, np.int16).reshape(3, 40001) * 8
    halves = (np.arange(shorts.size, dtype=np.float32).reshape(shorts.shape) * -0.25).astype(np.float16)
    save("shorts", shorts)
    save("shorts_halves", halves)
    order = np.argsort(-shorts.astype(np.int32), axis=1, kind="stable")
    save("shorts_sorted", np.take_along_axis(shorts, order, axis=1))
    save("shorts_sorted_halves", np.take_along_axis(halves, order, axis=1))
    positive = (keys(3 * 40001, 4000, np.int16) + 2000).reshape(3, 40001)
    flags = (np.arange(positive.size) % 3 == 0).reshape(positive.shape)
    bytes_ = (np.arange(positive.size, dtype=np.int64) % 255 - 127).astype(np.int8).reshape(positive.shape)
    save("positive", positive)
    save("positive_flags", flags)
    save("positive_bytes", bytes_)
    order = np.argsort(positive, axis=1, kind="stable")
    save("positive_sorted", np.take_along_axis(positive, order, axis=1))
    save("positive_sorted_flags", np.take_along_axis(flags, order, axis=1))
    save("positive_sorted_bytes", np.take_along_axis(bytes_, order, axis=1))

if __name__ == "__main__":
    main(sys.argv[1])
