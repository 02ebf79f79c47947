#!/usr/bin/python3
"""Parameter files and references for globals_parameters.mlir, written by numpy.

  parameter_files.py DIR

writes DIR/weights.safetensors (w 4x3 f32, b 3 f32), DIR/extra.gguf (scale 3 f16),
DIR/missing_b.safetensors (w only), DIR/w_transposed.safetensors (w as 3x4),
DIR/x.npy and the results the program must return: DIR/linear.npy (x.w + b) and
DIR/scaled_twice.npy (2 (x.w + b) scale).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "io"))
from parameter_writers import write_gguf, write_safetensors  # noqa: E402

GGML_F16 = 1

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(46)
w = rng.uniform(-1, 1, (4, 3)).astype(np.float32)
b = rng.uniform(-1, 1, 3).astype(np.float32)
scale = np.array([0.5, -2.0, 1.25], np.float16)
x = rng.uniform(-1, 1, 4).astype(np.float32)

write_safetensors(os.path.join(out, "weights.safetensors"), {"w": w, "b": b})
write_safetensors(os.path.join(out, "missing_b.safetensors"), {"w": w})
write_safetensors(os.path.join(out, "w_transposed.safetensors"), {"w": np.ascontiguousarray(w.T), "b": b})
write_gguf(os.path.join(out, "extra.gguf"), [("general.architecture", "s", "kiln-test")],
           [("scale", GGML_F16, (3,), scale.tobytes())])
np.save(os.path.join(out, "x.npy"), x)
linear = (x.astype(np.float64) @ w + b).astype(np.float32)
np.save(os.path.join(out, "linear.npy"), linear)
np.save(os.path.join(out, "scaled_twice.npy"), (2 * linear * scale.astype(np.float32)).astype(np.float32))
