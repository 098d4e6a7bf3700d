#!/usr/bin/env bash
# Builds the PTX parser fuzzer with clang-14 (libFuzzer + ASan + UBSan) straight from
# the sources of src/ptx and src/support, without the project's CMake (which needs
# LLVM 19, CUDA, ...), and runs it. See README.md beside this script.
#
#   tests/fuzz/build_and_run.sh build              # only build
#   tests/fuzz/build_and_run.sh run [ARGS...]      # build, then fuzz a work corpus seeded
#                                                  # from corpus/, tests/ptx/inputs, tests/jit
#   tests/fuzz/build_and_run.sh merge              # minimize the work corpus into corpus/
#   tests/fuzz/build_and_run.sh repro FILE...      # run single inputs (crash reproducers)
#
# Settings: CUCPU_FUZZ_BUILD (build dir, default build-fuzz/libfuzzer),
#           CUCPU_FUZZ_WORK (work corpus and logs, default /tmp/cucpu-ptx-fuzz),
#           CXX (default clang++-14).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${CUCPU_FUZZ_BUILD:-$root/build-fuzz/libfuzzer}"
work="${CUCPU_FUZZ_WORK:-/tmp/cucpu-ptx-fuzz}"
cxx="${CXX:-clang++-14}"
flags=(-std=c++20 -g -O1 -fno-omit-frame-pointer -fno-sanitize-recover=undefined -DFMT_HEADER_ONLY
       -I"$root/src" -Wall -Wextra -Werror)

build_fuzzer() {
  mkdir -p "$build"
  local sources=("$root"/src/ptx/*.cpp "$root"/src/support/log.cpp "$here/ptx_parser_fuzzer.cpp")
  local objects=() pids=()
  for source in "${sources[@]}"; do
    local object="$build/$(basename "$source" .cpp).o"
    objects+=("$object")
    # Rebuild when the source or any header of src/ptx is newer than the object.
    if [[ ! -f "$object" || -n "$(find "$source" "$root"/src/ptx "$root"/src/support -newer "$object" \
          \( -name '*.h' -o -name '*.def' -o -path "$source" \) -print -quit)" ]]; then
      # fuzzer-no-link: coverage instrumentation; libFuzzer's main comes in at link time.
      "$cxx" "${flags[@]}" -fsanitize=fuzzer-no-link,address,undefined -c "$source" -o "$object" &
      pids+=($!)
      if (( ${#pids[@]} >= $(nproc) )); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
    fi
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  "$cxx" "${flags[@]}" -fsanitize=fuzzer,address,undefined "${objects[@]}" -o "$build/ptx_parser_fuzzer"
}

seed_work_corpus() {
  mkdir -p "$work/corpus" "$work/artifacts"
  cp -n "$here"/corpus/* "$work/corpus/" 2>/dev/null || true
  for file in "$root"/tests/ptx/inputs/*.ptx "$root"/tests/jit/*.ptx; do
    cp -n "$file" "$work/corpus/seed_$(basename "$file")"
  done
}

command="${1:-run}"
shift || true
build_fuzzer
case "$command" in
  build) ;;
  run)
    seed_work_corpus
    "$build/ptx_parser_fuzzer" -dict="$here/ptx.dict" -max_len=4096 -timeout=5 -rss_limit_mb=2048 \
      -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$@" "$work/corpus"
    ;;
  merge)
    # libFuzzer's merge keeps every input that adds an edge, smallest first: ~400 files,
    # most of them tiny. Merging that again with its inputs of 500 bytes and more taken
    # as given keeps the same edges in about 260 files.
    rm -rf "$work/merged" "$work/large" "$work/small" && mkdir -p "$work/merged" "$work/large" "$work/small"
    "$build/ptx_parser_fuzzer" -merge=1 -use_counters=0 -max_len=4096 -timeout=5 "$work/merged" "$work/corpus" "$here/corpus"
    find "$work/merged" -type f -size -500c -exec mv -t "$work/small" {} +
    mv "$work/merged"/* "$work/large/"
    "$build/ptx_parser_fuzzer" -merge=1 -use_counters=0 -max_len=4096 -timeout=5 "$work/large" "$work/small"
    rm -rf "$here/corpus" && mkdir -p "$here/corpus" && cp "$work/large"/* "$here/corpus/"
    echo "corpus: $(ls "$here/corpus" | wc -l) files, $(du -sh "$here/corpus" | cut -f1)"
    ;;
  repro) "$build/ptx_parser_fuzzer" -timeout=5 "$@" ;;
  *) echo "usage: $0 build|run [libFuzzer args]|merge|repro FILE..." >&2; exit 2 ;;
esac
