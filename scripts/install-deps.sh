#!/usr/bin/env bash
# Installs every Debian bookworm package kiln needs to build, test and benchmark.
# Idempotent: packages already present are left alone. Must run as root (or via sudo).
# The list mirrors DESIGN.md section 10; each group says who needs it.
set -euo pipefail

packages=(
  # build
  cmake ninja-build ccache g++ pkg-config git
  # compiler (MLIR/LLVM 22)
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools lld-22 liblld-22-dev
  # sanitizers and fuzzing
  clang-22 libclang-rt-22-dev
  # CPU driver
  libtbb-dev
  # HSA driver (headers only; libhsa-runtime64 is loaded at run time when present)
  libhsa-runtime-dev libhsakmt-dev
  # module format
  libflatbuffers-dev flatbuffers-compiler libzstd-dev
  # tests and benchmarks
  googletest libgtest-dev libgmock-dev libbenchmark-dev python3 python3-numpy
  # the Python package (python/, docs/python.md)
  python3-dev pybind11-dev
  # benchmark anchors (OpenBLAS and oneDNN sgemm in kiln-bench-compiled)
  libopenblas-dev libdnnl-dev
)
# --bench: also what bench/torch_anchors.py needs (large; not needed to build or test).
if [ "${1:-}" = "--bench" ]; then
  packages+=(python3-torch)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi

echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
