// kiln-run on the values the compiler never produces but a module may take or return
// (a module written by tests/tools/make_test_module --values): lists, null references,
// every scalar kind, and a reference kiln-run cannot print, in iree-run-module's format.
// RUN: make_test_module --values %t.kiln
//
// A list result, holding a buffer view, a list of i32 and a null reference.
// RUN: kiln-run --module=%t.kiln --function=make_list --input=7 --input=2xf32=1,2 | FileCheck %s --check-prefix=LIST
// LIST:      EXEC @make_list
// LIST-NEXT: result[0]: vm.list
// LIST-NEXT: child_list[0]: hal.buffer_view
// LIST-NEXT: 2xf32=1 2
// LIST-NEXT: child_list[1]: vm.list
// LIST-NEXT: child_list[0]: i32=7
// LIST-EMPTY:
// LIST-NEXT: child_list[2]: (null)
// (null) as a reference argument.
// RUN: kiln-run --module=%t.kiln --function=make_list --input=7 '--input=(null)' | FileCheck %s --check-prefix=NULLARG
// NULLARG: result[0]: vm.list
// NULLARG-NEXT: child_list[0]: (null)
// RUN: kiln-run --module=%t.kiln --function=is_null '--input=(null)' | FileCheck %s --check-prefix=ISNULL
// ISNULL: result[0]: i32=1
// RUN: kiln-run --module=%t.kiln --function=is_null --input=f32=1 | FileCheck %s --check-prefix=NOTNULL
// NOTNULL: result[0]: i32=0
// A list result cannot be compared with a tensor; the mismatch names both types.
// RUN: not kiln-run --module=%t.kiln --function=make_list --input=7 '--input=(null)' --expected_output=2xf32=1,2 | FileCheck %s --check-prefix=LISTCMP
// LISTCMP: [FAILED] result[0]: variant types mismatch; expected hal.buffer_view but got vm.list
// A list cannot be written to a file.
// RUN: not kiln-run --module=%t.kiln --function=make_list --input=7 '--input=(null)' --output=@%t.list.npy 2>&1 | FileCheck %s --check-prefix=LISTFILE
// LISTFILE: kiln-run: INVALID_ARGUMENT: a vm.list cannot be written to a file; only buffer views, scalars and null can
//
// A null result: printed, expected with (null), written as an empty int8 array.
// RUN: kiln-run --module=%t.kiln --function=null_result | FileCheck %s --check-prefix=NULL
// NULL: result[0]: (null)
// RUN: kiln-run --module=%t.kiln --function=null_result '--expected_output=(null)' | FileCheck %s --check-prefix=SUCCESS
// SUCCESS: [SUCCESS] all function outputs matched their expected values.
// RUN: not kiln-run --module=%t.kiln --function=null_result --expected_output=f32=1 | FileCheck %s --check-prefix=NULLCMP
// NULLCMP: [FAILED] result[0]: variant types mismatch; expected hal.buffer_view but got (null)
// RUN: kiln-run --module=%t.kiln --function=null_result --output=@%t.null.npy
// RUN: %python -c "import numpy as np; a = np.load('%t.null.npy'); print(a.dtype, a.shape)" | FileCheck %s --check-prefix=NULLNPY
// NULLNPY: int8 (0,)
//
// Scalars of every kind; (null) is zero for a scalar.
// RUN: kiln-run --module=%t.kiln --function=scalars --input=-3 --input=1099511627776 --input=0.1 --input=2.5 | FileCheck %s --check-prefix=SCALARS
// SCALARS:      result[0]: i32=-3
// SCALARS-NEXT: result[1]: i64=1099511627776
// SCALARS-NEXT: result[2]: f32=0.1
// SCALARS-NEXT: result[3]: f64=2.5
// RUN: kiln-run --module=%t.kiln --function=scalars '--input=(null)' '--input=(null)' '--input=(null)' '--input=(null)' | FileCheck %s --check-prefix=ZEROS
// ZEROS:      result[0]: i32=0
// ZEROS-NEXT: result[1]: i64=0
// ZEROS-NEXT: result[2]: f32=0
// ZEROS-NEXT: result[3]: f64=0
// RUN: kiln-run --module=%t.kiln --function=scalars --input=1 --input=2 --input=3 --input=4 --expected_output=1 --expected_output=2 --expected_output=3 --expected_output=4
// RUN: not kiln-run --module=%t.kiln --function=scalars --input=1 --input=2 --input=3 --input=4 --expected_output=1 --expected_output=5 --expected_output=3.5 --expected_output=4 | FileCheck %s --check-prefix=SCALARCMP
// SCALARCMP:      [FAILED] result[1]: i64 values differ
// SCALARCMP-NEXT:   expected: 5
// SCALARCMP-NEXT:   actual: 2
// SCALARCMP-NEXT: [FAILED] result[2]: f32 values differ
// SCALARCMP-NEXT:   expected: 3.5
// SCALARCMP-NEXT:   actual: 3
// Scalars are written as 0-d arrays of their type.
// RUN: kiln-run --module=%t.kiln --function=scalars --input=1 --input=2 --input=3 --input=4 --output=@%t.s.npy --output=+%t.s.npy --output=+%t.s.npy --output=+%t.s.npy
// RUN: %python -c "import numpy as np; f = open('%t.s.npy', 'rb'); print([(a.dtype.name, a.shape, a.item()) for a in [np.load(f) for _ in range(4)]])" | FileCheck %s --check-prefix=SCALARNPY
// SCALARNPY: ('int32', (), 1), ('int64', (), 2), ('float32', (), 3.0), ('float64', (), 4.0)
//
// A reference type without a printer.
// RUN: kiln-run --module=%t.kiln --function=bytes | FileCheck %s --check-prefix=BYTES
// BYTES:      result[0]: vm.buffer
// BYTES-NEXT: (no printer)
//
// With several functions, --function is needed and the error lists them.
// RUN: not kiln-run --module=%t.kiln 2>&1 | FileCheck %s --check-prefix=WHICH
// WHICH: kiln-run: INVALID_ARGUMENT: module 'values' exports 5 functions (make_list, is_null, null_result, scalars, bytes); choose one with --function=NAME
