"""Writes deterministic operands and numpy references for gpu_scatter.mlir.

The references apply the updates one after another in batch order, skipping masked
updates and slices that do not fit inside the original, which is the CPU's semantics
(LinalgExtToLoops). Usage: DIR
"""
import os
import sys

import numpy as np


def scatter(original, updates, indices, combine, dimension_map, mask=None):
    """iree_linalg_ext.scatter with indices [batch..., depth], applied in batch order."""
    out = original.copy()
    depth = len(dimension_map)
    batch_shape = indices.shape[:-1]
    slice_shape = updates.shape[len(batch_shape):]
    first_slice_dim = out.ndim - len(slice_shape)
    for b in np.ndindex(*batch_shape):
        if mask is not None and not mask[b]:
            continue
        offsets = [0] * out.ndim
        fits = True
        for j, d in enumerate(dimension_map):
            offset = int(indices[b + (j,)])
            window = slice_shape[d - first_slice_dim] if d >= first_slice_dim else 1
            fits = fits and 0 <= offset <= out.shape[d] - window
            offsets[d] = offset
        if not fits:
            continue
        for s in np.ndindex(*slice_shape):
            at = list(offsets)
            for k, i in enumerate(s):
                at[first_slice_dim + k] += i
            at = tuple(at)
            out[at] = combine(updates[b + s], out[at])
    assert depth == indices.shape[-1]
    return out


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda name, array: np.save(os.path.join(out, name + ".npy"), array)
    rng = np.random.default_rng(15)

    # Overwrite with unique indices: 300 distinct rows of 2000, two of them out of range.
    original = rng.standard_normal((2000, 16)).astype(np.float32)
    rows = rng.permutation(2000)[:300].astype(np.int32)
    rows[7], rows[100] = -1, 2000
    updates = rng.standard_normal((300, 16)).astype(np.float32)
    save("unique_original", original)
    save("unique_updates", updates)
    save("unique_indices", rows.reshape(300, 1))
    save("unique_result", scatter(original, updates, rows.reshape(300, 1), lambda u, o: u, [0]))

    # Add with many collisions: 5000 updates (a dynamic count) onto 64 rows, some out of range.
    original = rng.standard_normal((64, 8)).astype(np.float32)
    rows = rng.integers(-3, 67, size=(5000, 1)).astype(np.int32)
    updates = rng.standard_normal((5000, 8)).astype(np.float32)
    save("add_original", original)
    save("add_updates", updates)
    save("add_indices", rows)
    save("add_result", scatter(original, updates, rows, lambda u, o: np.float32(u + o), [0]))

    # Add of rows of 300 (slices the work-items share) onto 600 rows, with collisions.
    original = rng.standard_normal((600, 300)).astype(np.float32)
    rows = rng.integers(-2, 602, size=(200, 1)).astype(np.int32)
    rows[:30] = 17
    updates = rng.standard_normal((200, 300)).astype(np.float32)
    save("wide_original", original)
    save("wide_updates", updates)
    save("wide_indices", rows)
    save("wide_result", scatter(original, updates, rows, lambda u, o: np.float32(u + o), [0]))

    # Max on i32, slices of one element over a [7000] original (two blocks), with collisions.
    original = rng.integers(-1000, 1000, size=7000).astype(np.int32)
    rows = rng.integers(-10, 7010, size=(20000, 1)).astype(np.int32)
    updates = rng.integers(-100000, 100000, size=20000).astype(np.int32)
    save("max_original", original)
    save("max_updates", updates)
    save("max_indices", rows)
    save("max_result", scatter(original, updates, rows, lambda u, o: max(u, o), [0]))

    # old * 3 + update on i32 points (order-dependent, exact): the ordered path with slices
    # of one element, applied by one work-item per block; 4000 updates onto 9000 points.
    original = rng.integers(-5, 5, size=9000).astype(np.int32)
    rows = rng.integers(-3, 9003, size=(4000, 1)).astype(np.int32)
    rows[:100] = 4500  # one point updated 100 times (wraps, like the CPU's i32)
    updates = rng.integers(-20, 20, size=4000).astype(np.int32)
    save("triple_original", original)
    save("triple_updates", updates)
    save("triple_indices", rows)
    with np.errstate(over="ignore"):
        save("triple_result", scatter(original, updates, rows, lambda u, o: np.int32(o * np.int32(3) + u), [0]))

    # An order-dependent combiner (old / 2 + update) and an overwrite with repeated indices
    # (the last update wins): the ordered path. Slices of 20 rows over a [2000, 8] original
    # (four blocks of 512 rows), so slices cross blocks, and some do not fit.
    original = rng.standard_normal((2000, 8)).astype(np.float32)
    rows = rng.integers(-5, 1990, size=(400, 1)).astype(np.int32)
    rows[:40] = rng.integers(500, 530, size=(40, 1))  # collisions across the block at 512
    updates = rng.standard_normal((400, 20, 8)).astype(np.float32)
    save("ordered_original", original)
    save("ordered_updates", updates)
    save("ordered_indices", rows)
    half = np.float32(0.5)
    save("halve_add_result", scatter(original, updates, rows, lambda u, o: np.float32(o * half) + u, [0]))
    save("last_wins_result", scatter(original, updates, rows, lambda u, o: u, [0]))

    # Masked points of a [300, 40] i32 original (two dimensions indexed, slices of one element).
    original = rng.integers(-50, 50, size=(300, 40)).astype(np.int32)
    points = np.stack([rng.integers(-2, 302, size=3000), rng.integers(-2, 42, size=3000)], axis=1).astype(np.int32)
    updates = rng.integers(-50, 50, size=3000).astype(np.int32)
    mask = rng.random(3000) < 0.6
    save("masked_original", original)
    save("masked_updates", updates)
    save("masked_indices", points)
    save("masked_mask", mask)
    save("masked_result", scatter(original, updates, points, lambda u, o: np.int32(u + o), [0, 1], mask))

    # one_hot-style: [tokens, 4] zeros (a dynamic token count), each token's two gates at
    # (token, expert), indices [tokens, 2, 2].
    tokens = 1500
    experts = np.stack([rng.permutation(4)[:2] for _ in range(tokens)]).astype(np.int32)
    coords = np.stack([np.repeat(np.arange(tokens)[:, None], 2, axis=1), experts], axis=2).astype(np.int32)
    gates = rng.random((tokens, 2)).astype(np.float32)
    save("one_hot_gates", gates)
    save("one_hot_coords", coords)
    zeros = np.zeros((tokens, 4), dtype=np.float32)
    save("one_hot_result", scatter(zeros, gates, coords, lambda u, o: u, [0, 1]))


if __name__ == "__main__":
    main(sys.argv[1])
