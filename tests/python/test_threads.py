"""Several Python threads calling one module (calls take turns on its session) and
modules of their own (calls run in parallel); the GIL is released during calls."""
import threading
import time
import unittest

import numpy as np

import kiln

PROGRAM = """
func.func @affine(%x: tensor<?xf32>, %a: f32, %b: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %a : f32
    %s = arith.addf %m, %b : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
"""

THREADS = 4
CALLS = 50


def hammer(module, index, failures):
    rng = np.random.default_rng(index)
    try:
        for call in range(CALLS):
            x = rng.standard_normal(int(rng.integers(1, 5000))).astype(np.float32)
            a, b = float(index + 1), float(call)
            y = module.affine(x, a, b)
            np.testing.assert_allclose(y, x * np.float32(a) + np.float32(b), rtol=1e-6, atol=1e-6)
    except Exception as e:  # reported by the main thread
        failures.append(f"thread {index}: {e!r}")


class ThreadsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bytes = kiln.compile(PROGRAM)

    def run_threads(self, modules):
        failures = []
        threads = [threading.Thread(target=hammer, args=(modules[i], i, failures)) for i in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(failures, [])

    def test_one_module_shared(self):
        module = kiln.load(self.bytes)
        self.run_threads([module] * THREADS)

    def test_a_module_per_thread(self):
        self.run_threads([kiln.load(self.bytes, device=d) for d in ("cpu", "cpu-sync", "cpu", "cpu-sync")])

    def test_calls_release_the_gil(self):
        # While one thread is inside a long call, another runs Python code.
        module = kiln.load(self.bytes)
        big = np.ones(20_000_000, np.float32)
        ticks = []
        done = threading.Event()

        def count():
            while not done.is_set():
                ticks.append(time.perf_counter())
                time.sleep(0.0005)

        counter = threading.Thread(target=count)
        counter.start()
        calls = []
        for _ in range(3):
            start = time.perf_counter()
            module.affine(big, 2.0, 1.0)
            calls.append((start, time.perf_counter()))
        done.set()
        counter.join()
        # The counter needs the GIL to take a tick: with the GIL held through a call, none
        # falls inside one (a switch between the clock reading and the call allows one).
        inside = [t for t in ticks if any(start < t < end for start, end in calls)]
        spent = sum(end - start for start, end in calls)
        self.assertGreater(len(inside), 6, f"{len(inside)} ticks in {spent:.3f} s of calls")

if __name__ == "__main__":
    unittest.main()
