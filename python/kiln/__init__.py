"""kiln from Python: compile MLIR, load modules, call their functions with NumPy arrays.

    import kiln, numpy as np
    module = kiln.load(kiln.compile("model.mlir"))
    print(module.functions)
    y = module.predict(np.ones((2, 4), np.float32))

docs/python.md has the details (zero-copy rules, threads, errors).
"""
from kiln._api import Function, KilnError, Module, compile, devices, load

__all__ = ["Function", "KilnError", "Module", "compile", "devices", "load"]
