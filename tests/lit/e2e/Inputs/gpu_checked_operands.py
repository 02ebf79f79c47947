"""Writes operands and the numpy reference for gpu_checked_indices.mlir.

A table of 64 rows of 8 and 300 row indices: in range (with the gathered reference), one bad
index at row 150, bad indices at rows 70 and 150 (different workgroups), and bad indices at
rows 65 and 66 (one workgroup). Usage: DIR
"""
import os
import sys

import numpy as np


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda name, array: np.save(os.path.join(out, name + ".npy"), array)
    table = (np.arange(64 * 8).reshape(64, 8) * 0.5).astype(np.float32)
    rows = (np.arange(300) * 37 % 64).astype(np.int32)
    save("table", table)
    save("rows", rows)
    save("gathered", table[rows])

    def bad(name, at):
        r = rows.copy()
        for position, value in at.items():
            r[position] = value
        save(name, r)

    bad("rows_bad_150", {150: 64})
    bad("rows_bad_70_150", {70: -1, 150: 99})
    bad("rows_bad_65_66", {65: 100, 66: 101})


if __name__ == "__main__":
    main(sys.argv[1])
