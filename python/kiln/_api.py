"""The kiln package's Python surface over the extension module kiln._kiln."""
import functools
import os
import tempfile

import numpy as np

from kiln import _kiln
from kiln._types import argument_dtypes

KilnError = _kiln.KilnError


def _is_path(source):
    """A str names a file unless it looks like MLIR text (a newline or a brace)."""
    if isinstance(source, os.PathLike):
        return True
    return isinstance(source, str) and "\n" not in source and "{" not in source


def compile(source, target="cpu", check_indices=False):
    """Compiles MLIR into .kiln module bytes, in-process.

    `source` is a path (str or os.PathLike) to a .mlir file, or MLIR text (str or bytes:
    anything with a newline or a brace). `target` is kiln-compile's --target ("cpu",
    "gfx942", "cpu,gfx942"). Diagnostics are the KilnError's message.
    """
    if _is_path(source):
        return _kiln.compile_file(os.fspath(source), target, check_indices)
    if isinstance(source, str):
        source = source.encode()
    if not isinstance(source, (bytes, bytearray)):
        raise TypeError(f"kiln.compile takes a path or MLIR text, not {type(source).__name__}")
    with tempfile.TemporaryDirectory(prefix="kiln-") as directory:
        path = os.path.join(directory, "source.mlir")
        with open(path, "wb") as f:
            f.write(source)
        return _kiln.compile_file(path, target, check_indices)


def _parameter_files(parameters):
    """{"model": "w.irpa"} or {"model": ["a.safetensors", "b.gguf"]} or a path or a list of
    paths (the unnamed scope) -> [(scope, path)]."""
    if parameters is None:
        return []
    if isinstance(parameters, (str, os.PathLike)):
        return [("", os.fspath(parameters))]
    if isinstance(parameters, dict):
        files = []
        for scope, paths in parameters.items():
            if isinstance(paths, (str, os.PathLike)):
                paths = [paths]
            files.extend((scope or "", os.fspath(p)) for p in paths)
        return files
    return [("", os.fspath(p)) for p in parameters]


def load(module, device="cpu", parameters=None):
    """Loads a module on `device` ("cpu", "cpu-sync", IREE's "local-task" ...).

    `module` is .kiln module bytes (kiln.compile's result), a path to a .kiln file (mapped,
    not copied) or a path to a .mlir file (compiled first for the device's target, as
    kiln-run does: gfx942 on hip-sim). `parameters` fills
    the globals bound to parameters: {"model": "weights.irpa"} (scope -> file or files;
    .irpa, safetensors, GGUF) or a path for the unnamed scope.
    """
    files = _parameter_files(parameters)
    if isinstance(module, (bytes, bytearray, memoryview)):
        return Module(_kiln.LoadedModule.load_bytes(bytes(module), device, files))
    path = os.fspath(module)
    if path.endswith(".mlir"):
        target = _kiln.compile_target(device)
        return Module(_kiln.LoadedModule.load_bytes(compile(path, target=target), device, files))
    return Module(_kiln.LoadedModule.load_file(path, device, files))


def devices():
    """Every device of the built-in drivers: dicts with name (what load(device=) takes),
    driver, description and available (False, with the reason as description, for a
    driver without devices)."""
    return _kiln.devices()


class Function:
    """One exported function of a Module; call it with NumPy arrays and Python scalars."""

    def __init__(self, module, name):
        self._module = module
        self.name = name
        self.signature = module._loaded.signature(name)
        self._dtypes = argument_dtypes(self.signature)
        self._call = functools.partial(module._loaded.call, name)

    def __call__(self, *args):
        for a in args:
            if type(a) is not np.ndarray and self._dtypes and len(args) == len(self._dtypes):
                # Lists and scalars for tensors take the declared element type; arrays are
                # passed as they are (a wrong dtype is an error, never a silent conversion).
                args = [a if d is None or isinstance(a, np.ndarray) else np.asarray(a, d)
                        for a, d in zip(args, self._dtypes)]
                break
        return self._call(*args)

    def __repr__(self):
        return f"<kiln.Function {self.name}{self.signature}>"


class Module:
    """A module loaded on a device with its own state (globals). Calls from several threads
    take turns; load the module again for calls that run in parallel."""

    def __init__(self, loaded):
        self._loaded = loaded
        self._functions = {n: Function(self, n) for n in loaded.function_names()}

    @property
    def name(self):
        return self._loaded.name

    @property
    def device(self):
        return self._loaded.device

    @property
    def functions(self):
        """{name: Function}, each with its signature."""
        return dict(self._functions)

    def __getitem__(self, name):
        function = self._functions.get(name)
        if function is None:
            self._loaded.signature(name)  # raises KilnError NOT_FOUND naming the exports
        return function

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        functions = self.__dict__.get("_functions", {})
        if name not in functions:
            raise AttributeError(f"module '{self.name}' exports no function '{name}' "
                                 f"(it exports: {', '.join(functions) or 'nothing'})")
        return functions[name]

    def __contains__(self, name):
        return name in self._functions

    def __dir__(self):
        return list(super().__dir__()) + list(self._functions)

    def __repr__(self):
        return f"<kiln.Module {self.name} on {self.device}: {', '.join(self._functions)}>"
