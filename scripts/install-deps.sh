#!/usr/bin/env bash
# Installs what cucpu needs to build and test, from Debian's packages.
# Called by the README's first command and by .ci/run; safe to run again.
set -euo pipefail
packages=(cmake g++ make python3 python3-venv binutils llvm-19-dev libzstd-dev libboost-context-dev
          libgtest-dev libfmt-dev libcli11-dev
          libopenblas-dev liblapacke-dev  # cuBLAS, cuSOLVER: OpenBLAS (BSD) and its LAPACK
          libfftw3-dev  # cuFFT, cuFFTW: FFTW 3 (GPL-2+, linked by those two libraries only)
          libeigen3-dev libmetis-dev)  # cusolverSp: Eigen 3 (MPL-2.0, header-only) and METIS (Apache-2.0)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo=""; [[ $(id -u) -ne 0 ]] && sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
# nvcc compiles the examples and end-to-end tests; cucpu itself never needs a GPU.
if ! [[ -x /usr/local/cuda/bin/nvcc ]] && ! command -v nvcc >/dev/null; then
    echo "install-deps: nvcc not found: install the CUDA 13 toolkit (/usr/local/cuda)" >&2
    exit 1
fi
