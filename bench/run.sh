#!/usr/bin/env bash
# bench/run.sh: cucpu against hand-written OpenMP, workload by workload, on this machine.
# Builds every bench/NAME.cu (nvcc -O3 -cudart shared -arch=sm_90) and its OpenMP twin
# bench/NAME.cpp (g++ -O3 -march=native -fopenmp -ffp-contract=fast), runs them side by
# side and prints a markdown table: the median of 5 timed runs after one warm-up, kernel
# time only (see bench/common.h), with the machine above it.
#
#   bench/run.sh [--quick] [--strategies auto,fibers,...] [--cucpu PATH] [--timeout SECONDS]
#                [--only NAME,...] [--build-dir DIR] [--repeat N]
#
#   --quick          small sizes: the whole table in well under a minute
#   --strategies L   one more cucpu column per value, run with CUCPU_BLOCK_STRATEGY=value
#                    (passed through as given; the plain cucpu column leaves it unset)
#   --cucpu PATH     the cucpu to run (default $CUCPU_BIN, else build/bin/cucpu of this checkout)
#   --timeout S      cap on each program run (default $BENCH_TIMEOUT, else 300 s): "timeout"
#                    in the table instead of a hang
#   --only L         just these workloads (names as in bench/: reduce,sgemm,...)
#   --build-dir DIR  where the programs are built (default build/bench-run of this checkout)
#   --repeat N       run each workload's programs N times, taking turns (OpenMP, cucpu, OpenMP,
#                    ...), and report the median of the N runs' medians (default 3): one
#                    process's figure can be off by 2x on a shared machine, the next one's not
#
# The table goes to stdout and DIR/results.md, every program's output to DIR/log.txt.
# Exits 1 when a program failed its result check or crashed (a timeout is not a failure).
set -euo pipefail

bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
checkout=$(dirname "$bench_dir")

quick=0
strategies=()
cucpu=${CUCPU_BIN:-$checkout/build/bin/cucpu}
cap=${BENCH_TIMEOUT:-300}
only=""
build_dir=$checkout/build/bench-run
repeat=3

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
    case $1 in
        --quick) quick=1 ;;
        --strategies) IFS=, read -ra strategies <<<"${2:?--strategies needs a list}"; shift ;;
        --cucpu) cucpu=${2:?--cucpu needs a path}; shift ;;
        --timeout) cap=${2:?--timeout needs seconds}; shift ;;
        --only) only=${2:?--only needs a list}; shift ;;
        --build-dir) build_dir=${2:?--build-dir needs a folder}; shift ;;
        --repeat) repeat=${2:?--repeat needs a count}; shift ;;
        -h|--help) usage ;;
        *) echo "bench/run.sh: unknown argument $1" >&2; usage ;;
    esac
    shift
done
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "bench/run.sh: --repeat needs a positive count" >&2; exit 2; }
[[ -x $cucpu ]] || { echo "bench/run.sh: no cucpu at $cucpu (build it, or pass --cucpu PATH)" >&2; exit 2; }
cucpu=$(cd "$(dirname "$cucpu")" && pwd)/$(basename "$cucpu")

# The workloads in table order: name, full size, quick size. The sizes are the programs'
# SIZE argument (what it counts is each program's own; the labels below say it).
workloads=(
    "saxpy          33554432  1048576"
    "reduce         33554432  262144"
    "sgemm          1024      256"
    "shfl_reduce    33554432  262144"
    "scan           33554432  262144"
    "histogram      33554432  1048576"
    "transpose      4096      1024"
    "stencil        4096      1024"
    "nbody          16384     2048"
    "softmax        32768     1024"
    "cg_dot         33554432  262144"
    "launch_latency 20000     1000"
    "jit_startup    65536     65536"
    "cublas_sgemm   4096      512"
    "cublas_sgemm_batched 65536 4096"
)

# A size as a power of two where it is one.
pretty() {
    local n=$1 k=0
    while ((n > 1 && n % 2 == 0)); do ((n /= 2, ++k)); done
    if ((n == 1 && k >= 10)); then echo "2^$k"; else echo "$1"; fi
}

