"""Writes random operands and references for matmul_narrow_sums.mlir: f16 x f16 -> f16 and
bf16 x bf16 -> bf16 matmuls, which kiln sums in f32 and rounds once on CPUs without
arithmetic in the narrow type.

Values are uniform in [-1, 1) rounded to the narrow type; the reference is the exact
product (float64: every product of two 16-bit floats and every sum here is exact in it),
rounded once to the output type. A kernel that sums in f32 differs from it by at most one
unit in the last place of the output (when its f32 rounding of the sum crosses a rounding
boundary of the narrow type); one that rounds every partial sum to f16 or bf16 is off by
tens of them at these depths.
Usage: narrow_sum_operands.py DIR
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True  # nothing written beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from low_precision_operands import bf16_file, bf16_round  # noqa: E402

# (name, batch, M, K, N): remainders of the row groups, column blocks and k blocks; 517 k
# spans three 256-deep blocks; 4 rows is a decode-shaped product (dot-product tiles), alone
# and batched (an attention step's scores).
SHAPES = [("37x517x70", 0, 37, 517, 70), ("4x517x70", 0, 4, 517, 70), ("3x37x130x61", 3, 37, 130, 61),
          ("3x4x517x70", 3, 4, 517, 70)]


def main(out):
    os.makedirs(out, exist_ok=True)
    save = lambda name, array: np.save(os.path.join(out, name + ".npy"), array)
    random = np.random.default_rng(29)
    for name, batch, m, k, n in SHAPES:
        lead = (batch,) if batch else ()
        draw = lambda *shape: random.uniform(-1, 1, lead + shape)
        a16, b16, c16 = draw(m, k).astype(np.float16), draw(k, n).astype(np.float16), draw(m, n).astype(np.float16)
        exact = np.matmul(a16.astype(np.float64), b16.astype(np.float64))
        save(f"f16_a_{name}", a16)
        save(f"f16_b_{name}", b16)
        save(f"f16_w_{name}", np.ascontiguousarray(np.swapaxes(b16, -1, -2)))
        save(f"f16_c_{name}", c16)
        save(f"f16_ref_{name}", exact.astype(np.float16))
        save(f"f16_ref_c_{name}", (exact + c16.astype(np.float64)).astype(np.float16))
        a, b = bf16_round(draw(m, k)), bf16_round(draw(k, n))
        exact = np.matmul(a.astype(np.float64), b.astype(np.float64))
        save(f"bf16_a_{name}", bf16_file(a))
        save(f"bf16_b_{name}", bf16_file(b))
        save(f"bf16_w_{name}", bf16_file(np.ascontiguousarray(np.swapaxes(b, -1, -2))))
        # float64 -> float32 -> bf16 rounds twice, which may differ from rounding once by
        # one unit in the last place: within the tests' tolerance, as the kernels' own.
        save(f"bf16_ref_{name}", bf16_file(bf16_round(exact.astype(np.float32))))


if __name__ == "__main__":
    main(sys.argv[1])
