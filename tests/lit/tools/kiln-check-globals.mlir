// kiln-check with module state and parameters: the test functions of one file share one
// session, as iree-check-module's share one context (the counter's test sees the
// initializer's value, then its own store); a global bound to a parameter reads its file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../io'); import numpy as np; from parameter_writers import write_safetensors; write_safetensors('%t/bias.safetensors', {'bias': np.zeros(4, np.float32)})"
// RUN: kiln-convert-parameters %t/bias.safetensors --splat=bias=f32=0.5 -o %t/bias.irpa
// RUN: kiln-check %s --parameters=%t/bias.irpa | FileCheck %s
// RUN: kiln-check %s --parameters=%t/bias.irpa --device=cpu-sync --parameter_mode=preload | FileCheck %s
// RUN: kiln-check %s --parameters=%t/bias.irpa --device=hip-sim | FileCheck %s
// CHECK-DAG: [  PASSED  ] initializer_ran
// CHECK-DAG: [  PASSED  ] bias_from_parameters
// CHECK: 2 passed, 0 failed
// RUN: not kiln-check %s 2>&1 | FileCheck %s --check-prefix=NOFILES
// NOFILES: no parameter files were given; pass --parameters=FILE

util.global private mutable @count : tensor<4xi32>
util.global private @bias = #stream.parameter.named<"bias"> : tensor<4xf32>

util.initializer {
  %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  util.global.store %c, @count : tensor<4xi32>
  util.return
}

util.func public @initializer_ran() {
  %c = util.global.load @count : tensor<4xi32>
  %expected = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  check.expect_eq(%c, %expected) : tensor<4xi32>
  %doubled = arith.addi %c, %c : tensor<4xi32>
  util.global.store %doubled, @count : tensor<4xi32>
  %again = util.global.load @count : tensor<4xi32>
  %expected2 = arith.constant dense<[2, 4, 6, 8]> : tensor<4xi32>
  check.expect_eq(%again, %expected2) : tensor<4xi32>
  util.return
}

util.func public @bias_from_parameters() {
  %b = util.global.load @bias : tensor<4xf32>
  %expected = arith.constant dense<0.5> : tensor<4xf32>
  check.expect_almost_eq(%b, %expected) : tensor<4xf32>
  util.return
}
