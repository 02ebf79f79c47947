"""kiln.compile, kiln.load (bytes, .kiln file, .mlir file), module.functions, kiln.devices."""
import os
import tempfile
import unittest

import numpy as np

import kiln

ADD = """
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @scale(%a: tensor<?xf32>, %s: f32, %n: i32) -> (tensor<?xf32>, i32) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  %one = arith.constant 1 : i32
  %n1 = arith.addi %n, %one : i32
  return %r, %n1 : tensor<?xf32>, i32
}
"""


class CompileLoadTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bytes = kiln.compile(ADD)
        cls.module = kiln.load(cls.bytes)

    def test_compile_returns_module_bytes(self):
        self.assertIsInstance(self.bytes, bytes)
        self.assertEqual(self.bytes[4:8], b"KILN")  # the flatbuffer's file identifier

    def test_functions_have_signatures(self):
        functions = self.module.functions
        self.assertEqual(sorted(functions), ["add", "scale"])
        # the function types as compiled (the export attribute kiln.function_type)
        self.assertEqual(functions["add"].signature, "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>")
        self.assertEqual(functions["scale"].signature, "(tensor<?xf32>, f32, i32) -> (tensor<?xf32>, i32)")
        self.assertIn("add", repr(self.module))

    def test_call_by_attribute_and_by_name(self):
        a = np.arange(4, dtype=np.float32)
        b = np.full(4, 0.5, np.float32)
        np.testing.assert_array_equal(self.module.add(a, b), a + b)
        np.testing.assert_array_equal(self.module["add"](a, b), a + b)

    def test_lists_take_the_declared_element_type(self):
        np.testing.assert_array_equal(self.module.add([1, 2, 3, 4], [0.5] * 4), [1.5, 2.5, 3.5, 4.5])
        # arrays are never converted: a float64 array for a tensor<4xf32> is an error
        with self.assertRaises(kiln.KilnError):
            self.module.add(np.ones(4), np.ones(4))

    def test_scalars_and_several_results(self):
        a = np.arange(7, dtype=np.float32)
        r, n = self.module.scale(a, 2.5, 41)
        np.testing.assert_array_equal(r, a * 2.5)
        self.assertEqual(n, 42)
        self.assertIsInstance(n, int)

    def test_dynamic_shapes(self):
        for size in (0, 1, 100):
            r, _ = self.module.scale(np.ones(size, np.float32), 3.0, 0)
            self.assertEqual(r.shape, (size,))
            np.testing.assert_array_equal(r, np.full(size, 3.0, np.float32))

    def test_load_kiln_file_and_mlir_file(self):
        with tempfile.TemporaryDirectory() as d:
            kiln_path = os.path.join(d, "add.kiln")
            with open(kiln_path, "wb") as f:
                f.write(self.bytes)
            mlir_path = os.path.join(d, "add.mlir")
            with open(mlir_path, "w") as f:
                f.write(ADD)
            a = np.ones(4, np.float32)
            for source in (kiln_path, mlir_path):
                module = kiln.load(source, device="cpu-sync")
                self.assertEqual(module.device, "cpu-sync:0")
                np.testing.assert_array_equal(module.add(a, a), 2 * a)
            # compile() takes a path as well as text
            self.assertEqual(kiln.compile(mlir_path)[4:8], b"KILN")

    def test_names_of_one_device_share_it(self):
        # the device cache is keyed by this name: IREE's aliases and indices find one device
        for name in ("cpu", "local-task", "cpu:0", "local-task://", "cpu://0"):
            self.assertEqual(kiln.load(self.bytes, device=name).device, "cpu:0")
        self.assertEqual(kiln.load(self.bytes, device="local-sync").device, "cpu-sync:0")

    def test_devices(self):
        devices = kiln.devices()
        names = [d["name"] for d in devices if d["available"]]
        self.assertIn("cpu", " ".join(names))
        for d in devices:
            self.assertEqual(set(d), {"name", "driver", "description", "available"})
        hip = [d for d in devices if d["driver"] == "hip"]
        if hip and not hip[0]["available"]:
            self.assertTrue(hip[0]["description"])  # says why


if __name__ == "__main__":
    unittest.main()
