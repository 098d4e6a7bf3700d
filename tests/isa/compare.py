#!/usr/bin/env python3
"""compare.py EXPECTED ACTUAL: compares an instruction test's output with the GPU's.

Lines must correspond one to one. A line tagged `approx(BOUND) FORM IN... -> OUT` (an
approximate instruction, see generate.py) passes when its form and inputs are identical and
each result is within BOUND of the GPU's: BOUND is what the PTX ISA states for the
instruction (`ulp=N`, `rel=2^-E`, `abs=2^-E`, several separated by commas: the largest
applies), plus one ulp for cucpu's own rounding. Non-finite results must be identical. Every other line must be identical byte for byte.
Exit status 0 when all lines pass; else the first differences are printed and it is 1.
"""
import math
import re
import struct
import sys

TAG = re.compile(r"^approx\(([^)]*)\) ")


def value(bits, width, half=None):
    if half == "bf16":  # 16-bit lanes of half-precision forms (half_precision.cu, bf16.cu)
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0], 2.0 ** -7, 2.0 ** -133
    if half == "f16":
        return struct.unpack("<e", struct.pack("<H", bits))[0], 2.0 ** -10, 2.0 ** -24
    if width == 8:
        return struct.unpack("<f", struct.pack("<I", bits))[0], 2.0 ** -23, 2.0 ** -149
    return struct.unpack("<d", struct.pack("<Q", bits))[0], 2.0 ** -52, 2.0 ** -1074


def ulp(x, eps, tiny):
    if x == 0:
        return tiny
    return max(2.0 ** math.floor(math.log2(abs(x))) * eps, tiny)


def half_kind(form):
    """'f16' or 'bf16' when the form's results are 16-bit lanes (.f16, .f16x2, ...)."""
    suffix = form.rsplit(".", 1)[-1]
    return {"f16": "f16", "f16x2": "f16", "bf16": "bf16", "bf16x2": "bf16"}.get(suffix)


def within(bound, want_hex, got_hex, half=None):
    if want_hex == got_hex:
        return True
    if half and len(want_hex) == len(got_hex) == 8:  # a packed pair: each lane on its own
        return all(within(bound, want_hex[k:k + 4], got_hex[k:k + 4], half) for k in (0, 4))
    if len(want_hex) != len(got_hex) or len(want_hex) not in ((4,) if half else (8, 16)):
        return False
    want, eps, tiny = value(int(want_hex, 16), len(want_hex), half)
    got, _, _ = value(int(got_hex, 16), len(got_hex), half)
    if not (math.isfinite(want) and math.isfinite(got)):
        return False
    allowed = 0.0
    for term in bound.split(","):
        kind, amount = term.split("=")
        amount = 2.0 ** float(amount[2:]) if amount.startswith("2^") else float(amount)
        allowed = max(allowed, {"ulp": amount * ulp(want, eps, tiny), "rel": amount * abs(want),
                                "abs": amount}[kind])
    return abs(want - got) <= allowed + ulp(want, eps, tiny)


def line_passes(want, got):
    if want == got:
        return True
    tag = TAG.match(want)
    if not tag or not got.startswith(tag.group(0)):
        return False
    w_in, _, w_out = want[tag.end():].partition(" -> ")
    g_in, _, g_out = got[tag.end():].partition(" -> ")
    w_out, g_out = w_out.split(), g_out.split()
    half = half_kind(w_in.split()[0]) if w_in else None
    return w_in == g_in and len(w_out) == len(g_out) and all(
        within(tag.group(1), a, b, half) for a, b in zip(w_out, g_out))


def main():
    with open(sys.argv[1]) as f:
        want = f.read().splitlines()
    with open(sys.argv[2]) as f:
        got = f.read().splitlines()
    bad = [i for i in range(min(len(want), len(got))) if not line_passes(want[i], got[i])]
    for i in bad[:40]:
        print(f"line {i + 1}:\n  gpu:   {want[i]}\n  cucpu: {got[i]}")
    if len(bad) > 40:
        print(f"... {len(bad)} lines differ")
    if len(want) != len(got):
        print(f"{len(got)} lines, the GPU printed {len(want)}")
    return 1 if bad or len(want) != len(got) else 0


if __name__ == "__main__":
    sys.exit(main())
