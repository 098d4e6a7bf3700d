#!/usr/bin/env bash
# PTX sweep: compiles every .cu file of the listed NVIDIA cuda-samples to compute_90 PTX
# with nvcc, then runs `cucpu ptx` (parse) and `cucpu ptx --compile` (JIT) on each.
# The JIT stops at its first unsupported instruction, so for a failing file the sweep
# comments that statement out of a scratch copy and compiles again, until the file compiles
# (or MAX_ROUNDS), to list every unsupported instruction with its count.
#
#   scripts/ptx_sweep.sh SAMPLES_DIR OUTDIR [SAMPLE_LIST]
#
# SAMPLES_DIR: a checkout of github.com/NVIDIA/cuda-samples (Samples/, Common/).
# SAMPLE_LIST: sample names, one a line, `#` comments (default
#              ../shared/cuda-samples-open.txt: only those samples may be used).
# Writes OUTDIR/<sample>/<file>.ptx and logs, OUTDIR/results.tsv (one row per file),
# OUTDIR/unsupported.tsv (JIT failures: instruction and message, count, files) and
# OUTDIR/summary.md. Settings: CUCPU (default build/bin/cucpu), NVCC, MAX_ROUNDS (500).
# Nothing it writes belongs in the repository: it is built from fetched code.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
samples="${1:?usage: $0 SAMPLES_DIR OUTDIR [SAMPLE_LIST]}"
out="${2:?usage: $0 SAMPLES_DIR OUTDIR [SAMPLE_LIST]}"
list="${3:-$root/../shared/cuda-samples-open.txt}"
cucpu="${CUCPU:-$root/build/bin/cucpu}"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
max_rounds="${MAX_ROUNDS:-500}"
mkdir -p "$out"
results="$out/results.tsv"
failures="$out/jit_failures.tsv"  # one row per unsupported instruction found
printf 'sample\tfile\tnvcc\tparse\tcompile\tmessage\n' > "$results"
: > "$failures"

# Every JIT failure of one PTX file, by compiling a scratch copy again and again with the
# failing statement commented out: for an unsupported instruction every statement
# spelled the same way, each counted (a tensor-core kernel has thousands); for any other
# failure (a callee, a special register, a type) just that statement. Appends "sample<TAB>file<TAB>key" rows to $failures.
collect_jit_failures() {
  local sample="$1" ptx="$2" scratch="$2.scratch" previous="" round
  shift 2  # the rest: the other units of an -rdc sample, linked with it
  cp "$ptx" "$scratch"
  for ((round = 0; round < max_rounds; ++round)); do
    local message
    message="$("$cucpu" ptx --compile "$scratch" "$@" 2>&1 >/dev/null)" && break
    message="${message#"$scratch"*: }"
    # "line 60: `call`: call to external function vprintf is not supported yet"
    local line
    line="$(sed -n 's/^line \([0-9]*\): .*/\1/p' <<< "$message" | head -1)"
    local key="${message#line [0-9]*: }"
    key="$(head -1 <<< "$key")"
    if [[ -z "$line" || "$line" == "$previous" ]]; then
      printf '%s\t%s\t%s\n' "$sample" "$(basename "$ptx")" "$key" >> "$failures"
      break
    fi
    local spelling
    spelling="$(sed -n "${line}p" "$scratch" | awk '{ print ($1 ~ /^@/) ? $2 : $1 }')"
    [[ "$key" == *": instruction is not supported yet" ]] || spelling=""
    # Comment out the statement (nvcc spreads a call over several lines), or all alike.
    awk -v from="$line" -v spelling="$spelling" -v key="$key" -v prefix="$sample	$(basename "$ptx")" '
      { word = ($1 ~ /^@/) ? $2 : $1 }
      spelling != "" && word == spelling && $0 !~ /^\/\// { print prefix "\t" key >> "/dev/stderr"; $0 = "// " $0 }
      spelling == "" && NR >= from && !done { if (NR == from) print prefix "\t" key >> "/dev/stderr"
                                              if (index($0, ";")) done = 1; $0 = "// " $0 }
      { print }' "$scratch" > "$scratch.next" 2>> "$failures" && mv "$scratch.next" "$scratch"
    previous="$line"
  done
  rm -f "$scratch" "$scratch.next"
}

