"""What the kiln Python tests share: the build's tools and a safetensors writer."""
import json
import os
import struct
import subprocess

import numpy as np

TOOLS = os.environ.get("KILN_TOOLS_DIR", "")


def tool(name):
    """The path of a kiln tool of this build (KILN_TOOLS_DIR)."""
    path = os.path.join(TOOLS, name)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{name} not found in KILN_TOOLS_DIR={TOOLS!r}")
    return path


def run_tool(name, *args):
    return subprocess.run([tool(name), *args], check=True, capture_output=True, text=True)


_SAFETENSORS_DTYPES = {np.dtype(np.float32): "F32", np.dtype(np.float16): "F16", np.dtype(np.int32): "I32",
                       np.dtype(np.int64): "I64", np.dtype(np.float64): "F64", np.dtype(np.int8): "I8"}


def write_safetensors(path, tensors):
    """Writes {name: array} as a safetensors file, with NumPy only."""
    header, blobs, offset = {}, [], 0
    for name, array in tensors.items():
        data = np.ascontiguousarray(array).tobytes()
        header[name] = {"dtype": _SAFETENSORS_DTYPES[array.dtype], "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)
