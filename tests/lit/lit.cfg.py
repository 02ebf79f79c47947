# lit configuration for kiln's compiler tests (FileCheck, -verify-diagnostics).
# Run through ctest (label lit) or directly: lit-22 -sv build/tests/lit
import os

import lit.formats

config.name = "kiln"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kiln_build_dir, "tests", "lit")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]

# kiln's tools first, then LLVM 22's FileCheck and not.
config.environment["PATH"] = os.pathsep.join(
    [config.kiln_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])

# hip-sim's mode (docs/hip-sim-executor.md): KILN_HSA_SIM_MODE=code-object lit-22 ... runs the
# hip-sim RUN lines on the code-object executor instead of the host twins.
if "KILN_HSA_SIM_MODE" in os.environ:
    config.environment["KILN_HSA_SIM_MODE"] = os.environ["KILN_HSA_SIM_MODE"]

# hip-sim built with its code-object executor (KILN_HSA_SIM_MODE=code-object works), for tests
# of what it counts.
if getattr(config, "kiln_hsa_sim_has_executor", "OFF") == "ON":
    config.available_features.add("hip-sim-code-object")

# The Python running lit (Debian's, with NumPy from scripts/install-deps.sh), for tests that
# check .npy files against NumPy itself.
import sys
config.substitutions.append(("%python", sys.executable))

# Tests of what kiln says on a machine without an AMD GPU (no amdgpu kernel driver).
if not os.path.exists("/dev/kfd"):
    config.available_features.add("no-amd-gpu")

# The host CPU's AVX-512 and AMX flags (/proc/cpuinfo), for tests that run code compiled
# for another CPU (--target-cpu) and so need its instructions here: cpu-avx512f,
# cpu-avx512_vnni, cpu-avx512_bf16, cpu-avx512_fp16, cpu-amx_bf16, cpu-amx_int8.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        cpu_flags = next((line.split(":", 1)[1].split() for line in cpuinfo if line.startswith("flags")), [])
except OSError:
    cpu_flags = []
for flag in ("avx512f", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_bf16", "amx_int8"):
    if flag in cpu_flags:
        config.available_features.add("cpu-" + flag)
