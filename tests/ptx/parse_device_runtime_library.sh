#!/usr/bin/env bash
# parse_device_runtime_library.sh CUCPU LIBCUDADEVRT_A: every object in NVIDIA's device
# runtime library parses (`cucpu ptx`, its newest PTX: the toolkit ships one arch only).
set -euo pipefail
cucpu=$1 library=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
ar x "$library"
for object in *.o; do "$cucpu" ptx --arch 1000 "$object"; done
