// A Llama-3-shaped decoder (bench/models/llama_shaped.py, reduced sizes) whose weights are
// parameters: the layers' identical dispatches are compiled once (8 layers form as many
// dispatch functions as 2), the splat archive kiln-compile writes runs it without weights
// (zero weights: zero logits), on cpu and hip-sim.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../../bench/models/llama_shaped.py --small --layers 2 > %t/l2.mlir
// RUN: %python %S/../../../bench/models/llama_shaped.py --small --layers 8 > %t/l8.mlir
// RUN: kiln-compile %t/l2.mlir --dump-dispatches=%t/d2 -o %t/l2.kiln
// RUN: kiln-compile %t/l8.mlir --dump-dispatches=%t/d8 --splat-parameters=%t/splat.irpa -o %t/l8.kiln
// RUN: ls %t/d2 | wc -l > %t/n2 && ls %t/d8 | wc -l > %t/n8 && diff %t/n2 %t/n8
// RUN: kiln-convert-parameters --list %t/splat.irpa | FileCheck %s
// CHECK:     splat.irpa: 77 parameters
// CHECK:     blk.7.ffn_down.weight - - 262144 splat:0x00
// RUN: kiln-run --module=%t/l8.kiln --parameters=model=%t/splat.irpa --function=decode --input=index=3 --input=index=0 --expected_output=1x1024xf16=0
// RUN: kiln-compile --target=gfx942 %t/l8.mlir -o %t/l8.gpu.kiln
// RUN: kiln-run --module=%t/l8.gpu.kiln --device=hip-sim --parameters=model=%t/splat.irpa --function=decode --input=index=5 --input=index=1 --expected_output=1x1024xf16=0
