#!/usr/bin/env python3
"""Turns kiln-bench-hal JSON output (--benchmark_out=FILE --benchmark_out_format=json, run
with --benchmark_repetitions and --benchmark_report_aggregates_only=true) into the ratio
tables of docs/PERFORMANCE.md. Every figure is the median over the repetitions.

usage: bench/summarize.py main.json [unpinned.json]
The unpinned benchmarks run in their own process (see docs/PERFORMANCE.md); their rows take
the wake-up anchor from that process's file when it has one.
"""
import json
import sys


def load(paths):
    runs = {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for b in data["benchmarks"]:
            if b.get("aggregate_name") == "median" and not b.get("error_occurred"):
                runs[b["run_name"]] = b
    return runs


def main():
    runs = load(sys.argv[1:2])
    unpinned = load(sys.argv[2:3])

    def get(name, source=None):
        for where in (source, runs, unpinned):
            if where is not None and name in where:
                return where[name]
        sys.exit(f"missing benchmark {name}")

    def lat(name, key, source=None):  # microseconds
        b = get(name, source)
        if key == "mean":
            return b["real_time"] * {"us": 1, "ms": 1e3, "ns": 1e-3}[b["time_unit"]]
        return b[key]

    def gbs(name):
        return get(name)["bytes_per_second"] / 1e9

    def verdict(ok):
        return "met" if ok else "**missed**"

    print("### Dispatch latency (us; p50/p90 over the submissions of a repetition, mean = benchmark time; median over repetitions)\n")
    print("| benchmark | p50 | p90 | mean | same-run anchor (p50) | ratio (p50) | target | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    idle = "BM_DispatchAfterIdle/{}/idle_ms:{}/iterations:60/manual_time"
    wake = "BM_WakeAnchor/idle_ms:{}/iterations:60/manual_time"
    rows = [
        ("hot, cpu, noop 1 wg", "BM_DispatchHot/cpu/noop_1wg/manual_time", None, 3.0),
        ("hot, cpu-sync, noop 1 wg", "BM_DispatchHot/cpu-sync/noop_1wg/manual_time", None, None),
        ("hot, cpu, noop 2 wg", "BM_DispatchHot/cpu/noop_2wg/manual_time", None, None),
        ("hot, cpu, rendezvous 2 wg (both workers)", "BM_DispatchHot/cpu/rendezvous_2wg/manual_time", None, None),
    ]
    for ms in (1, 10):
        target = 100.0 if ms == 10 else None
        rows += [
            (f"after {ms} ms idle, cpu, noop 1 wg", idle.format("cpu/noop_1wg", ms), wake.format(ms), target),
            (f"after {ms} ms idle, cpu, noop 2 wg", idle.format("cpu/noop_2wg", ms), wake.format(ms), target),
            (f"after {ms} ms idle, cpu, rendezvous 2 wg", idle.format("cpu/rendezvous_2wg", ms), wake.format(ms), None),
            (f"after {ms} ms idle, cpu unpinned, noop 1 wg", idle.format("cpu_unpinned/noop_1wg", ms), wake.format(ms), None),
            (f"after {ms} ms idle, cpu unpinned, rendezvous 2 wg", idle.format("cpu_unpinned/rendezvous_2wg", ms),
             wake.format(ms), None),
        ]
    for label, name, anchor, target in rows:
        if name not in runs and name not in unpinned:
            continue
        source = unpinned if "unpinned" in name else runs
        p50, p90, mean = lat(name, "p50_us"), lat(name, "p90_us"), lat(name, "mean")
        a = f"{lat(anchor, 'p50_us', source):.1f} (cv wake-up)" if anchor else "-"
        r = f"{p50 / lat(anchor, 'p50_us', source):.2f}" if anchor else "-"
        t = f"<= {target:g}" if target else "-"
        v = verdict(p50 <= target) if target else "-"
        print(f"| {label} | {p50:.2f} | {p90:.2f} | {mean:.2f} | {a} | {r} | {t} | {v} |")

    print("\n### Fill and copy, 64 MiB (GB/s = 1e9 B/s; fill counts bytes written, copy read + written)\n")
    print("| benchmark | kiln | anchor, 1 thread | ratio | anchor, 2 threads | ratio | target | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    memset = "BM_Memset/threads:{}/value:{}/real_time"
    memcpy = "BM_Memcpy/threads:{}/chunk:0/real_time"
    pattern_anchor = {"f32_1.0": ("memset 0x3f", 63), "f32_0.0": ("memset 0", 0), "u8_0x3f": ("memset 0x3f", 63),
                      "u8_0x00": ("memset 0", 0)}
    rows = []
    for pattern, (anchor_name, value) in pattern_anchor.items():
        for device in ("cpu", "cpu_1worker", "cpu-sync"):
            rows.append((f"fill {pattern}, {device}", f"BM_HalFill/{device}/{pattern}/real_time", anchor_name,
                         memset.format(1, value), memset.format(2, value)))
    for device in ("cpu", "cpu_1worker", "cpu-sync"):
        rows.append((f"copy, {device}", f"BM_HalCopy/{device}/real_time", "memcpy", memcpy.format(1), memcpy.format(2)))
    for label, name, anchor_name, a1, a2 in rows:
        k, x1, x2 = gbs(name), gbs(a1), gbs(a2)
        print(f"| {label} | {k:.1f} | {x1:.1f} ({anchor_name}) | {k / x1:.2f} | {x2:.1f} | {k / x2:.2f} | >= 0.80 "
              f"(1 thread) | {verdict(k / x1 >= 0.8)} |")
    print(f"\nmemcpy in 1 MiB calls, 1 thread: {gbs('BM_Memcpy/threads:1/chunk:1048576/real_time'):.1f} GB/s")

    print("\n### Elementwise out = a + b, 16M f32 (12 B per element)\n")
    print("| benchmark | kiln GB/s | STREAM triad, same threads | ratio | add loop, no HAL | ratio | target | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    triad = "BM_StreamTriad/threads:{}/real_time"
    add = "BM_AddLoop/threads:{}/real_time"
    for label, name, threads in (("add_f32, cpu (2 workers)", "BM_HalAddF32/cpu/real_time", 2),
                                 ("add_f32, cpu, 1 worker", "BM_HalAddF32/cpu_1worker/real_time", 1),
                                 ("add_f32, cpu-sync", "BM_HalAddF32/cpu-sync/real_time", 1)):
        k, t, a = gbs(name), gbs(triad.format(threads)), gbs(add.format(threads))
        print(f"| {label} | {k:.1f} | {t:.1f} ({threads} thr) | {k / t:.2f} | {a:.1f} | {k / a:.2f} | >= 0.80 | "
              f"{verdict(k / t >= 0.8)} |")


if __name__ == "__main__":
    main()
