"""MLIR function types as kiln records them ("(tensor<?x4xf32>, i32) -> tensor<?x3xf32>"):
the NumPy dtype each argument's elements take, so that lists convert to the right one."""
import numpy as np

_DTYPES = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
           "f16": np.float16, "f32": np.float32, "f64": np.float64,
           "complex<f32>": np.complex64, "complex<f64>": np.complex128}


def _split_top_level(text):
    """Splits on commas outside <> and ()."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    last = text[start:].strip()
    if last:
        parts.append(last)
    return parts


def _element_dtype(type_text):
    """tensor<2x?xf32> -> np.float32; None for scalars and types without a NumPy dtype."""
    if not (type_text.startswith("tensor<") and type_text.endswith(">")):
        return None
    body = type_text[len("tensor<"):-1]
    element = body
    while element and (element[0].isdigit() or element[0] == "?"):  # drop "4x", "?x"
        x = element.find("x")
        if x < 0:
            break
        element = element[x + 1:]
    return _DTYPES.get(element)


def argument_dtypes(function_type):
    """The element dtype of each argument of an MLIR function type, None where unknown; an
    empty list when the text is not a function type (the calling-convention form)."""
    if not function_type.startswith("("):
        return []
    depth = 0
    for i, c in enumerate(function_type):
        depth += c == "("
        depth -= c == ")"
        if depth == 0:
            return [_element_dtype(t) for t in _split_top_level(function_type[1:i])]
    return []
