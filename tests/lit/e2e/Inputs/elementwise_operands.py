"""Writes deterministic operands and numpy references for gpu_elementwise.mlir. Usage: DIR"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(47)
a = rng.standard_normal(65536).astype(np.float32)
b = rng.standard_normal(65536).astype(np.float32)
np.save(os.path.join(out, "a.npy"), a)
np.save(os.path.join(out, "b.npy"), b)
np.save(os.path.join(out, "add.npy"), a + b)
h = rng.standard_normal(65536).astype(np.float16)
np.save(os.path.join(out, "h.npy"), h)
np.save(os.path.join(out, "widened.npy"), h.astype(np.float32) * np.float32(2))
odd_a, odd_b = a[:1022].copy(), b[:1022].copy()
np.save(os.path.join(out, "odd_a.npy"), odd_a)
np.save(os.path.join(out, "odd_b.npy"), odd_b)
np.save(os.path.join(out, "odd_mul.npy"), odd_a * odd_b)
