#!/usr/bin/python3
"""numpy writes safetensors (single and sharded) and GGUF files byte by byte (struct and
tobytes, no safetensors/gguf packages); kiln-convert-parameters lists them and converts them
to .irpa, and the archive's bytes, read back here by an independent reader, must be
numpy's.

  formats_test.py --tool PATH/kiln-convert-parameters --workdir DIR
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import unittest

import numpy as np

from parameter_writers import SAFETENSORS_TYPES, bf16_bits, write_gguf, write_safetensors

TOOL = None
WORK = None


def read_irpa(path):
    """An independent irpa v0 reader: key -> ('data', bytes) or ('splat', length, pattern)."""
    with open(path, "rb") as f:
        blob = f.read()
    magic, major, minor, size, nxt, _, count = struct.unpack_from("<IHHQQQQ", blob, 0)
    assert (magic, major, minor, size, nxt) == (0x41505249, 0, 0, 88, 0), (magic, major, minor, size, nxt)
    table, _, meta, _, storage, _ = struct.unpack_from("<6Q", blob, 40)
    entries, at = {}, table
    for _ in range(count):
        entry_size, kind, _, name_off, name_len, _, _, align = struct.unpack_from("<QIQQQQQQ", blob, at)
        name = blob[meta + name_off:meta + name_off + name_len].decode()
        if kind == 1:
            length, = struct.unpack_from("<Q", blob, at + 60)
            pattern = blob[at + 68:at + 68 + blob[at + 84]]
            entries[name] = ("splat", length, pattern)
        elif kind == 2:
            off, length = struct.unpack_from("<QQ", blob, at + 60)
            assert (storage + off) % align == 0, (name, storage + off, align)
            entries[name] = ("data", blob[storage + off:storage + off + length])
        at += entry_size + (-entry_size % 16)
    return entries


def run(*args, ok=True):
    p = subprocess.run([TOOL, *args], capture_output=True, text=True)
    if ok and p.returncode != 0:
        raise AssertionError(f"{args} failed: {p.stderr}")
    return p


def listing(path):
    """key -> (type, shape, bytes, storage) from --list."""
    lines = run("--list", path).stdout.splitlines()
    assert lines[0].startswith("# "), lines[0]
    return {f[0]: tuple(f[1:]) for f in (line.split("\t") for line in lines[1:])}


def shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


class Formats(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        rng = np.random.default_rng(7)
        cls.st = {
            "w.f32": rng.standard_normal((2, 3)).astype(np.float32),
            "w.f16": rng.standard_normal(4).astype(np.float16),
            "w.f64": np.array([np.pi]),
            "i8": np.arange(-2, 3, dtype=np.int8),
            "i16": np.arange(6, dtype=np.int16).reshape(2, 3),
            "i32": np.arange(4, dtype=np.int32).reshape(2, 2),
            "i64": np.array([1, -1, 1 << 40], dtype=np.int64),
            "u8": np.arange(250, 254, dtype=np.uint8).reshape(2, 2),
            "mask": np.array([True, False, True]),
            "scalar": np.float32(2.5).reshape(()),
            "bf": bf16_bits([1.0, -2.0, 0.5]),
        }
        cls.st_path = os.path.join(WORK, "model.safetensors")
        cls.st_data = write_safetensors(cls.st_path, cls.st, {"bf": "BF16"})

        # GGUF: every metadata value type, nested arrays; F32, F16, BF16, I32, Q8_0, Q4_0 tensors.
        q8 = np.zeros(4, dtype=[("d", "<f2"), ("q", "i1", 32)])  # (2, 64): 2 rows of 2 blocks
        q8["d"] = [0.5, 0.25, 1.0, 2.0]
        q8["q"] = rng.integers(-128, 128, (4, 32))
        q4 = np.zeros(1, dtype=[("d", "<f2"), ("q", "u1", 16)])
        q4["q"] = rng.integers(0, 256, (1, 16))
        cls.gguf_tensors = [
            ("g.f32", 0, (3, 5), rng.standard_normal((3, 5)).astype(np.float32).tobytes(), "f32"),
            ("g.f16", 1, (8,), rng.standard_normal(8).astype(np.float16).tobytes(), "f16"),
            ("g.bf16", 30, (2, 2), bf16_bits([[1, 2], [3, 4]]).tobytes(), "bf16"),
            ("g.i32", 26, (2, 2), np.arange(4, dtype=np.int32).tobytes(), "i32"),
            ("g.q8", 8, (2, 64), q8.tobytes(), "gguf.q8_0"),
            ("g.q4", 2, (1, 32), q4.tobytes(), "gguf.q4_0"),
        ]
        kvs = [("general.architecture", "s", "llama"), ("general.alignment", "I", 64),
               ("u8", "B", 1), ("i8", "b", -1), ("u16", "H", 2), ("i16", "h", -2), ("u32", "I", 3),
               ("i32", "i", -3), ("f32", "f", 1.5), ("bool", "?", True), ("u64", "Q", 4), ("i64", "q", -4),
               ("f64", "d", 2.5), ("tokens", ("a", "s"), ["a", "bc", ""]), ("empty", ("a", "i"), []),
               ("nested", ("a", ("a", "i")), [[1, 2], [3]])]
        cls.gguf_path = os.path.join(WORK, "model.gguf")
        cls.gguf_start, cls.gguf_offsets = write_gguf(cls.gguf_path, kvs, [t[:4] for t in cls.gguf_tensors], 64)

        # Sharded safetensors: two shards and the index.
        cls.shards = {"s.a": np.arange(3, dtype=np.float32), "s.b": np.arange(4, dtype=np.int16)}
        write_safetensors(os.path.join(WORK, "sharded-00001-of-00002.safetensors"), {"s.a": cls.shards["s.a"]})
        write_safetensors(os.path.join(WORK, "sharded-00002-of-00002.safetensors"), {"s.b": cls.shards["s.b"]})
        cls.index_path = os.path.join(WORK, "sharded.safetensors.index.json")
        with open(cls.index_path, "w") as f:
            json.dump({"metadata": {"total_size": 20}, "weight_map": {
                "s.a": "sharded-00001-of-00002.safetensors", "s.b": "sharded-00002-of-00002.safetensors"}}, f)

    def expected_bytes(self):
        want = {k: np.ascontiguousarray(a).tobytes() for k, a in self.st.items()}
        want.update({t[0]: t[3] for t in self.gguf_tensors})
        want.update({k: a.tobytes() for k, a in self.shards.items()})
        return want

    def test_list_safetensors(self):
        got = listing(self.st_path)
        self.assertEqual(list(got), list(self.st))  # header order
        offset = 0
        for key, a in self.st.items():
            kiln_type = "bf16" if key == "bf" else SAFETENSORS_TYPES[a.dtype.name][1]
            self.assertEqual(got[key], (kiln_type, shape_text(a.shape), str(a.nbytes),
                                        f"data@{self.st_data + offset}"), key)
            offset += a.nbytes

    def test_list_gguf(self):
        got = listing(self.gguf_path)
        self.assertEqual(list(got), [t[0] for t in self.gguf_tensors])
        for (name, _, shape, raw, kiln_type), offset in zip(self.gguf_tensors, self.gguf_offsets):
            self.assertEqual(got[name], (kiln_type, shape_text(shape), str(len(raw)),
                                         f"data@{self.gguf_start + offset}"), name)

    def test_list_sharded(self):
        got = listing(self.index_path)
        self.assertEqual(got["s.a"][:3], ("f32", "[3]", "12"))
        self.assertTrue(got["s.a"][3].endswith("sharded-00001-of-00002.safetensors"), got["s.a"])
        self.assertEqual(got["s.b"][:3], ("i16", "[4]", "8"))

    def test_convert_merges_and_keeps_bytes(self):
        out = os.path.join(WORK, "merged.irpa")
        run(self.st_path, self.gguf_path, self.index_path, "-o", out)
        got = read_irpa(out)
        want = self.expected_bytes()
        self.assertEqual(sorted(got), sorted(want))
        for key, raw in want.items():
            self.assertEqual(got[key], ("data", raw), key)
        self.assertEqual(os.path.getsize(out) % 4096, 0)
        # The archive lists with the same lengths (irpa has no types or shapes).
        listed = listing(out)
        for key, raw in want.items():
            self.assertEqual(listed[key][:3], ("-", "-", str(len(raw))), key)

    def test_strip_splat_exclude_rename(self):
        out = os.path.join(WORK, "edited.irpa")
        run(self.st_path, "-o", out, "--strip", "--splat=w.f32=f32=2.5", "--splat=i16=x16=3c00",
            "--exclude=mask", "--rename=i8=renamed.i8", "--alignment=128")
        got = read_irpa(out)
        self.assertNotIn("mask", got)
        self.assertNotIn("i8", got)
        self.assertEqual(got["renamed.i8"], ("splat", 5, b"\0"))
        self.assertEqual(got["w.f32"], ("splat", 24, np.float32(2.5).tobytes()))
        self.assertEqual(got["i16"], ("splat", 12, bytes([0x00, 0x3c])))
        self.assertEqual(got["w.f16"], ("splat", 8, b"\0"))
        self.assertEqual(os.path.getsize(out), 4096)  # weightless

        out = os.path.join(WORK, "aligned.irpa")
        run(self.gguf_path, "-o", out, "--alignment=4096")
        for key, _, _, raw, _ in self.gguf_tensors:
            self.assertEqual(read_irpa(out)[key], ("data", raw))

    def test_errors_are_one_line(self):
        bad = os.path.join(WORK, "truncated.safetensors")
        with open(self.st_path, "rb") as f:
            blob = f.read()
        with open(bad, "wb") as f:
            f.write(blob[:-3])
        cases = [
            ((self.st_path, self.st_path, "-o", os.path.join(WORK, "x.irpa")), "ALREADY_EXISTS: duplicate parameter 'w.f32'"),
            ((bad, "-o", os.path.join(WORK, "x.irpa")), "past the end of the"),
            ((self.st_path, "-o", os.path.join(WORK, "x.irpa"), "--splat=w.f32=f32=x"), "is not a number"),
            ((self.st_path, "-o", os.path.join(WORK, "x.irpa"), "--splat=w.f32=i32=1", "--strip", "--exclude=none"),
             "NOT_FOUND: --exclude=none: no parameter 'none'"),
            ((self.st_path, "-o", os.path.join(WORK, "x.irpa"), "--splat=i8=f32=1"), "dividing its length of 5"),
            ((self.st_path,), "no output given"),
            (("--list",), "no input files given"),
            (("--nope",), "unknown flag '--nope'"),
            ((os.path.join(WORK, "missing.gguf"), "-o", "x"), "No such file or directory"),
        ]
        for args, fragment in cases:
            p = run(*args, ok=False)
            self.assertEqual(p.returncode, 1, args)
            self.assertEqual(p.stdout, "", args)
            self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
            self.assertTrue(p.stderr.startswith("kiln-convert-parameters: "), p.stderr)
            self.assertIn(fragment, p.stderr, args)
        self.assertFalse(os.path.exists(os.path.join(WORK, "x.irpa")))


def main():
    global TOOL, WORK
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--workdir", required=True)
    args, rest = parser.parse_known_args()
    TOOL, WORK = args.tool, args.workdir
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)


if __name__ == "__main__":
    main()
