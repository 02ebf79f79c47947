#!/usr/bin/env python3
"""Runs kiln programs on hip-sim three times, on the host twin (KILN_HSA_SIM_MODE=twin), on the
code-object executor (KILN_HSA_SIM_MODE=code-object, with its race detector on) and in the
simulator's `both` mode (KILN_HSA_SIM_MODE=both: every dispatch runs both and fails on the
first difference), and requires bit-identical outputs (docs/hip-sim-executor.md). ctest label
hip_sim_code_object.

usage: code_object_e2e.py KILN_COMPILE KILN_RUN WORK_DIR PROGRAM.mlir...

Each PROGRAM.mlir's first func.func is the entry; its inputs are the function's tensor
arguments, filled with a deterministic pseudo-random pattern (small
integers scaled by 1/8, exact in f16, so the twin and the executor see the same values).
Needs no numpy: .npy files are written and read with the format's plain header.
"""
import os
import re
import struct
import subprocess
import sys

DTYPES = {"f32": ("<f4", "f", 4), "f16": ("<f2", "e", 2), "i32": ("<i4", "i", 4)}


def write_npy(path, shape, dtype, values):
    descr, code, _ = DTYPES[dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % d for d in shape))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), code), *values))


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + length].decode()
    descr = re.search(r"'descr': '([^']+)'", header).group(1)
    return descr, data[10 + length:]


def arguments(source):
    match = re.search(r"func\.func @(\w+)\(([^)]*)\)", source)
    return match.group(1), re.findall(r"tensor<([0-9x]+)x(f32|f16|i32)>", match.group(2))


def main():
    compile_tool, run_tool, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    failures = 0
    for program in sys.argv[4:]:
        name = os.path.splitext(os.path.basename(program))[0]
        function, args = arguments(open(program).read())
        module = os.path.join(work, name + ".kiln")
        subprocess.run([compile_tool, "--target=gfx942", program, "-o", module], check=True)
        inputs = []
        for n, (dims, dtype) in enumerate(args):
            shape = [int(d) for d in dims.split("x")]
            count = 1
            for d in shape:
                count *= d
            values = [((i * 7919 + n * 104729) % 17 - 8) / 8.0 for i in range(count)]
            if dtype == "i32":
                values = [int(v * 8) for v in values]
            path = os.path.join(work, "%s_in%d.npy" % (name, n))
            write_npy(path, shape, dtype, values)
            inputs.append("--input=@" + path)
        outputs = {}
        for mode in ("twin", "code-object", "both"):
            out = os.path.join(work, "%s_%s.npy" % (name, mode))
            env = dict(os.environ, KILN_HSA_SIM_MODE=mode)
            result = subprocess.run([run_tool, "--module=" + module, "--device=hip-sim", "--function=" + function,
                                     "--output=@" + out] + inputs, env=env, capture_output=True, text=True)
            if result.returncode != 0:
                print("FAIL %s (%s): %s" % (name, mode, result.stderr.strip()))
                failures += 1
                break
            outputs[mode] = read_npy(out)
        if len(outputs) != 3:
            continue
        if outputs["both"] != outputs["twin"]:
            print("FAIL %s: KILN_HSA_SIM_MODE=both completed with outputs other than the twin's" % name)
            failures += 1
            continue
        (descr, twin), (_, code) = outputs["twin"], outputs["code-object"]
        size = int(descr[2:])
        if twin == code:
            print("OK   %s: %d elements bit-identical" % (name, len(twin) // size))
            continue
        first = next(i for i in range(0, len(twin), size) if twin[i:i + size] != code[i:i + size])
        fmt = "<" + {"f4": "f", "f2": "e", "i4": "i"}[descr[1:]]
        print("FAIL %s: element %d differs: twin %r, code object %r" % (
            name, first // size, struct.unpack(fmt, twin[first:first + size])[0],
            struct.unpack(fmt, code[first:first + size])[0]))
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
