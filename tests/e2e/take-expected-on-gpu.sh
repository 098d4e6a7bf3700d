#!/usr/bin/env bash
# take-expected-on-gpu.sh OUTDIR [NAME...]: builds every end-to-end test (lockstep/ too) and example (or only
# the programs NAME...) with nvcc
# exactly as the test harness does and runs it on the GPU of this machine, writing
# OUTDIR/<name>.out (stdout) and <name>.rc (exit code), plus the data dumps of
# tests/data and the instruction tests of tests/isa. This is how the expected files were made (see tests/e2e/README.md):
# run on the lent H100 through the device tool, never on cucpu.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:?usage: take-expected-on-gpu.sh OUTDIR}
mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/DEVICE.txt"
"$nvcc" --version | tail -2 >> "$out/DEVICE.txt"
jobs_max=$(nproc)
only=" ${*:2} "
build_and_run() {  # build_and_run SOURCE NAME FLAGS...: in the background, nproc at a time
    [[ "$only" == "  " || "$only" == *" $2 "* ]] || return 0
    while (( $(jobs -rp | wc -l) >= jobs_max )); do wait -n; done
    build_and_run_now "$@" &
}
build_and_run_now() {
    local src=$1 name=$2; shift 2
    local also=$(sed -n "s|^// NVCC-ALSO: |$(dirname "$src")/|p" "$src")  # further sources
    if "$nvcc" "$@" -o "$out/bin_$name" "$src" $also > "$out/$name.build" 2>&1; then
        # a program that hangs on the GPU (a wrong guess about an async-proxy wait) must not
        # take the whole batch with it: its .rc reads 124
        timeout "${RUN_TIMEOUT:-300}" "$out/bin_$name" > "$out/$name.out" 2> "$out/$name.err"
        echo $? > "$out/$name.rc"
    else
        echo "build failed" > "$out/$name.rc"
    fi
    rm -f "$out/bin_$name"
}
for src in "$root"/examples/*.cu; do
    name=$(basename "$src" .cu)
    build_and_run "$src" "$name" $(sed -n 's|^// NVCC-FLAGS: ||p' "$src" | head -1)
done
for src in "$here"/*.cu "$here"/lockstep/*.cu "$root"/tests/isa/*.cu; do
    [[ -f "$src" ]] || continue
    name=$(basename "$src" .cu)
    build_and_run "$src" "$name" -cudart shared -arch=sm_90 $(sed -n 's|^// NVCC-FLAGS: ||p' "$src" | head -1)
done
for src in "$root"/tests/data/*.cu; do
    name=$(basename "$src" .cu)
    build_and_run "$src" "$name" -cudart shared -arch=sm_90 $(sed -n 's|^// NVCC-FLAGS: ||p' "$src" | head -1)
done
wait
