#!/usr/bin/env bash
# installed_driver.sh BUILD_DIR PROGRAM EXPECTED: `cmake --install` into a fresh prefix, then
# PROGRAM (a plain nvcc build, the static runtime) run with only the installed library
# directory on the loader's path, as on a machine where cucpu is installed as the driver,
# and again through the installed `cucpu run`: both must print EXPECTED (the GPU's output).
set -euo pipefail
build=$1 program=$2 expected=$3
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" > /dev/null
libdir=$(dirname "$(find "$prefix" -name libcuda.so.1 | head -1)")
LD_LIBRARY_PATH="$libdir" "$program" > "$prefix/direct.out"
"$prefix/bin/cucpu" run "$program" > "$prefix/run.out"
diff "$expected" "$prefix/direct.out"
diff "$expected" "$prefix/run.out"
echo "installed driver ran $(basename "$program") both ways with the GPU's output"
