"""NumPy in and out: every common dtype round trips; inputs and results are not copied
where the rules say so (checked by pointer)."""
import unittest

import numpy as np

import kiln

# (NumPy dtype, MLIR type, the op that combines two tensors)
DTYPES = [
    (np.bool_, "i1", "arith.xori"),
    (np.int8, "i8", "arith.addi"), (np.uint8, "i8", "arith.addi"),
    (np.int16, "i16", "arith.addi"), (np.uint16, "i16", "arith.addi"),
    (np.int32, "i32", "arith.addi"), (np.uint32, "i32", "arith.addi"),
    (np.int64, "i64", "arith.addi"), (np.uint64, "i64", "arith.addi"),
    (np.float16, "f16", "arith.addf"), (np.float32, "f32", "arith.addf"), (np.float64, "f64", "arith.addf"),
]


def program():
    text = ""
    for t, op in dict((t, op) for _, t, op in DTYPES).items():
        text += f"""
func.func @combine_{t}(%a: tensor<2x3x{t}>, %b: tensor<2x3x{t}>) -> tensor<2x3x{t}> {{
  %r = {op} %a, %b : tensor<2x3x{t}>
  return %r : tensor<2x3x{t}>
}}"""
    text += """
func.func @identity(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}
util.global private mutable @state = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
util.func public @get_state() -> tensor<4xf32> {
  %s = util.global.load @state : tensor<4xf32>
  util.return %s : tensor<4xf32>
}
func.func @negate(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = arith.negf %a : tensor<?xf32>
  return %r : tensor<?xf32>
}
"""
    return text


def address(array):
    return array.__array_interface__["data"][0]


class ArraysTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.module = kiln.load(kiln.compile(program()))

    def test_every_dtype_round_trips(self):
        rng = np.random.default_rng(7)
        for dtype, t, _ in DTYPES:
            with self.subTest(dtype=np.dtype(dtype).name):
                if dtype is np.bool_:
                    a, b = rng.integers(0, 2, (2, 3)).astype(bool), rng.integers(0, 2, (2, 3)).astype(bool)
                    expected = a ^ b
                else:
                    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None
                    high = min(int(info.max), 1000) if info else 100
                    a = rng.integers(0, high, (2, 3)).astype(dtype)
                    b = rng.integers(0, high, (2, 3)).astype(dtype)
                    expected = (a.astype(np.float64) + b).astype(dtype) if info is None else a + b
                result = self.module[f"combine_{t}"](a, b)
                self.assertEqual(result.shape, (2, 3))
                # signless in kiln: results of unsigned inputs come back signed, same bits
                self.assertEqual(result.dtype.itemsize, np.dtype(dtype).itemsize)
                np.testing.assert_array_equal(result.view(dtype), expected)

    def test_aligned_contiguous_input_is_not_copied(self):
        a = np.arange(16, dtype=np.float32)
        result = self.module.identity(a)
        # the function returns its argument: the result maps the very memory passed in
        self.assertEqual(address(result), address(a))
        self.assertFalse(result.flags.writeable)  # imported host memory is read-only
        np.testing.assert_array_equal(result, a)

    def test_strided_or_misaligned_input_is_copied(self):
        base = np.arange(32, dtype=np.float32)
        strided = base[::2]
        result = self.module.identity(strided)
        self.assertNotEqual(address(result), address(strided))
        np.testing.assert_array_equal(result, strided)
        raw = np.zeros(4 * 8 + 1, np.uint8)
        misaligned = raw[1:].view(np.float32)
        misaligned[:] = np.arange(8)
        self.assertNotEqual(address(misaligned) % 4, 0)
        result = self.module.identity(misaligned)
        self.assertNotEqual(address(result), address(misaligned))
        np.testing.assert_array_equal(result, np.arange(8, dtype=np.float32))

    def test_devices_without_host_memory_import_copy(self):
        if not any(d["available"] and d["driver"] == "hip-sim" for d in kiln.devices()):
            self.skipTest("no hip-sim device in this build")
        import os
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "arrays.mlir")
            with open(path, "w") as f:
                f.write(program())
            module = kiln.load(path, device="hip-sim")  # compiled for the simulated GPU
        a = np.arange(16, dtype=np.float32)
        result = module.identity(a)
        self.assertNotEqual(address(result), address(a))  # GPU memory is not the array
        np.testing.assert_array_equal(result, a)
        np.testing.assert_array_equal(module.negate(a), -a)

    def test_result_is_a_view_of_the_result_buffer(self):
        a = np.arange(1000, dtype=np.float32)
        result = self.module.negate(a)
        np.testing.assert_array_equal(result, -a)
        self.assertFalse(result.flags.owndata)  # over the buffer's mapping, not a copy
        self.assertEqual(type(result.base).__name__, "PyCapsule")
        self.assertTrue(result.flags.writeable)
        self.assertTrue(result.flags.c_contiguous)
        result[0] = 5.0  # the array owns its buffer: writing is fine
        other = self.module.negate(a)  # and a new call gets a new buffer
        self.assertNotEqual(address(other), address(result))
        self.assertEqual(result[0], 5.0)

    def test_results_pass_back_in_without_a_copy(self):
        a = np.arange(64, dtype=np.float32)
        first = self.module.negate(a)
        again = self.module.identity(first)  # a result as an argument: imported in place
        self.assertEqual(address(again), address(first))
        np.testing.assert_array_equal(self.module.negate(first), a)
        read_only = np.frombuffer(a.tobytes(), np.float32)  # not writable: imported all the same
        self.assertEqual(address(self.module.identity(read_only)), address(read_only))

    def test_result_that_is_module_state_is_read_only(self):
        state = self.module.get_state()
        np.testing.assert_array_equal(state, [1, 2, 3, 4])
        self.assertFalse(state.flags.writeable)  # writing it would change the module's global
        with self.assertRaises(ValueError):
            state[0] = 9

    def test_result_outlives_module(self):
        module = kiln.load(kiln.compile(program()))
        result = module.negate(np.ones(4, np.float32))
        del module
        np.testing.assert_array_equal(result, -np.ones(4, np.float32))

    def test_input_stays_alive_while_result_uses_it(self):
        result = self.module.identity(np.arange(5, dtype=np.float32))  # the input has no other reference
        np.testing.assert_array_equal(result, np.arange(5, dtype=np.float32))

    def test_python_lists_and_scalars_convert(self):
        np.testing.assert_array_equal(self.module.negate(np.array([1.0, 2.0], np.float32)), [-1.0, -2.0])
        # a list takes the argument's element type
        result = self.module.combine_i16([[1, 2, 3], [4, 5, 6]], np.ones((2, 3), np.int16))
        self.assertEqual(result.dtype, np.int16)
        np.testing.assert_array_equal(result, [[2, 3, 4], [5, 6, 7]])


if __name__ == "__main__":
    unittest.main()
