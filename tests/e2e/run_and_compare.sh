#!/usr/bin/env bash
# run_and_compare.sh [--comparator CMD] CUCPU EXPECTED PROGRAM [ARGS...]
# Runs PROGRAM under `cucpu run`. Passes when it exits with 0 (or with the code in
# EXPECTED's sibling NAME.rc) and its stdout equals EXPECTED byte for byte, or, with
# --comparator, when `CMD EXPECTED ACTUAL` exits 0 (tests/isa/compare.py: approximate
# instructions within their PTX ISA bound).
set -u
comparator=
if [[ $1 == --comparator ]]; then
    comparator=$2
    shift 2
fi
cucpu=$1 expected=$2
shift 2
actual=$(mktemp)
errors=$(mktemp)
trap 'rm -f "$actual" "$errors"' EXIT
"$cucpu" run "$@" >"$actual" 2>"$errors"
rc=$?
want_rc=0
[[ -f "${expected%.out}.rc" ]] && want_rc=$(cat "${expected%.out}.rc")
status=0
if [[ -n $comparator ]]; then
    if ! $comparator "$expected" "$actual"; then
        echo "stdout differs from the GPU's ($expected), as $comparator compares"
        status=1
    fi
elif ! cmp -s "$expected" "$actual"; then
    echo "stdout differs from the GPU's ($expected):"
    diff -u "$expected" "$actual" | head -60
    status=1
fi
if [[ $rc -ne $want_rc ]]; then
    echo "exit code $rc, the GPU's was $want_rc"
    status=1
fi
if [[ $status -ne 0 && -s "$errors" ]]; then
    echo "stderr:"
    head -30 "$errors"
fi
exit $status
