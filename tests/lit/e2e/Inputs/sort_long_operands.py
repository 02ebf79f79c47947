"""Writes deterministic operands and numpy references for gpu_sort_long.mlir.

Lines longer than one workgroup sorts in LDS (sorted runs, then merge passes across
workgroups: SplitLongSorts.h), with many ties, so that the references (numpy's stable
sorts) pin the order of equal keys. Usage: DIR
"""
import os
import sys

import numpy as np


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda name, array: np.save(os.path.join(out, name + ".npy"), array)

    def keys(shape, distinct):
        # A fixed pseudo-random permutation folded onto `distinct` values: ties everywhere.
        count = int(np.prod(shape))
        return (np.arange(count, dtype=np.int64) * 7919 % 1000003 % distinct).reshape(shape).astype(np.float32)

    def reference(name, values, axis=1, descending=False):
        order = np.argsort(-values if descending else values, axis=axis, kind="stable")
        save(name + "_keys", np.take_along_axis(values, order, axis=axis))
        save(name + "_indices", order.astype(np.int32))

    # Two lines of 20000 (a few runs), keys in [0, 1000).
    two = keys((2, 20000), 1000)
    save("two", two)
    reference("two_ascending", two)
    reference("two_descending", two, descending=True)
    # An odd length: the last run and the last pair of runs are short.
    odd = keys((2, 100003), 5000)
    save("odd", odd)
    reference("odd_ascending", odd)
    reference("odd_descending", odd, descending=True)
    # The sorted dimension outermost: 20000 x 3, sorted along dimension 0.
    columns = keys((20000, 3), 700)
    save("columns", columns)
    reference("columns_ascending", columns, axis=0)
    # One line of 1M (2^20).
    million = keys((1 << 20,), 20000)
    save("million", million)
    reference("million_ascending", million, axis=0)
    # Lines around one run (4096 elements of f32 and i32) and a line of one element.
    for length in (4096, 4097, 1):
        line = keys((2, length), 97)
        save(f"line{length}", line)
        reference(f"line{length}_ascending", line)
    # Two keys, the second descending on ties of the first, and a payload of positions:
    # np.lexsort is stable, its last key the primary one.
    major = (np.arange(2 * 30001, dtype=np.int64) * 7919 % 13).reshape(2, 30001).astype(np.int32)
    minor = keys((2, 30001), 50)
    save("major", major)
    save("minor", minor)
    order = np.stack([np.lexsort((-minor[r], major[r])) for r in range(2)])
    save("lex_major", np.take_along_axis(major, order, axis=1))
    save("lex_minor", np.take_along_axis(minor, order, axis=1))
    save("lex_indices", order.astype(np.int32))


if __name__ == "__main__":
    main(sys.argv[1])
