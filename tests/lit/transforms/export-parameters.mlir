// kiln-export-parameters: immutable globals (dense and dense_resource) and function
// constants of at least minimum-size bytes move into the archive and are bound by name;
// splats, small, i1 and mutable ones stay; equal constants share one global; the archive
// lists what moved, in module order.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-opt %s -kiln-convert-util-ops '-kiln-export-parameters=archive=%t/out.irpa scope=model minimum-size=16' | FileCheck %s
// RUN: kiln-convert-parameters --list %t/out.irpa | FileCheck %s --check-prefix=LIST
// RUN: kiln-opt %s -kiln-convert-util-ops '-kiln-export-parameters=archive=%t/none.irpa minimum-size=1000' | FileCheck %s --check-prefix=NONE
// RUN: kiln-convert-parameters --list %t/none.irpa | FileCheck %s --check-prefix=NONELIST
// RUN: not kiln-opt %s -kiln-convert-util-ops '-kiln-export-parameters=archive=%t/missing/dir/x.irpa' 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: not kiln-opt %s -kiln-export-parameters 2>&1 | FileCheck %s --check-prefix=NOARCHIVE

// The new constant globals come first, before any initializer that could read them.
// CHECK:      util.global private @__constant_0 = #stream.parameter.named<"model"::"__constant_0"> : tensor<2x4xf32>
// CHECK-NEXT: util.global private @__constant_1 = #stream.parameter.named<"model"::"__constant_1"> : tensor<16xi8>
// CHECK:      util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<2x4xf32>
// CHECK:      util.global private @res = #stream.parameter.named<"model"::"res"> : tensor<4xf32>
// CHECK:      util.global private @small = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK:      util.global private @zeros = dense<0.000000e+00> : tensor<64xf32>
// CHECK:      util.global private mutable @state = dense<{{.*}}> : tensor<8xf32>
// CHECK:      util.global private @flags = dense<{{.*}}> : tensor<16xi1>
// NONE:       util.global private @w = dense<
// NONE-NOT:   parameter.named
util.global private @w = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
util.global private @res = dense_resource<blob1> : tensor<4xf32>
util.global private @small = dense<[1.0, 2.0]> : tensor<2xf32>
util.global private @zeros = dense<0.0> : tensor<64xf32>
util.global private mutable @state = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
util.global private @flags = dense<[true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false]> : tensor<16xi1>

// CHECK-LABEL: func.func @use
// CHECK-DAG:   util.global.load immutable @__constant_0 : tensor<2x4xf32>
// CHECK-DAG:   util.global.load immutable @__constant_1 : tensor<16xi8>
// CHECK-DAG:   arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK-NOT:   arith.constant dense<{{\[\[}}
util.func public @use(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<16xi8>, tensor<2xi32>) {
  %c = arith.constant dense<[[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]]> : tensor<2x4xf32>
  %a = arith.addf %x, %c : tensor<2x4xf32>
  %b = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi8>
  %s = arith.constant dense<[1, 2]> : tensor<2xi32>
  util.return %a, %c, %b, %s : tensor<2x4xf32>, tensor<2x4xf32>, tensor<16xi8>, tensor<2xi32>
}

// The same constant in a second function shares the first one's global and entry.
// CHECK-LABEL: func.func @again
// CHECK:       util.global.load immutable @__constant_0 : tensor<2x4xf32>
util.func public @again() -> tensor<2x4xf32> {
  %c = arith.constant dense<[[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]]> : tensor<2x4xf32>
  util.return %c : tensor<2x4xf32>
}

// LIST:      out.irpa: 4 parameters
// LIST-NEXT: w - - 32 data@
// LIST-NEXT: res - - 16 data@
// LIST-NEXT: __constant_0 - - 32 data@
// LIST-NEXT: __constant_1 - - 16 data@
// NONELIST:  none.irpa: 0 parameters
// UNWRITABLE: error: cannot write the parameter archive '{{.*}}missing/dir/x.irpa': UNAVAILABLE: cannot create a temporary file
// NOARCHIVE: error: kiln-export-parameters needs archive=FILE, the parameter archive to write

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
