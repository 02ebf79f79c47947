// --help on every tool: usage, flags with their value syntax and defaults, examples; exit
// code 0. Unknown flags still fail with one line and exit code 1.
// RUN: kiln-run --help | FileCheck %s --check-prefix=HELP
// HELP-LABEL: usage: kiln-run --module=FILE.kiln|FILE.mlir|-
// HELP: Values (--input, --expected_output):
// HELP: (null)
// HELP: Flags:
// HELP:   --device=NAME
// HELP:       (default: cpu)
// HELP:   --expected_output=VALUE
// HELP:   --atol=X
// HELP:       (default: 1e-05)
// HELP:   --output_max_element_count=N
// HELP:       (default: 1024)
// HELP:   --print_statistics
// HELP: Examples:
// HELP:   kiln-compile model.mlir | kiln-run --module=-
// RUN: kiln-check -h | FileCheck %s --check-prefix=CHECK-HELP
// CHECK-HELP: usage: kiln-check FILE.mlir|FILE.kiln
// CHECK-HELP: --function=NAME
// CHECK-HELP: Examples:
// RUN: kiln-dump --help | FileCheck %s --check-prefix=DUMP
// DUMP: usage: kiln-dump FILE.kiln
// DUMP: --extract-executables=DIR
// DUMP: Examples:
// RUN: kiln-compile --help | FileCheck %s --check-prefix=COMPILE
// COMPILE: kiln compiler: MLIR
// COMPILE: Examples:
// COMPILE: kiln-compile model.mlir | kiln-run --module=-
// COMPILE: --remarks
// COMPILE: --target=<string>
// RUN: kiln-opt --help | FileCheck %s --check-prefix=OPT
// OPT: kiln optimizer driver
//
// RUN: not kiln-run --bogus 2>&1 | FileCheck %s --check-prefix=RUNBAD
// RUNBAD: kiln-run: INVALID_ARGUMENT: unknown flag '--bogus'; see kiln-run --help for the flags
// RUN: not kiln-run --module 2>&1 | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: kiln-run: INVALID_ARGUMENT: --module needs a value: --module=FILE
// RUN: not kiln-run --atol=x 2>&1 | FileCheck %s --check-prefix=NUMBER
// NUMBER: kiln-run: INVALID_ARGUMENT: --atol='x': expected a non-negative number
// RUN: not kiln-run --list=maybe 2>&1 | FileCheck %s --check-prefix=BOOLFLAG
// BOOLFLAG: kiln-run: INVALID_ARGUMENT: --list='maybe': expected true or false
// RUN: not kiln-run 2>&1 | FileCheck %s --check-prefix=NOMODULE
// NOMODULE: kiln-run: INVALID_ARGUMENT: --module=FILE.kiln (or FILE.mlir, or - for stdin) is required; see kiln-run --help
// RUN: not kiln-check %s --bogus 2>&1 | FileCheck %s --check-prefix=CHECK-BAD
// CHECK-BAD: kiln-check: INVALID_ARGUMENT: unknown flag '--bogus'; see kiln-check --help for the flags
// RUN: not kiln-dump --bogus 2>&1 | FileCheck %s --check-prefix=DUMP-BAD
// DUMP-BAD: kiln-dump: INVALID_ARGUMENT: unknown flag '--bogus'; see kiln-dump --help for the flags
// RUN: not kiln-compile %s --bogus 2>&1 | FileCheck %s --check-prefix=COMPILE-BAD
// COMPILE-BAD: kiln-compile: Unknown command line argument '--bogus'
