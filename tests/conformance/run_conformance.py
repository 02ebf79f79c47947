#!/usr/bin/env python3
"""Runs kiln-check over every IREE e2e test file and compares with expected_failures.txt.

usage: run_conformance.py KILN_CHECK CONFORMANCE_DIR EXPECTED_FAILURES [--jobs N] [--device NAME]

With --device, kiln-check compiles each file for that device and runs it there (hip-sim:
the AMD GPU code path on kiln's HSA simulator); each device has its own expected failures.

Exit 0 when every file passes or is an expected failure; 1 when an unlisted file fails or
a listed one passes (the list only shrinks) or the list is malformed; 77 (ctest's skip
code) when CONFORMANCE_DIR does not exist.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

TIMEOUT_SECONDS = 600


def read_expected_failures(path):
    expected = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            name, _, reason = text.partition("#")
            name, reason = name.strip(), reason.strip()
            if not name or not reason:
                sys.exit(f"{path}:{number}: expected 'NAME  # reason', got '{text}'")
            expected[name] = reason
    return expected


def run(kiln_check, path, device):
    command = [kiln_check, path] + ([f"--device={device}"] if device else [])
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_SECONDS)
        return done.returncode == 0, done.stdout + done.stderr
    except subprocess.TimeoutExpired:
        return False, f"timed out after {TIMEOUT_SECONDS} s"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kiln_check")
    parser.add_argument("directory")
    parser.add_argument("expected_failures")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--device", default="")
    args = parser.parse_args()
    if not os.path.isdir(args.directory):
        print(f"SKIP: no conformance files at {args.directory} (the shared IREE e2e tests are not on this machine)")
        return 77
    expected = read_expected_failures(args.expected_failures)
    files = sorted(f[:-5] for f in os.listdir(args.directory) if f.endswith(".mlir"))
    unknown = sorted(set(expected) - set(files))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        outcomes = dict(zip(files, pool.map(lambda n: run(args.kiln_check, os.path.join(args.directory, n + ".mlir"),
                                                               args.device),
                                            files)))
    passed, xfailed, unexpected_failures, unexpected_passes = [], [], [], []
    for name in files:
        ok, output = outcomes[name]
        if ok and name not in expected:
            passed.append(name)
            print(f"PASS   {name}")
        elif ok:
            unexpected_passes.append(name)
            print(f"XPASS  {name}: listed as failing ({expected[name]}) but passes; remove it from the list")
        elif name in expected:
            xfailed.append(name)
            print(f"XFAIL  {name}: {expected[name]}")
        else:
            unexpected_failures.append(name)
            print(f"FAIL   {name}")
            print("       " + "\n       ".join(output.strip().splitlines()[-20:]))
    for name in unknown:
        print(f"ERROR  {name}: listed in {os.path.basename(args.expected_failures)} but there is no such file")
    print(f"conformance: {len(passed)} of {len(files)} files pass, {len(xfailed)} expected failures, "
          f"{len(unexpected_failures)} unexpected failures, {len(unexpected_passes)} unexpected passes")
    return 1 if unexpected_failures or unexpected_passes or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
