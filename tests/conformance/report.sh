#!/usr/bin/env bash
# report.sh CONFORMANCE_DIR BIN_DIR CUCPU: builds every conformance program (build.sh),
# runs each under cucpu and prints "<name> PASS|FAIL" (PASS: exit 0 and stdout equal to
# expected/<name>.out but for "(not asserted)" lines), then "N passed, M failed". A report:
# it always exits 0.
set -u
dir=$1 bin=$2 cucpu=$3
"$dir/build.sh" "$bin" >/dev/null
passed=0 failed=0
for exe in "$bin"/*; do
    [[ -x "$exe" ]] || continue
    name=$(basename "$exe")
    if timeout "${TIMEOUT:-120}" "$cucpu" run "$exe" >"$bin/$name.stdout" 2>"$bin/$name.stderr" &&
        "$(dirname "$0")/compare_asserted_lines.sh" "$dir/expected/$name.out" "$bin/$name.stdout" >/dev/null; then
        echo "$name PASS"; passed=$((passed + 1))
    else
        echo "$name FAIL"; failed=$((failed + 1))
    fi
done
echo "conformance: $passed of $((passed + failed)) programs pass on cucpu"
