#!/usr/bin/env python3
"""PyTorch anchors for kiln-bench-compiled (docs/PERFORMANCE.md): the same operations on
the same shapes, eager mode, CPU, 1 and 2 threads. Prints one line per measurement:
  name threads median_ms
An optional argument, a regular expression, keeps the measurements whose names it finds
(`torch_anchors.py llama` runs the decoder layer only).
Threads: PyTorch's and OpenBLAS's (set_threads).
Runs without OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE (see without_openblas_tuning).
Needs Debian's python3-torch (scripts/install-deps.sh --bench)."""
import ctypes
import os
import re
import statistics
import sys
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


class LlamaLayer:
    """bench/programs/llama_decoder_layer.mlir in eager PyTorch, as a user would write it:
    F.linear with W[out, in], rotate-half rotary embeddings from cos/sin [1024, 64], the KV
    cache [16, 1024, 128] updated in place, attention over its filled positions (a causal
    mask in prefill), a SwiGLU MLP. Random inputs in [0, 1) like kiln-bench-compiled's."""

    def __init__(self, hidden=2048, heads=16, ffn=5632, cache=1024):
        self.heads, self.head_dim = heads, hidden // heads
        r = torch.rand
        self.attn_norm, self.mlp_norm = r(hidden), r(hidden)
        self.wq, self.wk, self.wv, self.wo = (r(hidden, hidden) for _ in range(4))
        self.w_gate, self.w_up, self.w_down = r(ffn, hidden), r(ffn, hidden), r(hidden, ffn)
        self.cos, self.sin = r(cache, self.head_dim // 2), r(cache, self.head_dim // 2)
        self.k_cache, self.v_cache = r(heads, cache, self.head_dim), r(heads, cache, self.head_dim)

    @staticmethod
    def rmsnorm(x, weight):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * weight

    def rope(self, x, start):  # x [T, H, head_dim]
        t = x.shape[0]
        cos, sin = self.cos[start:start + t, None, :], self.sin[start:start + t, None, :]
        first, second = x.chunk(2, dim=-1)
        return torch.cat([first * cos - second * sin, second * cos + first * sin], dim=-1)

    def __call__(self, x, start):
        F = torch.nn.functional
        t = x.shape[0]
        n = self.rmsnorm(x, self.attn_norm)
        q = self.rope(F.linear(n, self.wq).view(t, self.heads, self.head_dim), start)
        k = self.rope(F.linear(n, self.wk).view(t, self.heads, self.head_dim), start)
        v = F.linear(n, self.wv).view(t, self.heads, self.head_dim)
        self.k_cache[:, start:start + t] = k.transpose(0, 1)
        self.v_cache[:, start:start + t] = v.transpose(0, 1)
        keys, values = self.k_cache[:, :start + t], self.v_cache[:, :start + t]
        scores = torch.matmul(q.transpose(0, 1), keys.transpose(1, 2)) / self.head_dim ** 0.5
        if t > 1:
            causal = torch.ones(t, start + t, dtype=torch.bool).tril(start)
            scores = scores.masked_fill(~causal, float("-inf"))
        attn = torch.matmul(torch.softmax(scores, dim=-1), values).transpose(0, 1).reshape(t, -1)
        h = x + F.linear(attn, self.wo)
        n = self.rmsnorm(h, self.mlp_norm)
        return h + F.linear(F.silu(F.linear(n, self.w_gate)) * F.linear(n, self.w_up), self.w_down)


def fused_attention(q, k, v):
    """PyTorch's fused attention with scale 1/sqrt(head dim): scaled_dot_product_attention,
    or in PyTorch 1.13 (Debian bookworm) its private predecessor, which returns
    (output, weights) and computes the weights only when asked (need_attn_weights)."""
    F = torch.nn.functional
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v)
    return F._scaled_dot_product_attention(q, k, v, need_attn_weights=False)[0]


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
    layer = LlamaLayer()
    prefill_x, decode_x = torch.rand(128, 2048), torch.rand(1, 2048)
    # bench/programs/attention_32x2048x128.mlir: softmax(Q K^T * scale) V as a user writes it
    # (the [32, 2048, 2048] scores materialised), and PyTorch's fused attention (fused_attention).
    q, k, v = (torch.rand(1, 32, 2048, 128) for _ in range(3))
    scale = 128 ** -0.5
    eager = lambda: torch.softmax(q @ k.transpose(-2, -1) * scale, dim=-1) @ v
    measurements = [
        ("exp((x+y)*z)_16M", lambda: torch.exp((x + y) * z), 15),
        ("softmax_512x4096", lambda: torch.softmax(s, dim=1), 15),
        ("matmul_1024", lambda: a @ b, 7),
        ("topk_4096x1024_k8", lambda: torch.topk(wide, 8, dim=1), 15),
        ("topk_16384x64_k2", lambda: torch.topk(narrow, 2, dim=1), 15),
        ("sort_1m", lambda: torch.sort(keys), 7),
        ("llama_layer_prefill_128", lambda: layer(prefill_x, 0), 7),
        ("llama_layer_decode", lambda: layer(decode_x, 128), 15),
        ("attention_32x2048x128_eager", eager, 5),
        ("attention_32x2048x128_sdpa", lambda: fused_attention(q, k, v), 5),
    ]
    wanted = re.compile(sys.argv[1] if len(sys.argv) > 1 else "")
    for threads in (1, 2):
        set_threads(threads)
        with torch.no_grad():
            for name, fn, repeats in measurements:
                if wanted.search(name):
                    print(f"{name} {threads} {median_ms(fn, repeats=repeats):.2f}")


def set_threads(threads):
    """torch.set_num_threads and OpenBLAS's own thread count: Debian's PyTorch runs its
    matmuls and linear layers on OpenBLAS, whose pthreads torch.set_num_threads does not
    limit (a "1-thread" linear layer ran on both cores, 193% CPU, at 340 GFLOP/s, above
    one core's FMA peak)."""
    torch.set_num_threads(threads)
    with open("/proc/self/maps") as maps:
        libraries = {line.split()[-1] for line in maps if "libopenblas" in line}
    for library in libraries:
        openblas = ctypes.CDLL(library)
        openblas.openblas_set_num_threads(ctypes.c_int(threads))
        if openblas.openblas_get_num_threads() != threads:
            sys.exit(f"could not set {library} to {threads} threads")


def without_openblas_tuning():
    """Re-executes without OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, which some machines here set
    to a slower kernel (PyTorch's linear layers run on Debian's OpenBLAS), as kiln-bench-compiled
    does for its OpenBLAS anchor; says on stderr what was unset."""
    tuning = {k: v for k, v in os.environ.items() if k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    if tuning:
        print("unset for this run: " + " ".join(f"{k}={v}" for k, v in sorted(tuning.items())), file=sys.stderr)
        env = {k: v for k, v in os.environ.items() if k not in tuning}
        os.execve(sys.executable, [sys.executable] + sys.argv, env)


if __name__ == "__main__":
    without_openblas_tuning()
    main()
