"""Writes deterministic operands and numpy references for sort_cpu_split.mlir.

Lines that kiln-cpu-split-long-sorts splits into sorted runs and merge passes: odd and
dynamic lengths (runs of unequal length), tiny dynamic lengths (fewer elements than
runs or workgroups), and a comparator of two keys (no radix sort: the comparison sort
and the merges use the comparator itself). Many ties, so that numpy's stable sorts pin
the order of equal elements. Usage: DIR
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

    def ascending(name, values):
        order = np.argsort(values, kind="stable")
        save(name, values)
        save(name + "_keys", values[order])
        save(name + "_indices", order.astype(np.int32))

    # Dynamic lengths: odd and long, one element, three (fewer than 4 runs), empty-ish small.
    odd = keys(1000003, 3000)
    odd[::5][odd[::5] == 0] = np.float32(-0.0)
    ascending("dynamic_odd", odd)
    ascending("dynamic_one", np.array([2.5], dtype=np.float32))
    ascending("dynamic_three", np.array([1.0, -1.0, 1.0], dtype=np.float32))
    # Two keys: i32 ascending, then f32 descending; the last operand the positions.
    count = 300007
    first = keys(count, 50, np.int32)
    second = (np.arange(count, dtype=np.int64) * 104729 % 7 - 3).astype(np.float32)
    order = np.lexsort((-second, first))  # stable: equal pairs keep their order
    save("pair_first", first)
    save("pair_second", second)
    save("pair_first_sorted", first[order])
    save("pair_second_sorted", second[order])
    save("pair_indices", order.astype(np.int32))


if __name__ == "__main__":
    main(sys.argv[1])