# The table's label for a result line (BENCH name=...) at a size.
label() {
    local name=$1 size=$2
    case $name in
        saxpy) echo "saxpy, $(pretty "$size") floats" ;;
        reduce) echo "reduce (shared-memory tree), $(pretty "$size") floats" ;;
        sgemm) echo "sgemm ${size}³, 16x16 shared tiles" ;;
        shfl_reduce) echo "shfl_reduce (warp shuffles), $(pretty "$size") floats" ;;
        scan) echo "scan (inclusive, Hillis-Steele), $(pretty "$size") uints" ;;
        histogram) echo "histogram (shared atomics), $(pretty "$size") bytes" ;;
        transpose) echo "transpose ${size}², 32x33 tile" ;;
        stencil) echo "stencil 5-point ${size}², shared halo" ;;
        nbody) echo "nbody, $size bodies" ;;
        softmax) echo "softmax (warp shuffles), ${size}x1024" ;;
        cg_dot) echo "cg_dot (cooperative groups), $(pretty "$size") floats" ;;
        cublas_sgemm) echo "cublasSgemm ${size}³ (OpenMP column: OpenBLAS's cblas_sgemm)" ;;
        cublas_sgemm_batched) echo "cublasSgemmStridedBatched, $size products 16³ (OpenMP: a cblas_sgemm each)" ;;
        launch_sync) echo "launch + sync, µs each (OpenMP: empty parallel region)" ;;
        launch_async) echo "async launches per second (higher is better)" ;;
        jit_cold) echo "JIT: start to end of first launch, ms, 1st run (fresh cache dir)" ;;
        jit_warm) echo "JIT: the same, 2nd run (same CUCPU_CACHE_DIR)" ;;
    esac
}

selected=()
for entry in "${workloads[@]}"; do
    read -r name full small <<<"$entry"
    if [[ -z $only || ,$only, == *,$name,* ]]; then selected+=("$name $((quick ? small : full))"); fi
