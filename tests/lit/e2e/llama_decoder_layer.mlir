// A Llama-style decoder layer (issue 17) against numpy: RMSNorm, Q/K/V projections, rotary
// embeddings, attention over a KV cache, the output projection, a SwiGLU MLP and residual
// adds; prefill writes positions 0..T-1 of the caches and attends causally, decode writes
// position T and attends over positions 0..T through a slice whose length is a run-time
// value. The caches start as large random values, so reading an unwritten position fails.
// The program is generated (Inputs/llama_decoder_layer.py): at reduced size here (hidden 256,
// 4 heads of 64, SwiGLU 704, cache 64, 16 tokens) on cpu, cpu-sync and hip-sim (gfx942), and
// the full-size program in bench/programs must be what the generator prints.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/llama_decoder_layer.py mlir | diff - %S/../../../bench/programs/llama_decoder_layer.mlir
// RUN: %python %S/Inputs/llama_decoder_layer.py mlir small > %t/layer.mlir
// RUN: %python %S/Inputs/llama_decoder_layer.py operands %t small
// RUN: kiln-compile %t/layer.mlir -o %t/cpu.kiln
// RUN: kiln-compile --target=gfx942 %t/layer.mlir -o %t/gfx942.kiln
// DEFINE: %{weights} = --input=@%t/attn_norm.npy --input=@%t/wq.npy --input=@%t/wk.npy --input=@%t/wv.npy --input=@%t/wo.npy --input=@%t/mlp_norm.npy --input=@%t/w_gate.npy --input=@%t/w_up.npy --input=@%t/w_down.npy --input=@%t/cos.npy --input=@%t/sin.npy
// DEFINE: %{prefill} = --function=prefill --input=@%t/x.npy %{weights} --input=@%t/k_cache.npy --input=@%t/v_cache.npy --expected_output=@%t/prefill_out.npy --expected_output=@%t/prefill_k.npy --expected_output=@%t/prefill_v.npy --atol=1e-4 --rtol=1e-4
// DEFINE: %{decode} = --function=decode --input=@%t/x1.npy %{weights} --input=@%t/prefill_k.npy --input=@%t/prefill_v.npy --input=16 --expected_output=@%t/decode_out.npy --expected_output=@%t/decode_k.npy --expected_output=@%t/decode_v.npy --atol=1e-4 --rtol=1e-4
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu %{prefill} | FileCheck %s
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu %{decode} | FileCheck %s
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync %{prefill} | FileCheck %s
// RUN: kiln-run --module=%t/cpu.kiln --device=cpu-sync %{decode} | FileCheck %s
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim %{prefill} | FileCheck %s
// RUN: kiln-run --module=%t/gfx942.kiln --device=hip-sim %{decode} | FileCheck %s
// A decode step at the wrong position (15, overwriting the last prefilled key) must not match.
// RUN: not kiln-run --module=%t/cpu.kiln --device=cpu --function=decode --input=@%t/x1.npy %{weights} --input=@%t/prefill_k.npy --input=@%t/prefill_v.npy --input=15 --expected_output=@%t/decode_out.npy --expected_output=@%t/decode_k.npy --expected_output=@%t/decode_v.npy --atol=1e-4 --rtol=1e-4 > %t/wrong.txt 2>&1
// RUN: FileCheck %s --check-prefix=WRONG < %t/wrong.txt
// CHECK: [SUCCESS] all function outputs matched their expected values.
// WRONG: [FAILED]
