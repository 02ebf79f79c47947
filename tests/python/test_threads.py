"""Several Python threads calling one module (calls take turns on its session) and
modules of their own (calls run in parallel); the GIL is released during calls."""
import os
import subprocess
import sys
import textwrap
import threading
import time
import unittest

import numpy as np

import kiln

from test_compile_load import ADD as PROGRAM  # scale(x, s, n) -> (x * s, n + 1)

THREADS = 4
CALLS = 50


def hammer(module, index, failures):
    rng = np.random.default_rng(index)
    try:
        for call in range(CALLS):
            x = rng.standard_normal(int(rng.integers(1, 5000))).astype(np.float32)
            s = float(index + 1) + call / 64
            y, n = module.scale(x, s, call)
            np.testing.assert_array_equal(y, x * np.float32(s))
            if n != call + 1:
                raise AssertionError(f"scale returned {n} for {call}")
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

    def test_exit_while_a_daemon_thread_calls(self):
        # The interpreter ends a daemon thread as it takes the GIL back after its call: the
        # process must exit cleanly (it aborted with std::terminate through
        # py::gil_scoped_release's noexcept destructor).
        script = textwrap.dedent("""
            import threading, time, numpy as np, kiln
            from test_compile_load import ADD
            module = kiln.load(kiln.compile(ADD))
            big = np.ones(5_000_000, np.float32)
            def loop():
                while True:
                    module.scale(big, 2.0, 0)
            threading.Thread(target=loop, daemon=True).start()
            time.sleep(0.3)
            print("exiting")
            """)
        for _ in range(3):
            done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                                  cwd=os.path.dirname(os.path.abspath(__file__)))
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("exiting", done.stdout)

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
            module.scale(big, 2.0, 0)
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
