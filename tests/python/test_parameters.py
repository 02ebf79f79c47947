"""A module whose globals are parameters: filled from an .irpa (kiln-convert-parameters) or
a NumPy-written safetensors file; missing files and keys are errors naming them."""
import os
import tempfile
import unittest

import numpy as np

import kiln
from support import run_tool, write_safetensors

PROGRAM = """
util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<4x3xf32>
util.global private @b = #stream.parameter.named<"model"::"b"> : tensor<3xf32>
util.global private mutable @calls = 0 : i32

util.func public @linear(%x: tensor<4xf32>) -> (tensor<3xf32>, i32) {
  %w = util.global.load @w : tensor<4x3xf32>
  %b = util.global.load @b : tensor<3xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<3xf32>) -> tensor<3xf32>
  %xw = linalg.vecmat ins(%x, %w : tensor<4xf32>, tensor<4x3xf32>) outs(%init : tensor<3xf32>) -> tensor<3xf32>
  %y = arith.addf %xw, %b : tensor<3xf32>
  %n = util.global.load @calls : i32
  %one = arith.constant 1 : i32
  %n1 = arith.addi %n, %one : i32
  util.global.store %n1, @calls : i32
  util.return %y, %n1 : tensor<3xf32>, i32
}
"""


class ParametersTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        d = cls.dir.name
        rng = np.random.default_rng(3)
        cls.w = rng.standard_normal((4, 3)).astype(np.float32)
        cls.b = rng.standard_normal(3).astype(np.float32)
        cls.safetensors = os.path.join(d, "weights.safetensors")
        write_safetensors(cls.safetensors, {"w": cls.w, "b": cls.b})
        cls.irpa = os.path.join(d, "weights.irpa")
        run_tool("kiln-convert-parameters", cls.safetensors, "-o", cls.irpa)
        cls.missing_b = os.path.join(d, "missing_b.safetensors")
        write_safetensors(cls.missing_b, {"w": cls.w})
        cls.bytes = kiln.compile(PROGRAM)
        cls.x = np.array([1.0, -2.0, 0.5, 3.0], np.float32)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def expected(self):
        return self.x @ self.w + self.b

    def test_irpa_and_safetensors(self):
        for files in ({"model": self.irpa}, {"model": self.safetensors}, {"model": [self.irpa]}):
            with self.subTest(files=files):
                module = kiln.load(self.bytes, parameters=files)
                y, n = module.linear(self.x)
                np.testing.assert_allclose(y, self.expected(), rtol=1e-6)
                self.assertEqual(n, 1)

    def test_state_is_per_load(self):
        first = kiln.load(self.bytes, parameters={"model": self.irpa})
        second = kiln.load(self.bytes, parameters={"model": self.irpa})
        self.assertEqual([first.linear(self.x)[1] for _ in range(3)], [1, 2, 3])
        self.assertEqual(second.linear(self.x)[1], 1)

    def test_missing_parameter_files(self):
        with self.assertRaises(kiln.KilnError) as raised:
            kiln.load(self.bytes)
        self.assertIn("no parameter files were given", str(raised.exception))

    def test_missing_key(self):
        with self.assertRaises(kiln.KilnError) as raised:
            kiln.load(self.bytes, parameters={"model": self.missing_b})
        self.assertIn("no parameter 'b' in scope 'model'", str(raised.exception))
        self.assertIn("missing_b.safetensors", str(raised.exception))

    def test_missing_scope_and_file(self):
        with self.assertRaises(kiln.KilnError) as raised:
            kiln.load(self.bytes, parameters={"weights": self.irpa})
        self.assertIn("no parameter scope 'model'", str(raised.exception))
        with self.assertRaises(kiln.KilnError) as raised:
            kiln.load(self.bytes, parameters={"model": os.path.join(self.dir.name, "nope.irpa")})
        self.assertIn("nope.irpa", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
