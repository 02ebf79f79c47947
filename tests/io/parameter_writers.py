"""Parameter files written byte by byte with numpy, struct and tobytes (no safetensors or gguf
packages), for kiln's tests: safetensors (a file, or one shard of a set) and GGUF v3.
Imported by tests/io/formats_test.py and by lit tests' input scripts.
"""
import json
import struct

import numpy as np

# numpy dtype -> (safetensors dtype, kiln element type)
SAFETENSORS_TYPES = {
    "float32": ("F32", "f32"), "float16": ("F16", "f16"), "float64": ("F64", "f64"),
    "int8": ("I8", "i8"), "int16": ("I16", "i16"), "int32": ("I32", "i32"), "int64": ("I64", "i64"),
    "uint8": ("U8", "i8"), "bool": ("BOOL", "i1"),
}


def bf16_bits(a):
    """bf16 as uint16 bits (truncating f32), for a dtype numpy lacks."""
    return (np.asarray(a, np.float32).view(np.uint32) >> 16).astype(np.uint16)


def write_safetensors(path, tensors, dtypes=None):
    """tensors: name -> array; dtypes: name -> safetensors dtype override (BF16)."""
    dtypes = dtypes or {}
    header, blobs, offset = {"__metadata__": {"format": "np"}}, [], 0
    for name, a in tensors.items():
        raw = np.ascontiguousarray(a).tobytes()
        header[name] = {"dtype": dtypes.get(name) or SAFETENSORS_TYPES[a.dtype.name][0],
                        "shape": list(a.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))
    return 8 + len(text)  # where the data starts


def gguf_string(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def gguf_value(kind, value):
    """(type code, bytes) of a metadata value; kind is a struct letter, 's', or ('a', kind)."""
    scalar = {"B": 0, "b": 1, "H": 2, "h": 3, "I": 4, "i": 5, "f": 6, "?": 7, "Q": 10, "q": 11, "d": 12}
    if kind == "s":
        return 8, gguf_string(value)
    if isinstance(kind, tuple):
        items = [gguf_value(kind[1], v) for v in value]
        code = items[0][0] if items else scalar.get(kind[1], 8)
        return 9, struct.pack("<IQ", code, len(value)) + b"".join(v for _, v in items)
    return scalar[kind], struct.pack("<" + kind, value)


def write_gguf(path, kvs, tensors, alignment=32):
    """kvs: [(key, kind, value)]; tensors: [(name, ggml type, shape outermost first, bytes)]."""
    out = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs))
    for key, kind, value in kvs:
        code, raw = gguf_value(kind, value)
        out += gguf_string(key) + struct.pack("<I", code) + raw
    data, offsets = b"", []
    for _, _, _, raw in tensors:
        data += b"\0" * (-len(data) % alignment)
        offsets.append(len(data))
        data += raw
    for (name, ggml_type, shape, _), offset in zip(tensors, offsets):
        out += gguf_string(name) + struct.pack("<I", len(shape))
        out += b"".join(struct.pack("<Q", d) for d in reversed(shape))  # ne[] innermost first
        out += struct.pack("<IQ", ggml_type, offset)
    start = len(out) + (-len(out) % alignment)
    with open(path, "wb") as f:
        f.write(out + b"\0" * (start - len(out)) + data)
    return start, offsets
