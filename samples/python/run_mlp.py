"""Compiles samples/models/mlp.mlir with kiln in-process and runs it on the CPU.

    PYTHONPATH=build/python python3 samples/python/run_mlp.py [samples/models/mlp.mlir]

Prints the module's functions, then the class probabilities of a batch of two inputs, and
checks them against the same network in NumPy.
"""
import json
import os
import re
import sys

import numpy as np

import kiln

HERE = os.path.dirname(os.path.abspath(__file__))


def reference(x, path):
    """The network of mlp.mlir in NumPy, with the weights read from its constants."""
    with open(path) as f:
        text = f.read()
    arrays = [np.array(json.loads(m), np.float32)
              for m in re.findall(r"dense<(\[.*?\])>", text, re.S)]
    w1, b1, w2 = arrays
    h = np.maximum(x @ w1 + b1, 0)
    logits = h @ w2
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "models", "mlp.mlir")
    module = kiln.load(kiln.compile(path), device="cpu")
    for name, function in module.functions.items():
        print(f"{name}{function.signature}")
    x = np.array([[1, 0, 0, 0], [0, 0, 0, 1]], np.float32)
    probabilities = module.predict(x)
    print(probabilities)
    np.testing.assert_allclose(probabilities, reference(x, path), rtol=1e-5, atol=1e-6)
    print("matches NumPy")


if __name__ == "__main__":
    main()
