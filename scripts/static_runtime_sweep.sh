#!/usr/bin/env bash
# static_runtime_sweep.sh CUCPU [OUTDIR]: builds every GPU-compared program of tests/e2e (those
# with an expected output) and of ../shared/conformance with nvcc's default static runtime
# instead of -cudart shared, runs each under `CUCPU run` and compares its stdout with the GPU's
# (conformance programs in their asserted lines, as their ctest does). A statically linked
# runtime reaches everything through libcuda.so.1, so this shows which driver entry points a
# program needs that cucpu's driver lacks. Prints one line per program: NAME same|DIFF|BUILDFAIL.
set -u
cucpu=$(realpath "${1:?usage: static_runtime_sweep.sh CUCPU [OUTDIR]}")
out=${2:-${TMPDIR:-/tmp}/cucpu-static-sweep}
root=$(cd "$(dirname "$0")/.." && pwd)
conformance=$root/../shared/conformance
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$out"
build() {  # build SOURCE FLAGS...
    local src=$1 name; name=$(basename "$1" .cu); shift
    local also; also=$(sed -n "s|^// NVCC-ALSO: |$(dirname "$src")/|p" "$src")
    [[ -x $out/$name ]] || "$nvcc" -I"$(dirname "$src")" "$@" -o "$out/$name" "$src" $also > "$out/$name.build" 2>&1 ||
        { echo "$name BUILDFAIL"; return 1; }
}
compare() {  # compare NAME EXPECTED [asserted]
    (cd "$out" && timeout 300 "$cucpu" run "./$1" > "$1.out" 2> "$1.err")
    if cmp -s "$out/$1.out" "$2"; then echo "$1 same"
    elif [[ ${3:-} == asserted ]] && bash "$root/tests/conformance/compare_asserted_lines.sh" "$out/$1.out" "$2" > /dev/null; then
        echo "$1 same"
    else echo "$1 DIFF"; fi
}
for src in "$root"/tests/e2e/*.cu; do
    name=$(basename "$src" .cu)
    [[ -f $root/tests/e2e/expected/$name.out ]] || continue
    flags=$(sed -n 's|^// NVCC-FLAGS: ||p' "$src" | sed 's/-cudart static//')
    build "$src" -arch=sm_90 $flags && compare "$name" "$root/tests/e2e/expected/$name.out"
done
if [[ -d $conformance ]]; then
    for src in "$conformance"/*.cu; do
        name=$(basename "$src" .cu)
        flags=$(grep "^$name.cu " "$conformance/BUILD.txt" | cut -d' ' -f2- | sed 's/-cudart shared//')
        build "$src" $flags && compare "$name" "$conformance/expected/$name.out" asserted
    done
else
    echo "conformance: $conformance not found, its programs are skipped"
fi