done
((${#selected[@]})) || { echo "bench/run.sh: --only $only names no workload" >&2; exit 2; }

# Build both sets; a program is rebuilt when its source, a shared header or the flags changed.
cores=$(nproc)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
nvcc_flags=(-std=c++20 -O3 -cudart shared -arch=sm_90)
# -ffp-contract=fast: nvcc fuses a*b+c into an FMA by default (--fmad=true); so does the twin.
gxx_flags=(-std=c++20 -O3 -march=native -fopenmp -ffp-contract=fast)
mkdir -p "$build_dir/cuda" "$build_dir/openmp"
log=$build_dir/log.txt
: >"$log"
stale() {  # stale OUTPUT SOURCE FLAGS...: true when OUTPUT must be rebuilt
    local output=$1 source=$2; shift 2
    [[ ! -x $output || $source -nt $output || $bench_dir/common.h -nt $output || $bench_dir/cuda_check.h -nt $output ]] ||
        [[ "$*" != "$(cat "$output.flags" 2>/dev/null)" ]]
}
# A source's own flags: its "// NVCC-FLAGS: ..." or "// GXX-FLAGS: ..." line (cublas_sgemm
# links cuBLAS, its twin OpenBLAS).
links() { sed -n 's/^\/\/ \(NVCC\|GXX\)-FLAGS: //p' "$1"; }
build() {  # build OUTPUT COMPILER FLAGS... -o OUTPUT SOURCE [LIBRARIES], logging failures
    local output=$1; shift
    if "$@" >"$output.build.log" 2>&1; then rm -f "$output.build.log"; else
        echo "bench/run.sh: build failed: $*" >&2; cat "$output.build.log" >&2; return 1
    fi
}
echo "building into $build_dir ..." >&2
rm -f "$build_dir"/*/*.build.log
for entry in "${selected[@]}"; do
    read -r name size <<<"$entry"
    if stale "$build_dir/cuda/$name" "$bench_dir/$name.cu" "${nvcc_flags[*]}"; then
        (build "$build_dir/cuda/$name" "$nvcc" "${nvcc_flags[@]}" -o "$build_dir/cuda/$name" "$bench_dir/$name.cu" $(links "$bench_dir/$name.cu") &&
            echo "${nvcc_flags[*]}" >"$build_dir/cuda/$name.flags") &
    fi
    if [[ -f $bench_dir/$name.cpp ]] && stale "$build_dir/openmp/$name" "$bench_dir/$name.cpp" "${gxx_flags[*]}"; then
        (build "$build_dir/openmp/$name" g++ "${gxx_flags[@]}" -o "$build_dir/openmp/$name" "$bench_dir/$name.cpp" $(links "$bench_dir/$name.cpp") &&
            echo "${gxx_flags[*]}" >"$build_dir/openmp/$name.flags") &
    fi
    while (($(jobs -rp | wc -l) >= cores)); do sleep 0.2; done
done
wait
# A failed build leaves its log behind.
if compgen -G "$build_dir/*/*.build.log" >/dev/null; then echo "bench/run.sh: a build failed" >&2; exit 1; fi

# results[LINE|COLUMN] = the values of its runs, space-separated (a number, or timeout / FAIL /
# error); LINE is a BENCH name. value_of settles them into the table's one value.
declare -A results
failures=()
warnings=()
columns=(openmp cucpu)
for strategy in "${strategies[@]}"; do columns+=("strategy=$strategy"); done

# run_program COLUMN LINES PROGRAM SIZE [ENV...]: run one program under its column's
# settings and record its BENCH lines (or why there are none) under the names in LINES.
run_program() {
    local column=$1 lines=$2 program=$3 size=$4; shift 4
    local environment=("$@") command=("$program" "$size") output status=0
    [[ $column == openmp ]] && environment+=("OMP_NUM_THREADS=$cores") || command=("$cucpu" run "${command[@]}")
    [[ $column == cucpu ]] && environment=(-u CUCPU_BLOCK_STRATEGY "${environment[@]}")
    [[ $column == strategy=* ]] && environment+=("CUCPU_BLOCK_STRATEGY=${column#strategy=}")
    [[ $lines == jit_* ]] && environment+=("BENCH_T0_NS=$(date +%s%N)")
    output=$(env "${environment[@]}" timeout --kill-after=10 "$cap" "${command[@]}" 2>&1) || status=$?
    {
        echo "== $column: ${environment[*]} ${command[*]} (exit $status)"
        echo "$output"
    } >>"$log"
    local line
    while read -r line; do
        [[ $line == *CUCPU_BLOCK_STRATEGY* ]] && warnings+=("$column: $line")
    done < <(grep -i "warn" <<<"$output" | sort -u)
    for line in $lines; do
        local name=$line value
        [[ $line == jit_* ]] && name=jit_startup
        value=$(sed -n "s/^BENCH name=$name .* \(ms\|us\|per_s\)=\([0-9.]*\) check=ok$/\2/p" <<<"$output")
        if ((status == 124 || status == 137)); then
            value=timeout
        elif grep -q "^BENCH name=$name .*check=FAIL" <<<"$output"; then
            value=FAIL; failures+=("$line ($column): $(grep -m1 'RESULT CHECK FAILED' <<<"$output")")
        elif ((status != 0)) || [[ -z $value ]]; then
            value="error"; failures+=("$line ($column): exit $status: $(tail -n 2 <<<"$output" | tr '\n' ' ')")
        fi
        results[$line|$column]+="$value "
        echo "    $line ($column): $value" >&2
    done
}

rows=()
sizes=()
count=0
for entry in "${selected[@]}"; do
    read -r name size <<<"$entry"
    ((++count))
    case $name in
        launch_latency) lines="launch_sync launch_async" ;;
        jit_startup) lines="jit_cold jit_warm" ;;
        *) lines=$name ;;
    esac
    for ((run = 1; run <= repeat; ++run)); do
    for column in "${columns[@]}"; do
        program=$build_dir/$([[ $column == openmp ]] && echo openmp || echo cuda)/$name
        [[ -x $program ]] || continue  # jit_startup has no OpenMP twin
        echo "[$count/${#selected[@]}] $name ($column, run $run of $repeat) ..." >&2
        if [[ $name == jit_startup ]]; then
            # Two runs with the same fresh cache: the first is cold, the second may reuse it.
            cache=$(mktemp -d)
            run_program "$column" jit_cold "$program" "$size" "CUCPU_CACHE_DIR=$cache"
            run_program "$column" jit_warm "$program" "$size" "CUCPU_CACHE_DIR=$cache"
            rm -rf "$cache"
        else
            # An empty parallel region has no asynchronous counterpart: the twin prints launch_sync only.
            column_lines=$lines
            [[ $column == openmp && $name == launch_latency ]] && column_lines=launch_sync
            run_program "$column" "$column_lines" "$program" "$size"
        fi
    done
    done
    for line in $lines; do rows+=("$line"); sizes+=("$size"); done
