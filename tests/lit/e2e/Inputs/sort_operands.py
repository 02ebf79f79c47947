"""Writes deterministic operands and numpy references for gpu_sort.mlir.

Keys with many ties, so that the references (numpy's stable sort) pin the order of equal
keys; the long lines' keys are distinct (they predate the stable merge of long lines,
SplitLongSorts.h). Usage: DIR
"""
import os
import sys

import numpy as np


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda name, array: np.save(os.path.join(out, name + ".npy"), array)

    def reference(name, keys, descending=False):
        order = np.argsort(-keys if descending else keys, axis=1, kind="stable")
        save(name + "_keys", np.take_along_axis(keys, order, axis=1))
        save(name + "_indices", order.astype(np.int32))

    # Lines of 1000 (in LDS), keys in [-50, 50].
    short = (np.arange(7 * 1000).reshape(7, 1000) * 7919 % 101 - 50).astype(np.float32)
    save("short", short)
    reference("short_ascending", short)
    reference("short_descending", short, descending=True)
    # topk: the first 8 of the stable descending order.
    order = np.argsort(-short, axis=1, kind="stable")[:, :8]
    save("top8_values", np.take_along_axis(short, order, axis=1))
    save("top8_indices", order.astype(np.int32))
    # Lines of 20000 (beyond the LDS): a permutation of distinct keys per line.
    long = (np.arange(2 * 20000).reshape(2, 20000) * 7919 % 40009).astype(np.float32)
    save("long", long)
    reference("long_ascending", long)
    # One line of 1 and lines of 2: the network's edge cases.
    save("tiny", np.array([[5.0], [3.0]], dtype=np.float32))
    reference("tiny", np.array([[5.0], [3.0]], dtype=np.float32))


if __name__ == "__main__":
    main(sys.argv[1])
