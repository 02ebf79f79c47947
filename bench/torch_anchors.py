#!/usr/bin/env python3
"""PyTorch anchors for kiln-bench-compiled (docs/PERFORMANCE.md): the same operations on
the same shapes, eager mode, CPU, 1 and 2 threads. Prints one line per measurement:
  name threads median_ms
Needs Debian's python3-torch (scripts/install-deps.sh --bench)."""
import statistics
import time

import torch


def median_ms(fn, repeats=15):
    fn()  # warm up: allocator, thread pool
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    x = torch.full((16 << 20,), 0.5)
    y = torch.full((16 << 20,), 0.25)
    z = torch.full((16 << 20,), 1.5)
    s = torch.ones(512, 4096)
    a = torch.full((1024, 1024), 0.5)
    b = torch.full((1024, 1024), 0.25)
    torch.manual_seed(42)
    wide = torch.rand(4096, 1024)
    narrow = torch.rand(16384, 64)
    keys = torch.rand(1 << 20)
    for threads in (1, 2):
        torch.set_num_threads(threads)
        print(f"exp((x+y)*z)_16M {threads} {median_ms(lambda: torch.exp((x + y) * z)):.2f}")
        print(f"softmax_512x4096 {threads} {median_ms(lambda: torch.softmax(s, dim=1)):.2f}")
        print(f"matmul_1024 {threads} {median_ms(lambda: a @ b, repeats=7):.2f}")
        print(f"topk_4096x1024_k8 {threads} {median_ms(lambda: torch.topk(wide, 8, dim=1)):.2f}")
        print(f"topk_16384x64_k2 {threads} {median_ms(lambda: torch.topk(narrow, 2, dim=1)):.2f}")
        print(f"sort_1m {threads} {median_ms(lambda: torch.sort(keys), repeats=7):.2f}")


if __name__ == "__main__":
    main()