done

# Numbers as a person reads them: 3 significant digits, no more than 3 decimals.
number() { awk -v v="$1" 'BEGIN { if (v >= 100) printf "%.0f", v; else if (v >= 10) printf "%.1f", v;
                                   else if (v >= 1) printf "%.2f", v; else printf "%.3f", v }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { r = a / b; if (r >= 10) printf "%.0f×", r; else printf "%.1f×", r }'; }
is_number() { [[ $1 =~ ^[0-9]+(\.[0-9]*)?$ ]]; }
# value_of "V1 V2 ...": the median of a cell's runs when all gave a number, else the first
# that did not (a failure is not outvoted); "-" for none.
value_of() {
    local values=($1) value
    ((${#values[@]})) || { echo -; return; }
    for value in "${values[@]}"; do is_number "$value" || { echo "$value"; return; }; done
    printf '%s\n' "${values[@]}" | sort -g | awk '{ v[NR] = $1 } END { printf "%.10g\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

table() {
    local cpu
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
    echo "Machine: ${cpu:-unknown CPU}, $cores cores ($(uname -m)), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
    echo "Run: $(date -u '+%Y-%m-%d %H:%M UTC'), $([[ $quick == 1 ]] && echo quick || echo full) sizes," \
        "median of 5 runs after a warm-up in each of $repeat processes taking turns, the median of those, OMP_NUM_THREADS=$cores, cap ${cap} s per program"
    echo "cucpu: $cucpu ($(git -C "$(dirname "$cucpu")" describe --always --dirty 2>/dev/null || echo "not in a git checkout"))"
    echo
    local header="| workload | OpenMP ms | cucpu ms | cucpu/OpenMP |" rule="| --- | ---: | ---: | ---: |"
    for strategy in "${strategies[@]}"; do
        header+=" cucpu ms, CUCPU_BLOCK_STRATEGY=$strategy (/OpenMP) |"
        rule+=" ---: |"
    done
    echo "$header"
    echo "$rule"
    local index
    for index in "${!rows[@]}"; do
        local line=${rows[index]} openmp cucpu_value cells
        openmp=$(value_of "${results[$line|openmp]:-}")
        [[ $openmp == - ]] && openmp=—
        cucpu_value=$(value_of "${results[$line|cucpu]:-}")
        # Ratios only where smaller is better and there is an OpenMP figure.
        local comparable=0
        [[ $line != launch_async && $line != jit_* ]] && is_number "$openmp" && comparable=1
        cells="| $(label "$line" "${sizes[index]}") | $(is_number "$openmp" && number "$openmp" || echo "$openmp")"
        cells+=" | $(is_number "$cucpu_value" && number "$cucpu_value" || echo "$cucpu_value")"
        cells+=" | $( ((comparable)) && is_number "$cucpu_value" && ratio "$cucpu_value" "$openmp" || echo —) |"
        for strategy in "${strategies[@]}"; do
            local value
            value=$(value_of "${results[$line|strategy=$strategy]:-}")
            if is_number "$value"; then
                cells+=" $(number "$value")"
                ((comparable)) && cells+=" ($(ratio "$value" "$openmp"))"
                cells+=" |"
            else
                cells+=" $value |"
            fi
        done
        echo "$cells"
    done
    if ((${#warnings[@]})); then
        echo
        printf 'cucpu said: %s\n' "${warnings[@]}" | sort -u
    fi
    if ((${#failures[@]})); then
        echo
        printf 'FAILED: %s\n' "${failures[@]}"
    fi
}

table | tee "$build_dir/results.md"
echo "(table also in $build_dir/results.md; every program's output in $log)" >&2
((${#failures[@]} == 0))
