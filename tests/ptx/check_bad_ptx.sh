#!/usr/bin/env bash
# check_bad_ptx.sh CUCPU FILE: `cucpu ptx FILE` must exit with 1 (not a crash) and print
# exactly one line on stderr holding "ptx:<line>:<col>: "; where FILE has a sibling
# FILE.expected (or a first line "// EXPECT: <text>"), that line must contain it.
set -u
cucpu=$1 file=$2
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
"$cucpu" ptx "$file" >/dev/null 2>"$errors"
rc=$?
lines=$(wc -l <"$errors")
message=$(head -1 "$errors")
expect=""
if [[ -f "${file%.ptx}.expected" ]]; then expect=$(head -1 "${file%.ptx}.expected")
elif head -1 "$file" | grep -q '^// EXPECT: '; then expect=$(head -1 "$file" | sed 's|^// EXPECT: ||'); fi
fail() { echo "FAIL: $*"; echo "stderr was:"; cat "$errors"; exit 1; }
[[ $rc -eq 1 ]] || fail "exit code $rc, expected 1"
[[ $lines -eq 1 ]] || fail "$lines lines on stderr, expected 1"
[[ "$message" =~ ptx:[0-9]+:[0-9]+:\  ]] || fail "no ptx:<line>:<col>: position in the message"
[[ -z "$expect" || "$message" == *"$expect"* ]] || fail "message does not contain: $expect"
echo "ok: $message"
