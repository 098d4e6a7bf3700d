#!/usr/bin/env bash
# jit_cache_second_run.sh CUCPU PROGRAM [ARGS...]: the JIT's disk cache end to end. Runs
# PROGRAM under `cucpu run` with CUCPU_DEBUG=jit and a fresh, empty cache directory
# (CUCPU_CACHE_DIR), twice: the first run must compile and store every module, the second
# must load every module from the cache and translate nothing (no LLVM IR in its log), and
# both must print the same and exit 0. A run with CUCPU_CACHE=0 must write nothing, and
# three runs at once on another empty cache must all succeed and leave whole entries only.
set -u
cucpu=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*"
    for log in "$work"/*.log; do
        echo "--- $(basename "$log") (cache lines):"
        grep -E "disk cache|^cucpu: " "$log" | head -20
    done
    exit 1
}
# run NAME VAR=VALUE...: stdout to $work/NAME.out, stderr to $work/NAME.log
run() {
    local name=$1
    shift
    env "$@" CUCPU_DEBUG=jit "$cucpu" run "${program[@]}" >"$work/$name.out" 2>"$work/$name.log" ||
        fail "the $name run exited with $?"
}
count() { grep -c "$1" "$2"; }
program=("$@")

run cold CUCPU_CACHE_DIR="$work/cache"
run warm CUCPU_CACHE_DIR="$work/cache"
misses=$(count "disk cache miss .*, stored" "$work/cold.log")
[[ $misses -gt 0 ]] || fail "the first run stored no module"
[[ $(count "disk cache hit" "$work/cold.log") -eq 0 ]] || fail "the first run, with an empty cache, hit"
grep -q "ModuleID" "$work/cold.log" || fail "the first run logged no LLVM IR (the check below would prove nothing)"
[[ $(count "disk cache hit" "$work/warm.log") -eq $misses ]] || fail "the second run did not load all $misses module(s) from the cache"
[[ $(count "disk cache miss" "$work/warm.log") -eq 0 ]] || fail "the second run missed"
grep -q "ModuleID" "$work/warm.log" && fail "the second run translated PTX to LLVM IR"
cmp -s "$work/cold.out" "$work/warm.out" || fail "the two runs printed different output"

mkdir "$work/off"
run off CUCPU_CACHE=0 CUCPU_CACHE_DIR="$work/off"
[[ -z $(ls -A "$work/off") ]] || fail "CUCPU_CACHE=0 wrote to the cache directory"
cmp -s "$work/cold.out" "$work/off.out" || fail "the run without cache printed different output"
for i in 1 2 3; do
    run "racing$i" CUCPU_CACHE_DIR="$work/raced" &
done
wait
for i in 1 2 3; do
    cmp -s "$work/cold.out" "$work/racing$i.out" || fail "racing run $i printed different output"
done
[[ $(ls -A "$work/raced" | wc -l) -eq $(ls -A "$work/cache" | wc -l) ]] || fail "racing runs left other files than the entries"
run after_race CUCPU_CACHE_DIR="$work/raced"
[[ $(count "disk cache hit" "$work/after_race.log") -eq $misses ]] || fail "the entries racing runs stored do not all load"

echo "PASS: $misses module(s) compiled and stored, then loaded from the cache"
grep -h "disk cache" "$work/cold.log" "$work/warm.log"
