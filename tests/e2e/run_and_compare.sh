#!/usr/bin/env bash
# run_and_compare.sh CUCPU EXPECTED PROGRAM [ARGS...]
# Runs PROGRAM under `cucpu run`. Passes when it exits with 0 (or with the code in
# EXPECTED's sibling NAME.rc) and its stdout equals EXPECTED byte for byte.
set -u
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
if ! cmp -s "$expected" "$actual"; then
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
