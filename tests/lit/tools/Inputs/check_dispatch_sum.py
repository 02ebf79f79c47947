"""Checks a kiln-benchmark-module --dispatches JSON report: the expected number of
dispatches, every one with a positive median, and the sum of their medians within a
relative tolerance of the whole call's median. Prints one line for FileCheck."""
import json
import sys

report = json.load(open(sys.argv[1]))
expected, tolerance = int(sys.argv[2]), float(sys.argv[3])
dispatches = report["dispatches"]
if len(dispatches) != expected:
    sys.exit(f"expected {expected} dispatches, got {len(dispatches)}")
if any(d["median_ms"] <= 0 for d in dispatches):
    sys.exit("a dispatch has no time")
total, call = sum(d["median_ms"] for d in dispatches), report["call"]["median_ms"]
if abs(total - call) > tolerance * call:
    sys.exit(f"the dispatch medians add up to {total:.4f} ms, the call takes {call:.4f} ms: more than {tolerance:.0%} apart")
print(f"{len(dispatches)} dispatches add up to the call within {tolerance:.0%}")
