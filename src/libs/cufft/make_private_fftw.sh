#!/usr/bin/env bash
# make_private_fftw.sh LD NM OBJCOPY OUTPUT ARCHIVE...: FFTW's static archives (Debian builds
# them position-independent) as one object whose every global name carries the prefix
# cucpu_ (fftwf_plan_many_dft -> cucpu_fftwf_plan_many_dft). libcufftw.so.12 exports the
# FFTW API under FFTW's own names, and a process may load the system's libfftw3 beside
# ours: with the names renamed (and then made local by the version script) no call inside
# FFTW can bind to cuFFTW's entry points or to another copy of FFTW, and ours to no other.
set -euo pipefail
ld=$1 nm=$2 objcopy=$3 output=$4
shift 4
whole=$output.whole.o renames=$output.renames
"$ld" -r --whole-archive "$@" -o "$whole"
"$nm" -g --defined-only "$whole" | awk 'NF == 3 { print $3, "cucpu_" $3 }' > "$renames"
"$objcopy" --redefine-syms="$renames" "$whole" "$output"
rm -f "$whole" "$renames"
