"""Writes deterministic operands and numpy references for gpu_topk_long.mlir.

Lines longer than one workgroup holds in LDS (a topk of chunks, then a topk of their
candidates: kiln-gpu-split-long-topks), with many ties and a few NaNs, so that the
references pin which of equal values come first. The reference is the CPU's sequential
insertions for initial outputs of one fill f: the first k of the stable order of
[k fills, the line], where NaNs and values equal to f never enter. Usage: DIR
"""
import os
import sys

import numpy as np


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda name, array: np.save(os.path.join(out, name + ".npy"), array)

    def keys(shape, distinct, dtype):
        # A fixed pseudo-random permutation folded onto `distinct` values: ties everywhere.
        count = int(np.prod(shape))
        return (np.arange(count, dtype=np.int64) * 7919 % 1000003 % distinct).reshape(shape).astype(dtype)

    def reference(name, values, k, largest, fill, fill_index, positions=None):
        out_values, out_indices = [], []
        for row in range(values.shape[0]):
            line = values[row].astype(np.float64)
            ok = ~np.isnan(line) & ((line > fill) if largest else (line < fill))
            candidates = np.nonzero(ok)[0]
            order = np.argsort(-line[candidates] if largest else line[candidates], kind="stable")
            chosen = candidates[order][:k]
            row_values = np.full(k, fill, dtype=values.dtype)
            row_indices = np.full(k, fill_index, dtype=np.int32)
            row_values[: len(chosen)] = values[row][chosen]
            row_indices[: len(chosen)] = chosen if positions is None else positions[row][chosen]
            out_values.append(row_values)
            out_indices.append(row_indices)
        save(name + "_values", np.stack(out_values))
        save(name + "_indices", np.stack(out_indices))

    # Two vocabulary-sized lines (128256: not a multiple of the chunk, so the last chunk is
    # padded), values in [0, 5000) with NaNs: the top 50 of each.
    logits = keys((2, 128256), 5000, np.float32) * np.float32(0.01) - np.float32(20.0)
    logits[0, 777] = np.nan
    logits[1, 100000] = np.nan
    logits[1, 5] = np.float32(1000.0)
    save("logits", logits)
    reference("top50", logits, 50, True, -np.inf, 0)
    # The smallest 8 (olt), from a fill of +inf.
    reference("bottom8", logits, 8, False, np.inf, 0)
    # i32 values with their own indices (positions reversed), top 16 (sgt).
    counts = keys((3, 20001), 300, np.int32)
    positions = np.ascontiguousarray(np.broadcast_to(np.arange(20001, dtype=np.int32)[::-1], (3, 20001)))
    save("counts", counts)
    save("count_positions", positions)
    reference("top16", counts, 16, True, np.iinfo(np.int32).min, -1, positions)


if __name__ == "__main__":
    main(sys.argv[1])
