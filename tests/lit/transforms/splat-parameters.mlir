// kiln-splat-parameters: a zero splat as long as each parameter global's storage (i1 a
// byte an element), one entry per key across scopes; the module is unchanged. Errors: a key
// bound to two sizes, elements kiln does not store (complex), no archive.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-opt %s '-kiln-splat-parameters=archive=%t/splat.irpa' -split-input-file -verify-diagnostics | FileCheck %s
// RUN: kiln-convert-parameters --list %t/splat.irpa | FileCheck %s --check-prefix=LIST
// RUN: not kiln-opt %s -kiln-splat-parameters 2>&1 | FileCheck %s --check-prefix=NOARCHIVE

// CHECK: util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<4x3xf16>
util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<4x3xf16>
util.global private @w_again = #flow.parameter.named<"other"::"w"> : tensor<12xf16>
util.global private @mask = #stream.parameter.named<"mask"> : tensor<5xi1>
util.global private @scale = #stream.parameter.named<"model"::"scale"> : tensor<f32>
util.global private @plain = dense<1.0> : tensor<4xf32>

// LIST:      splat.irpa: 3 parameters
// LIST-NEXT: w - - 24 splat:0x00
// LIST-NEXT: mask - - 5 splat:0x00
// LIST-NEXT: scale - - 4 splat:0x00
// NOARCHIVE: error: kiln-splat-parameters needs archive=FILE, the parameter archive to write

// -----

util.global private @a = #stream.parameter.named<"model"::"w"> : tensor<4xf32>
// expected-error @+1 {{binds parameter 'w' to 32 bytes, but @a binds it to 16; one splat archive cannot serve both}}
util.global private @b = #stream.parameter.named<"other"::"w"> : tensor<8xf32>

// -----

// expected-error @+1 {{binds parameter 'c' to 'tensor<4xcomplex<f32>>': a splat archive needs integers or floats}}
util.global private @c = #stream.parameter.named<"c"> : tensor<4xcomplex<f32>>
