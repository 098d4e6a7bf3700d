#!/usr/bin/env bash
# compile_device_runtime_library.sh CUCPU LIBCUDADEVRT_A: every object in NVIDIA's device
# runtime library parses and compiles (`cucpu ptx --compile`, its newest PTX: the toolkit
# ships one arch only); the driver functions it calls are cucpu's (exec/device_runtime_driver.cpp).
set -euo pipefail
cucpu=$1 library=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
ar x "$library"
for object in *.o; do "$cucpu" ptx --arch 1000 --compile "$object"; done
