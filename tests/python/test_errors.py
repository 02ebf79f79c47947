"""Errors are kiln.KilnError with kiln's status code and context chain; none crashes."""
import os
import tempfile
import unittest

import numpy as np

import kiln

PROGRAM = """
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @count(%n: i32) -> i32 {
  %one = arith.constant 1 : i32
  %r = arith.addi %n, %one : i32
  return %r : i32
}
"""


class ErrorsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bytes = kiln.compile(PROGRAM)
        cls.module = kiln.load(cls.bytes)
        cls.x = np.ones(4, np.float32)

    def assertKilnError(self, code, *fragments):
        """A context manager: the block raises KilnError with `code` and every fragment."""
        test = self

        class Check:
            def __enter__(self):
                return self

            def __exit__(self, kind, error, traceback):
                test.assertIsNotNone(kind, "no exception raised")
                test.assertTrue(issubclass(kind, kiln.KilnError), f"{kind.__name__}: {error}")
                test.assertEqual(error.code, code, str(error))
                for fragment in fragments:
                    test.assertIn(fragment, str(error))
                return True

        return Check()

    def test_kiln_error_is_a_runtime_error(self):
        self.assertTrue(issubclass(kiln.KilnError, RuntimeError))

    def test_bad_shape(self):
        with self.assertKilnError("INVALID_ARGUMENT", "expected a buffer view of 4xf32, got 3xf32",
                                  "while calling 'add'"):
            self.module.add(np.ones(3, np.float32), self.x)

    def test_wrong_dtype(self):
        with self.assertKilnError("INVALID_ARGUMENT", "expected a buffer view of 4xf32, got 4xi32"):
            self.module.add(np.ones(4, np.int32), self.x)

    def test_dtype_kiln_has_no_type_for(self):
        with self.assertKilnError("INVALID_ARGUMENT", "argument 1 of 'add'", "dtype <U1"):
            self.module.add(self.x, np.array(["a", "b", "c", "d"]))
        with self.assertKilnError("INVALID_ARGUMENT", "argument 0 of 'add'", "object"):
            self.module.add(np.array([object()] * 4), self.x)

    def test_big_endian_input(self):
        with self.assertKilnError("INVALID_ARGUMENT", "big-endian"):
            self.module.add(self.x.astype(">f4"), self.x)

    def test_argument_count_and_kind(self):
        with self.assertKilnError("INVALID_ARGUMENT", "'add' takes 2 arguments (tensor, tensor), got 1"):
            self.module.add(self.x)
        with self.assertKilnError("INVALID_ARGUMENT", "argument 0 of 'count' is a i32 scalar"):
            self.module.count("seven")
        with self.assertKilnError("INVALID_ARGUMENT", "argument 0 of 'count' is a i32 scalar"):
            self.module.count(1.5)
        with self.assertKilnError("OUT_OF_RANGE", "does not fit"):
            self.module.count(2**40)
        self.assertEqual(self.module.count(41), 42)

    def test_unknown_function(self):
        with self.assertKilnError("NOT_FOUND", "nope"):
            self.module["nope"]
        with self.assertRaises(AttributeError) as raised:
            self.module.nope
        self.assertIn("add, count", str(raised.exception))

    def test_bad_module_bytes(self):
        with self.assertKilnError("INVALID_ARGUMENT"):
            kiln.load(b"not a module at all")
        with self.assertRaises(kiln.KilnError):
            kiln.load(self.bytes[: len(self.bytes) // 2])
        with self.assertRaises(kiln.KilnError):
            kiln.load(b"")

    def test_missing_file(self):
        with self.assertRaises(kiln.KilnError) as raised:
            kiln.load("/nonexistent/model.kiln")
        self.assertIn("/nonexistent/model.kiln", str(raised.exception))

    def test_unknown_device(self):
        with self.assertKilnError("NOT_FOUND", "while creating device 'tpu'"):
            kiln.load(self.bytes, device="tpu")

    def test_compile_diagnostics(self):
        with self.assertKilnError("INVALID_ARGUMENT", "source.mlir:2:", "error"):
            kiln.compile("func.func @f() {\n  %x = arith.constant 1 : nonsense\n}")
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(kiln.KilnError) as raised:
                kiln.compile(os.path.join(d, "missing.mlir"))
            self.assertIn("missing.mlir", str(raised.exception))
        with self.assertRaises(TypeError):
            kiln.compile(42)

    def test_random_arguments_fail_cleanly(self):
        # Not a fuzzer (that is for later): a few hundred random dtypes, shapes and layouts,
        # each either the right answer or a KilnError, never a crash or another exception.
        rng = np.random.default_rng(11)
        dtypes = [np.float32, np.float64, np.float16, np.int32, np.int8, np.uint64, np.bool_, np.complex64]
        right = 0
        for _ in range(300):
            dtype = dtypes[rng.integers(len(dtypes))]
            shape = tuple(int(d) for d in rng.integers(0, 6, rng.integers(0, 3)))
            a = np.zeros(shape + (2,), dtype)[..., 0] if rng.integers(2) else np.zeros(shape, dtype)
            try:
                result = self.module.add(a, self.x)
            except kiln.KilnError as e:
                self.assertEqual(e.code, "INVALID_ARGUMENT", str(e))
                continue
            right += 1
            np.testing.assert_array_equal(result, self.x)
        self.assertGreater(right, 0)

    def test_errors_leave_the_module_usable(self):
        for _ in range(3):
            with self.assertRaises(kiln.KilnError):
                self.module.add(np.ones(5, np.float32), self.x)
        np.testing.assert_array_equal(self.module.add(self.x, self.x), 2 * self.x)


if __name__ == "__main__":
    unittest.main()