while read -r sample; do
  [[ -z "$sample" || "$sample" == \#* ]] && continue
  dir="$(ls -d "$samples"/Samples/*/"$sample" 2>/dev/null | head -1)"
  if [[ -z "$dir" ]]; then
    printf '%s\t-\tmissing\t-\t-\tno such sample\n' "$sample" >> "$results"
    continue
  fi
  mkdir -p "$out/$sample"
  mapfile -t sources < <(find "$dir" -name '*.cu' | sort)
  if (( ${#sources[@]} == 0 )); then
    printf '%s\t-\tno .cu\t-\t-\thost code only\n' "$sample" >> "$results"
    continue
  fi
  # Dynamic parallelism needs relocatable device code (-rdc), as the samples' CMake sets:
  # when a file compiles only with it, the whole sample is compiled so and its units linked.
  rdc=()
  for pass in plain rdc; do
    declare -A made=()
    for source in "${sources[@]}"; do
      name="$(basename "$source" .cu)"
      includes=(-I"$samples/Common" -I"$dir" -I"$(dirname "$source")")
      [[ -d "$dir/inc" ]] && includes+=(-I"$dir/inc")
      "$nvcc" -arch=compute_90 -ptx "${rdc[@]}" "${includes[@]}" "$source" -o "$out/$sample/$name.ptx" \
        > "$out/$sample/$name.nvcc.log" 2>&1 && made[$name]=1
    done
    (( ${#made[@]} == ${#sources[@]} )) || [[ $pass == rdc ]] || { rdc=(-rdc=true); continue; }
    break
  done
  nvcc_status=ok
  (( ${#rdc[@]} )) && nvcc_status=ok-rdc
  units=()
  for source in "${sources[@]}"; do
    name="$(basename "$source" .cu)"
    [[ -n "${made[$name]:-}" ]] && grep -q -E '^\s*(\.visible\s+|\.weak\s+)?\.(entry|func)' "$out/$sample/$name.ptx" &&
      units+=("$out/$sample/$name.ptx")
  done
  for source in "${sources[@]}"; do
    name="$(basename "$source" .cu)"
    ptx="$out/$sample/$name.ptx"
    if [[ -z "${made[$name]:-}" ]]; then
      message="$(grep -m1 -i 'error' "$out/$sample/$name.nvcc.log" | cut -c1-160)"
      printf '%s\t%s\tfailed\t-\t-\t%s\n' "$sample" "$name.cu" "$message" >> "$results"
      continue
    fi
    if ! grep -q -E '^\s*(\.visible\s+|\.weak\s+)?\.(entry|func)' "$ptx"; then
      printf '%s\t%s\t%s\t-\t-\tno device code\n' "$sample" "$name.cu" "$nvcc_status" >> "$results"
      continue
    fi
    others=()
    if (( ${#rdc[@]} )); then
      for unit in "${units[@]}"; do [[ "$unit" == "$ptx" ]] || others+=("$unit"); done
    fi
    parse=ok compile=ok message=""
    if ! message="$("$cucpu" ptx "$ptx" 2>&1)"; then
      parse=FAILED compile=-
    elif ! message="$("$cucpu" ptx --compile "$ptx" "${others[@]}" 2>&1 >/dev/null)"; then
      compile=failed
      collect_jit_failures "$sample" "$ptx" "${others[@]}"
    else
      message=""
    fi
    message="$(head -1 <<< "${message#"$ptx"*: }" | cut -c1-160)"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$sample" "$name.cu" "$nvcc_status" "$parse" "$compile" "$message" >> "$results"
  done
done < "$list"

# unsupported.tsv: each distinct failure, how often, in how many files.
{
  printf 'count\tfiles\tunsupported\n'
  awk -F'\t' '{ n[$3]++; if (!seen[$3 FS $1 FS $2]++) f[$3]++ } END { for (k in n) printf "%d\t%d\t%s\n", n[k], f[k], k }' \
    "$failures" | sort -t$'\t' -k1,1nr
} > "$out/unsupported.tsv"

# summary.md: per sample, files compiled by nvcc / parsed / JIT-compiled.
{
  echo "| sample | .cu files | PTX made | parsed | JIT-compiled | notes |"
  echo "| --- | --- | --- | --- | --- | --- |"
  awk -F'\t' 'NR > 1 {
      s = $1; if (!(s in order)) { order[s] = ++n; names[n] = s }
      if ($2 != "-") files[s]++
      if ($3 ~ /^ok/ && $6 != "no device code") made[s]++
      if ($4 == "ok") parsed[s]++
      if ($5 == "ok") compiled[s]++
      if ($3 == "failed") note[s] = note[s] "nvcc failed: " $2 "; "
      if ($6 == "no device code") note[s] = note[s] $2 " has no device code; "
      if ($6 == "host code only" || $6 == "no such sample") note[s] = note[s] $6
      if ($4 == "FAILED") note[s] = note[s] "parse: " $6 "; "
    }
    END { for (i = 1; i <= n; i++) { s = names[i]
      printf "| %s | %d | %d | %d | %d | %s |\n", s, files[s], made[s], parsed[s], compiled[s], note[s] } }' "$results"
  awk -F'\t' 'NR > 1 && $2 != "-" { t++ } NR > 1 && $3 ~ /^ok/ && $6 != "no device code" { m++ }
    NR > 1 && $4 == "ok" { p++ } NR > 1 && $5 == "ok" { c++ }
    END { printf "| **total** | %d | %d | %d | %d | |\n", t, m, p, c }' "$results"
} > "$out/summary.md"
cat "$out/summary.md"
echo
head -30 "$out/unsupported.tsv"
