#!/usr/bin/env bash
# run_python_clients.sh CUCPU [VENV]: Python's CUDA clients on cucpu. Makes (or reuses) a
# virtual environment with numba-cuda from PyPI (and cupy-cuda13x when CUPY=1), then runs
# numba_add.py (and cupy_kernels.py) under `cucpu run`. With NUMBA_SUITE=1 it also runs
# Numba's own CUDA test suite (numba.cuda.tests) and prints its summary line.
# Exit 77 (skipped) when the packages cannot be installed (no network).
set -uo pipefail
cucpu=$1
venv=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/cucpu-python-clients}
here=$(cd "$(dirname "$0")" && pwd)
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0  # small test grids are the point here
if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv" || exit 77
fi
"$venv/bin/python" -c "import numba.cuda" 2>/dev/null || "$venv/bin/pip" install -q numba-cuda || exit 77
status=0
"$cucpu" run "$venv/bin/python" "$here/numba_add.py" || status=1
if [[ "${CUPY:-0}" == 1 ]]; then
    "$venv/bin/python" -c "import cupy" 2>/dev/null || "$venv/bin/pip" install -q cupy-cuda13x || exit 77
    "$cucpu" run "$venv/bin/python" "$here/cupy_kernels.py" || status=1
fi
if [[ "${NUMBA_SUITE:-0}" == 1 ]]; then
    "$cucpu" run "$venv/bin/python" -m numba.runtests -m "$(nproc)" numba.cuda.tests 2>&1 | tail -5
fi
exit $status
