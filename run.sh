#!/usr/bin/env bash
# ./run.sh                  install what cucpu needs, build it, run the bundled examples on the CPU
# ./run.sh test             the same build, then the whole test suite
# ./run.sh PROGRAM [ARGS]   the same build, then run your own program (built with nvcc)
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >build-configure.log || { cat build-configure.log; exit 1; }
cmake --build build -j"$jobs"

case "${1:-examples}" in
examples)
    status=0
    for source in examples/*.cu; do
        name=$(basename "$source" .cu)
        echo "== $name: nvcc $source, run with cucpu"
        build/bin/cucpu run "build/examples/$name" | tee "build/examples/$name.stdout" || status=1
        if cmp -s "build/examples/$name.stdout" "tests/e2e/expected/$name.out"; then
            echo "-- identical to the output of a real GPU (tests/e2e/expected/$name.out)"
        else
            echo "-- DIFFERS from the output of a real GPU (tests/e2e/expected/$name.out)"; status=1
        fi
    done
    exit $status
    ;;
test)
    cd build && ctest --output-on-failure -j"$jobs"
    ;;
*)
    exec build/bin/cucpu run "$@"
    ;;
esac
