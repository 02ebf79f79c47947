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
# Two dimensions: 256 x 250 (whole vectors), 37 x 41 (1517 elements: 379 vectors and one
# more), and 3 elements (fewer than a vector).
m_a, m_b = a[:64000].reshape(256, 250).copy(), b[:64000].reshape(256, 250).copy()
np.save(os.path.join(out, "m_a.npy"), m_a)
np.save(os.path.join(out, "m_b.npy"), m_b)
np.save(os.path.join(out, "add2d.npy"), m_a + m_b)
o_a, o_b = a[:1517].reshape(37, 41).copy(), b[:1517].reshape(37, 41).copy()
np.save(os.path.join(out, "o_a.npy"), o_a)
np.save(os.path.join(out, "o_b.npy"), o_b)
np.save(os.path.join(out, "odd_sub2d.npy"), o_a - o_b)
t_a, t_b = a[:3].copy(), b[:3].copy()
np.save(os.path.join(out, "t_a.npy"), t_a)
np.save(os.path.join(out, "t_b.npy"), t_b)
np.save(os.path.join(out, "tiny_mul.npy"), t_a * t_b)
