"""Compile time and peak memory of the Llama-3-8B-shaped decoder (llama_shaped.py), 2 and 32
layers, for cpu and gfx942, weights bound to parameters (issue 46's targets: cpu <= 60 s,
gfx942 <= 120 s, <= 2 GiB, 32 layers <= 2x the time of 2 layers).

Usage: compile_time.py KILN_COMPILE [WORKDIR]
Prints one line per compile: target, layers, seconds, peak resident MiB, module bytes; then
the 32/2 ratios. Times are one run each on this machine (an idle one for figures).
"""
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def compile_once(kiln_compile, source, target, out):
    """Seconds, peak resident MiB (this compile's own, from wait4) and module bytes."""
    start = time.monotonic()
    child = subprocess.Popen([kiln_compile, source, f"--target={target}", "-o", out])
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"kiln-compile failed ({child.returncode}) on {source} for {target}")
    return seconds, usage.ru_maxrss / 1024, os.path.getsize(out)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    kiln_compile = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="kiln_compile_time_")
    os.makedirs(work, exist_ok=True)
    results = {}
    for layers in (2, 32):
        source = os.path.join(work, f"llama3_8b_{layers}.mlir")
        with open(source, "w") as f:
            subprocess.run([sys.executable, os.path.join(HERE, "llama_shaped.py"), "--layers", str(layers)],
                           stdout=f, check=True)
        for target in ("cpu", "gfx942"):
            out = os.path.join(work, f"llama3_8b_{layers}.{target}.kiln")
            seconds, mib, size = compile_once(kiln_compile, source, target, out)
            results[(target, layers)] = seconds
            print(f"{target:7s} {layers:2d} layers  {seconds:6.2f} s  peak {mib:7.1f} MiB  module {size} bytes")
    for target in ("cpu", "gfx942"):
        print(f"{target:7s} 32/2 layers: {results[(target, 32)] / results[(target, 2)]:.2f}x")


if __name__ == "__main__":
    main()
