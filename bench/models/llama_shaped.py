"""A Llama-3-8B-shaped decoder as IREE's users' exports look: weights are immutable globals
bound to parameters (scope "model"), the KV caches mutable globals, one decode step per call.
For compile time and memory (issue 46), not for accuracy: run it with a splat archive
(kiln-compile --splat-parameters writes one).

Per layer: RMSNorm, Q/K/V projections (y = x W^T, W[out, in], f16), rotary embeddings on
Q and K (rotate-half pairs, cos/sin tables of [cache, head_dim / 2]), the new K and V row
written into the layer's caches [kv_heads, cache, head_dim] at `pos`, grouped-query
attention over positions 0..pos (each KV head serves heads / kv_heads query heads), the
output projection and a residual add, RMSNorm, a SwiGLU MLP and a residual add. Then the
final RMSNorm and the vocabulary projection: decode(token, pos) -> logits [1, vocab] f16.

Usage: llama_shaped.py [--layers N] [--small] > model.mlir
  default: 32 layers, hidden 4096, 32 query / 8 KV heads of 128, MLP 14336, vocabulary
  128256, cache 4096 (Llama-3-8B); --small: hidden 256, 4/2 heads, MLP 512, vocabulary
  1024, cache 64, for tests.
"""
import argparse
import math

LLAMA3_8B = dict(hidden=4096, heads=32, kv_heads=8, ffn=14336, vocab=128256, cache=4096)
SMALL = dict(hidden=256, heads=4, kv_heads=2, ffn=512, vocab=1024, cache=64)
EPS = 1e-5

PRELUDE = """\
#attn_q = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#attn_k = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#attn_v = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#attn_scale = affine_map<(b, m, k1, k2, n) -> ()>
#attn_out = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#id2 = affine_map<(r, c) -> (r, c)>
#row = affine_map<(r, c) -> (r)>
#col = affine_map<(r, c) -> (c)>
"""


class Model:
    def __init__(self, d, layers):
        self.d = dict(d)
        self.d["head_dim"] = d["hidden"] // d["heads"]
        self.d["half"] = self.d["head_dim"] // 2
        self.d["group"] = d["heads"] // d["kv_heads"]
        self.layers = layers
        self.globals = []
        self.lines = []
        self.count = 0

    def name(self, base):
        self.count += 1
        return f"%{base}{self.count}"

    def emit(self, text):
        self.lines.append("  " + text)

    def weight(self, key, shape):
        sym = "@" + key.replace(".", "_")
        self.globals.append(f'util.global private {sym} = #stream.parameter.named<"model"::"{key}"> : '
                            f"tensor<{shape}xf16>")
        value = self.name("w")
        self.emit(f"{value} = util.global.load {sym} : tensor<{shape}xf16>")
        return value

    def rmsnorm(self, x, key):
        D = self.d["hidden"]
        g = self.weight(key, f"{D}")
        e, f, ss, oe, out = (self.name(n) for n in ("sse", "ssf", "ss", "ne", "norm"))
        self.emit(f"{e} = tensor.empty() : tensor<1xf32>")
        self.emit(f"{f} = linalg.fill ins(%zero : f32) outs({e} : tensor<1xf32>) -> tensor<1xf32>")
        self.emit(f'{ss} = linalg.generic {{indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}}')
        self.emit(f"    ins({x} : tensor<1x{D}xf16>) outs({f} : tensor<1xf32>) {{")
        self.emit("  ^bb0(%a: f16, %acc: f32):")
        self.emit("    %w = arith.extf %a : f16 to f32")
        self.emit("    %sq = arith.mulf %w, %w : f32")
        self.emit("    %sum = arith.addf %sq, %acc : f32")
        self.emit("    linalg.yield %sum : f32")
        self.emit("  } -> tensor<1xf32>")
        self.emit(f"{oe} = tensor.empty() : tensor<1x{D}xf16>")
        self.emit(f'{out} = linalg.generic {{indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}}')
        self.emit(f"    ins({x}, {ss}, {g} : tensor<1x{D}xf16>, tensor<1xf32>, tensor<{D}xf16>) outs({oe} : tensor<1x{D}xf16>) {{")
        self.emit("  ^bb0(%a: f16, %s: f32, %g: f16, %o: f16):")
        self.emit("    %mean = arith.divf %s, %width : f32")
        self.emit("    %shifted = arith.addf %mean, %eps : f32")
        self.emit("    %root = math.rsqrt %shifted : f32")
        self.emit("    %wa = arith.extf %a : f16 to f32")
        self.emit("    %wg = arith.extf %g : f16 to f32")
        self.emit("    %scaled = arith.mulf %wa, %root : f32")
        self.emit("    %y = arith.mulf %scaled, %wg : f32")
        self.emit("    %t = arith.truncf %y : f32 to f16")
        self.emit("    linalg.yield %t : f16")
        self.emit(f"  }} -> tensor<1x{D}xf16>")
        return out

    def linear(self, x, key, n, k):
        w = self.weight(key, f"{n}x{k}")
        e, f, y = (self.name(b) for b in ("le", "lf", "lin"))
        self.emit(f"{e} = tensor.empty() : tensor<1x{n}xf16>")
        self.emit(f"{f} = linalg.fill ins(%zero16 : f16) outs({e} : tensor<1x{n}xf16>) -> tensor<1x{n}xf16>")
        self.emit(f"{y} = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, "
                  "affine_map<(m, n, k) -> (m, n)>]")
        self.emit(f"    ins({x}, {w} : tensor<1x{k}xf16>, tensor<{n}x{k}xf16>) outs({f} : tensor<1x{n}xf16>) -> tensor<1x{n}xf16>")
        return y

    def add(self, a, b):
        D = self.d["hidden"]
        e, y = self.name("re"), self.name("res")
        self.emit(f"{e} = tensor.empty() : tensor<1x{D}xf16>")
        self.emit(f"{y} = linalg.add ins({a}, {b} : tensor<1x{D}xf16>, tensor<1x{D}xf16>) outs({e} : tensor<1x{D}xf16>) "
                  f"-> tensor<1x{D}xf16>")
        return y

    def rope(self, x, heads):
        """x[1, heads * head_dim] rotated at position pos; the result is [heads, 1, head_dim]."""
        half, hd = self.d["half"], self.d["head_dim"]
        x4, e, r, y = (self.name(b) for b in ("x4", "rope", "rot", "roped"))
        self.emit(f"{x4} = tensor.expand_shape {x} [[0], [1, 2, 3]] output_shape [1, {heads}, 2, {half}] "
                  f": tensor<1x{heads * hd}xf16> into tensor<1x{heads}x2x{half}xf16>")
        self.emit(f"{e} = tensor.empty() : tensor<{heads}x1x2x{half}xf16>")
        self.emit(f"{r} = linalg.generic {{indexing_maps = [affine_map<(t, h, s, j) -> (t, h, 0, j)>, "
                  "affine_map<(t, h, s, j) -> (t, h, 1, j)>, affine_map<(t, h, s, j) -> (t, j)>, "
                  "affine_map<(t, h, s, j) -> (t, j)>, affine_map<(t, h, s, j) -> (h, t, s, j)>], "
                  'iterator_types = ["parallel", "parallel", "parallel", "parallel"]}')
        self.emit(f"    ins({x4}, {x4}, %cos_row, %sin_row : tensor<1x{heads}x2x{half}xf16>, tensor<1x{heads}x2x{half}xf16>, "
                  f"tensor<1x{half}xf16>, tensor<1x{half}xf16>) outs({e} : tensor<{heads}x1x2x{half}xf16>) {{")
        self.emit("  ^bb0(%first: f16, %second: f16, %c: f16, %s: f16, %o: f16):")
        self.emit("    %which = linalg.index 2 : index")
        self.emit("    %is_first = arith.cmpi eq, %which, %c0 : index")
        self.emit("    %fc = arith.mulf %first, %c : f16")
        self.emit("    %ss = arith.mulf %second, %s : f16")
        self.emit("    %lo = arith.subf %fc, %ss : f16")
        self.emit("    %sc = arith.mulf %second, %c : f16")
        self.emit("    %fs = arith.mulf %first, %s : f16")
        self.emit("    %hi = arith.addf %sc, %fs : f16")
        self.emit("    %v = arith.select %is_first, %lo, %hi : f16")
        self.emit("    linalg.yield %v : f16")
        self.emit(f"  }} -> tensor<{heads}x1x2x{half}xf16>")
        self.emit(f"{y} = tensor.collapse_shape {r} [[0], [1], [2, 3]] : tensor<{heads}x1x2x{half}xf16> "
                  f"into tensor<{heads}x1x{hd}xf16>")
        return y

    def cache_append(self, layer, which, row):
        """Writes row[kv_heads, 1, head_dim] at pos of the layer's cache; returns the cache."""
        d = self.d
        cache = f"tensor<{d['kv_heads']}x{d['cache']}x{d['head_dim']}xf16>"
        sym = f"@{which}_cache_{layer}"
        old, new = self.name(which + "c"), self.name(which + "n")
        self.emit(f"{old} = util.global.load {sym} : {cache}")
        self.emit(f"{new} = tensor.insert_slice {row} into {old}[0, %pos, 0] [{d['kv_heads']}, 1, {d['head_dim']}] "
                  f"[1, 1, 1] : tensor<{d['kv_heads']}x1x{d['head_dim']}xf16> into {cache}")
        self.emit(f"util.global.store {new}, {sym} : {cache}")
        return new

    def attention(self, q_rot, k_cache, v_cache):
        """Grouped-query attention of q[heads, 1, hd] over cache positions 0..pos."""
        d = self.d
        KV, G, hd, C = d["kv_heads"], d["group"], d["head_dim"], d["cache"]
        cache = f"tensor<{KV}x{C}x{hd}xf16>"
        qg, ks, vs, e, o, y = (self.name(b) for b in ("qg", "ks", "vs", "ae", "att", "attn"))
        self.emit(f"{qg} = tensor.collapse_shape {q_rot} [[0, 1], [2]] : tensor<{d['heads']}x1x{hd}xf16> "
                  f"into tensor<{d['heads']}x{hd}xf16>")
        qgrp = self.name("qgrp")
        self.emit(f"{qgrp} = tensor.expand_shape {qg} [[0, 1], [2]] output_shape [{KV}, {G}, {hd}] "
                  f": tensor<{d['heads']}x{hd}xf16> into tensor<{KV}x{G}x{hd}xf16>")
        self.emit(f"{ks} = tensor.extract_slice {k_cache}[0, 0, 0] [{KV}, %filled, {hd}] [1, 1, 1] : {cache} "
                  f"to tensor<{KV}x?x{hd}xf16>")
        self.emit(f"{vs} = tensor.extract_slice {v_cache}[0, 0, 0] [{KV}, %filled, {hd}] [1, 1, 1] : {cache} "
                  f"to tensor<{KV}x?x{hd}xf16>")
        self.emit(f"{e} = tensor.empty() : tensor<{KV}x{G}x{hd}xf16>")
        self.emit(f"{o} = iree_linalg_ext.attention {{indexing_maps = [#attn_q, #attn_k, #attn_v, #attn_scale, #attn_out]}}")
        self.emit(f"    ins({qgrp}, {ks}, {vs}, %scale : tensor<{KV}x{G}x{hd}xf16>, tensor<{KV}x?x{hd}xf16>, "
                  f"tensor<{KV}x?x{hd}xf16>, f16) outs({e} : tensor<{KV}x{G}x{hd}xf16>) {{")
        self.emit("  ^bb0(%score: f32):")
        self.emit("    iree_linalg_ext.yield %score : f32")
        self.emit(f"  }} -> tensor<{KV}x{G}x{hd}xf16>")
        self.emit(f"{y} = tensor.collapse_shape {o} [[0, 1, 2]] : tensor<{KV}x{G}x{hd}xf16> into tensor<{d['hidden']}xf16>")
        y2 = self.name("attn2")
        self.emit(f"{y2} = tensor.expand_shape {y} [[0, 1]] output_shape [1, {d['hidden']}] : tensor<{d['hidden']}xf16> "
                  f"into tensor<1x{d['hidden']}xf16>")
        return y2

    def swiglu(self, x, prefix):
        d = self.d
        F, D = d["ffn"], d["hidden"]
        gate = self.linear(x, prefix + "ffn_gate.weight", F, D)
        up = self.linear(x, prefix + "ffn_up.weight", F, D)
        e, h = self.name("ge"), self.name("swiglu")
        self.emit(f"{e} = tensor.empty() : tensor<1x{F}xf16>")
        self.emit(f'{h} = linalg.generic {{indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}}')
        self.emit(f"    ins({gate}, {up} : tensor<1x{F}xf16>, tensor<1x{F}xf16>) outs({e} : tensor<1x{F}xf16>) {{")
        self.emit("  ^bb0(%g: f16, %u: f16, %o: f16):")
        self.emit("    %wg = arith.extf %g : f16 to f32")
        self.emit("    %neg = arith.negf %wg : f32")
        self.emit("    %exp = math.exp %neg : f32")
        self.emit("    %den = arith.addf %exp, %one : f32")
        self.emit("    %silu = arith.divf %wg, %den : f32")
        self.emit("    %wu = arith.extf %u : f16 to f32")
        self.emit("    %y = arith.mulf %silu, %wu : f32")
        self.emit("    %t = arith.truncf %y : f32 to f16")
        self.emit("    linalg.yield %t : f16")
        self.emit(f"  }} -> tensor<1x{F}xf16>")
        return self.linear(h, prefix + "ffn_down.weight", D, F)

    def layer(self, i, x):
        d = self.d
        D, KV, hd = d["hidden"], d["kv_heads"], d["head_dim"]
        p = f"blk.{i}."
        n = self.rmsnorm(x, p + "attn_norm.weight")
        q = self.linear(n, p + "attn_q.weight", D, D)
        k = self.linear(n, p + "attn_k.weight", KV * hd, D)
        v = self.linear(n, p + "attn_v.weight", KV * hd, D)
        q_rot = self.rope(q, d["heads"])
        k_rot = self.rope(k, KV)
        vr = self.name("vrow")
        self.emit(f"{vr} = tensor.expand_shape {v} [[0], [1, 2]] output_shape [1, {KV}, {hd}] "
                  f": tensor<1x{KV * hd}xf16> into tensor<1x{KV}x{hd}xf16>")
        vh = self.name("vheads")
        self.emit(f"{vh} = tensor.collapse_shape {vr} [[0, 1], [2]] : tensor<1x{KV}x{hd}xf16> into tensor<{KV}x{hd}xf16>")
        vh3 = self.name("vh3")
        self.emit(f"{vh3} = tensor.expand_shape {vh} [[0, 1], [2]] output_shape [{KV}, 1, {hd}] "
                  f": tensor<{KV}x{hd}xf16> into tensor<{KV}x1x{hd}xf16>")
        kc = self.cache_append(i, "k", k_rot)
        vc = self.cache_append(i, "v", vh3)
        attn = self.attention(q_rot, kc, vc)
        h = self.add(x, self.linear(attn, p + "attn_output.weight", D, D))
        n2 = self.rmsnorm(h, p + "ffn_norm.weight")
        return self.add(h, self.swiglu(n2, p))

    def program(self):
        d = self.d
        D, V, C, half = d["hidden"], d["vocab"], d["cache"], d["half"]
        self.emit("%zero = arith.constant 0.0 : f32")
        self.emit("%zero16 = arith.constant 0.0 : f16")
        self.emit("%one = arith.constant 1.0 : f32")
        self.emit(f"%width = arith.constant {float(D)!r} : f32")
        self.emit(f"%eps = arith.constant {EPS:.6e} : f32")
        self.emit(f"%scale = arith.constant {1 / math.sqrt(d['head_dim']):.6f} : f16")
        self.emit("%c0 = arith.constant 0 : index")
        self.emit("%c1 = arith.constant 1 : index")
        self.emit("%filled = arith.addi %pos, %c1 : index")
        emb = self.weight("token_embd.weight", f"{V}x{D}")
        self.emit(f"%x0 = tensor.extract_slice {emb}[%token, 0] [1, {D}] [1, 1] : tensor<{V}x{D}xf16> to tensor<1x{D}xf16>")
        cos = self.weight("rope.cos", f"{C}x{half}")
        sin = self.weight("rope.sin", f"{C}x{half}")
        self.emit(f"%cos_row = tensor.extract_slice {cos}[%pos, 0] [1, {half}] [1, 1] : tensor<{C}x{half}xf16> "
                  f"to tensor<1x{half}xf16>")
        self.emit(f"%sin_row = tensor.extract_slice {sin}[%pos, 0] [1, {half}] [1, 1] : tensor<{C}x{half}xf16> "
                  f"to tensor<1x{half}xf16>")
        x = "%x0"
        for i in range(self.layers):
            x = self.layer(i, x)
        n = self.rmsnorm(x, "output_norm.weight")
        logits = self.linear(n, "output.weight", V, D)
        self.emit(f"util.return {logits} : tensor<1x{V}xf16>")
        cache = f"tensor<{d['kv_heads']}x{C}x{d['head_dim']}xf16>"
        caches = [f"util.global private mutable @{w}_cache_{i} = #util.uninitialized : {cache}"
                  for i in range(self.layers) for w in ("k", "v")]
        header = (f"// A Llama-3-8B-shaped decoder, {self.layers} layers: hidden {D}, {d['heads']} query / "
                  f"{d['kv_heads']} KV heads of {d['head_dim']}, MLP {d['ffn']}, vocabulary {V}, cache {C}.\n"
                  "// Generated by bench/models/llama_shaped.py (edit that, not this file).\n")
        return (header + PRELUDE + "\n".join(self.globals) + "\n" + "\n".join(caches) + "\n\n"
                f"util.func public @decode(%token: index, %pos: index) -> tensor<1x{V}xf16> {{\n"
                + "\n".join(self.lines) + "\n}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=32)
    parser.add_argument("--small", action="store_true")
    args = parser.parse_args()
    print(Model(SMALL if args.small else LLAMA3_8B, args.layers).program(), end="")


if __name__ == "__main__":
    main()
