#!/usr/bin/env python3
"""Writes the instruction tests of tests/isa: one NAME.cu per family of PTX instructions.

    python3 tests/isa/generate.py        # rewrites tests/isa/isa_*.cu (deterministic)

Each program runs every form of its family (one inline-PTX `asm volatile` statement,
exactly as written in a PTX ISA 9.0 example) over a table of edge-case inputs, one GPU
thread per case, and prints one line per case:

    FORM IN... -> OUT...              every value as hex bits (predicates as 0/1)
    approx(BOUND) FORM IN... -> OUT   an approximate instruction (see APPROX below)

Inputs of one-operand forms are the whole table of their domain; two-operand forms take
every pair of the domains' leading special values plus pseudo-random pairs; three and more
take pseudo-random tuples. The host picks them with a fixed generator, so the GPU and cucpu
print the same inputs. The expected output (expected/NAME.out) is what an H100/H200 printed;
compare.py checks `approx(...)` lines within their bound, all others byte for byte.
"""
import math
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261122)


def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def rand_bits(n, bits):
    return [rng.getrandbits(bits) for _ in range(n)]


def rand_f32(n, lo=-40, hi=40):
    return [f32(rng.choice((-1, 1)) * rng.uniform(1, 2) * 2.0 ** rng.randint(lo, hi)) for _ in range(n)]


def rand_f64(n, lo=-300, hi=300):
    return [f64(rng.choice((-1, 1)) * rng.uniform(1, 2) * 2.0 ** rng.randint(lo, hi)) for _ in range(n)]


# --- input domains: (leading special values used pairwise, further values)
U16 = ([0, 1, 2, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0x8001, 0xFFFE, 0xFFFF], rand_bits(6, 16))
U32 = ([0, 1, 2, 3, 0x80, 0xFF, 0xFFFF, 0x10000, 0x7FFFFFFE, 0x7FFFFFFF, 0x80000000, 0x80000001,
        0xFFFFFFFE, 0xFFFFFFFF, 0xFFFF8000, 0x1000001],
       [0x7F, 0x100, 0x7FFF, 0x8000, 0xFFFFFF80, 0x00FFFFFF, 0x55555555, 0xAAAAAAAA] + rand_bits(10, 32))
U64 = ([0, 1, 2, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x100000000, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000,
        0x8000000000000001, 0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFE, 0xFFFFFFFF80000000, 0x20000000000001],
       [0x1FFFFFFFFFFFFF, 0xFFFFFFFF00000000, 0x00000000FFFFFFFE, 0x5555555555555555] + rand_bits(10, 64))
SHIFT = ([0, 1, 2, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 255, 256, 0xFFFFFFFF], [0x80000000, 0x101, 17, 0x21])
BITPOS = ([0, 1, 4, 8, 15, 16, 24, 31, 32, 33, 63, 64, 255, 256, 0x101], [])
PRED = ([0, 1], [])
PRMT_SEL = ([0x3210, 0x7654, 0x0000, 0x1111, 0x4321, 0x89AB, 0xCDEF, 0xFFFF, 0x8888, 0, 1, 2, 3, 4, 5, 6, 7],
            rand_bits(8, 32) + rand_bits(6, 16))
FNS_BASE = ([0, 1, 5, 16, 31, 32, 0xFFFFFFFF], [])
FNS_OFFSET = ([0, 1, 2, 3, 0xFFFFFFFF, 0xFFFFFFFE, 5, 0xFFFFFFFB, 32, 0xFFFFFFE0, 33], [])
LEN32 = ([0, 1, 8, 16, 31, 32, 33, 64, 255], [])


def f32_specials():
    return [0, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000,
            0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, f32(1.0), f32(-1.0), f32(0.5), f32(1.5),
            f32(3.0), 0x3F800001, 0x33800000]


F32 = (f32_specials(),
       [f32(x) for x in (-2.5, 2.5, 0.1, math.pi, -0.75, 2.0 ** 24, 2.0 ** 31, -2.0 ** 31, 2.0 ** 32, 2147483520.0,
                         4294967040.0, 2.0 ** 63, 2.0 ** 64, -2.0 ** 63, 1e10, -1e20, 65504.0, 8388607.5, 3.5,
                         -3.5, 4.5, -0.5, -1.5, 100.5, 1e30, -1e-30, 1e-38, 2.0 ** -126 * 1.5, 2.0 ** -149 * 3,
                         2.0 ** 127, 0.49999997, -1.0 / 3)]
       + [0x00400000, 0x7FFFFFFF, 0xFF800123, 0x3F7FFFFF, 0x3FFFFFFF] + rand_f32(12))
F64 = ([0, 0x8000000000000000, 1, 0x800FFFFFFFFFFFFF, 0x0010000000000000, 0x8010000000000000,
        0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
        0xFFF8000000000001, 0x7FF0000000000001, f64(1.0), f64(-1.0), f64(0.5), f64(1.5), f64(3.0),
        0x3FF0000000000001, f64(2.0 ** -53)],
       [f64(x) for x in (-2.5, 2.5, 0.1, math.pi, -0.75, 2.0 ** 31, -2.0 ** 31, 2.0 ** 32, 4294967295.5,
                         2.0 ** 63, 2.0 ** 64, -2.0 ** 63, 2.0 ** 53 + 2, 1e300, 1e-300, 3.5, -3.5, 4.5, -0.5,
                         100.5, 2.0 ** -1022 * 1.5, 2.0 ** -1074 * 3, 2147483647.5, -2147483648.5,
                         3.4028235677973366e38, 3.4028235677973362e38, 1.1754942106924411e-38, 1e-45,
                         1.401298464324817e-45, 0.7006492321624085e-45, -1.0 / 3)]
       + [0x7FF8000000000123, 0x3FEFFFFFFFFFFFFF] + rand_f64(12))
# Conversion sources: integers whose float images round (ties at 2^24+1, 2^53+1).
CVT_U32 = (U32[0] + [0x1000003, 0x7FFFFFC0, 0x7FFFFF80, 0xFFFFFF7F, 0xFFFFFFC0, 0x80000040, 0x2000005],
           U32[1])
CVT_U64 = (U64[0] + [0x20000000000003, 0x7FFFFFFFFFFFFE00, 0xFFFFFFFFFFFFFBFF, 0x1000001, 0x8000008000000000,
                     0x8000010000000000, 0xFFFFFF7FFFFFFFFF], U64[1])
# Domains where the approximate instructions have a stated bound.
TRIG = ([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, f32(1.0), f32(-1.0), f32(0.5), f32(math.pi),
         f32(-math.pi / 2), f32(100.0), f32(-300.0), f32(1e-3), f32(1e-20), 0x00000001],
        [f32(rng.uniform(-100 * math.pi, 100 * math.pi)) for _ in range(24)])
EX2 = ([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, f32(1.0), f32(-1.0), f32(0.5), f32(127.0),
        f32(128.0), f32(-126.0), f32(-149.0), f32(-150.0), f32(1e-20)],
       [f32(rng.uniform(-125, 127)) for _ in range(24)])
POSITIVE = ([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, f32(1.0), f32(-1.0), f32(2.0), f32(0.5),
             0x00000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, f32(3.0), f32(4.0)],
            [v & 0x7FFFFFFF for v in rand_f32(24, -126, 126)])
TANH = (TRIG[0] + [f32(x) for x in (5.0, -5.0, 9.0, 20.0, 0.25)], [f32(rng.uniform(-6, 6)) for _ in range(20)])
DIV_APPROX_Y = ([f32(x) for x in (1.0, -1.0, 3.0, 0.1, 7.0, 1e-30, 1e30, -2.5, 2.0 ** 125, 2.0 ** -125)],
                rand_f32(12, -120, 120))
RANGED = (F32[0][4:] + [f32(x) for x in (2.5, 0.1, 1e10, 1e-10, 7.0)], rand_f32(12, -120, 120))

# Every fp8 byte in both halves of a packed pair: byte i low, a permutation of i high.
FP8_PAIRS = ([0x0000, 0x7F7F, 0xFFFF, 0x7E7E, 0x7C7C, 0x8080, 0x0101, 0x3838],
             [((i * 0x9D + 0x35) & 0xFF) << 8 | i for i in range(256)])
# f16x2 sources: specials in both halves, then random halves.
F16_SPECIALS = [0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x5F00, 0x5F80, 0x7BFF, 0xFBFF, 0x7C00,
                0xFC00, 0x7E00, 0xFE01, 0x7C01, 0x1C00, 0x1800, 0x2000, 0x4300, 0x7A00, 0x7B00]
F16X2 = ([hi << 16 | lo for hi, lo in zip(F16_SPECIALS, reversed(F16_SPECIALS))],
         [rng.getrandbits(16) << 16 | rng.getrandbits(16) for _ in range(40)])
# f32 values around the narrow formats' ranges (e4m3 max 448, e5m2 57344) and their ties.
NARROW_F32 = (f32_specials(),
              [f32(x) for x in (448.0, 464.0, 480.0, -480.0, 57344.0, 61440.0, 65536.0, 2.0 ** -9, 2.0 ** -10,
                                3 * 2.0 ** -11, 2.0 ** -16, 2.0 ** -17, 1.0625, 1.125, 1.1875, -0.3, 0.1, 1e6,
                                -1e6, 3.5, 240.0, 248.0, 65504.0, 65520.0, 3.4e38, 1.0 + 2.0 ** -11)]
              + [f32(rng.choice((-1, 1)) * rng.uniform(1, 2) * 2.0 ** rng.randint(-20, 18)) for _ in range(24)])

# Packed lanes: half-words 0, 1, 0x7fff, 0x8000, 0xffff and bytes 0x7f, 0x80, 0xff side by side
# (in both halves), then random words.
SIMD = ([0, 0xFFFFFFFF, 0x7FFF8000, 0x80007FFF, 0xFFFF0001, 0x00017FFF, 0x7F80FF00, 0x807F00FF, 0x80808080,
         0x7F7F7F7F],
        [0xFF01807F, 0x01FF7F80, 0x8000FFFF, 0xFFFF8000, 0x00FF00FF, 0xFF00FF00, 0x7FFF7FFF, 0x80008000, 0x01010101, 0xFEFEFEFE]
        + rand_bits(12, 32))

DOMAINS = {"simd": SIMD, "fp8pairs": FP8_PAIRS, "f16x2": F16X2, "nf32": NARROW_F32, "u16": U16, "u32": U32, "u64": U64, "shift": SHIFT, "bitpos": BITPOS, "pred": PRED, "sel": PRMT_SEL,
           "fnsbase": FNS_BASE, "fnsoff": FNS_OFFSET, "len": LEN32, "f32": F32, "f64": F64, "cu32": CVT_U32,
           "cu64": CVT_U64, "trig": TRIG, "ex2": EX2, "pos": POSITIVE, "tanh": TANH, "ydiv": DIV_APPROX_Y,
           "ranged": RANGED}

# Register kinds: the C type carrying the bits, its inline-asm constraint, its hex width.
KINDS = {"h": ("unsigned short", "h", 4), "r": ("unsigned", "r", 8), "l": ("unsigned long long", "l", 16),
         "f": ("float", "f", 8), "d": ("double", "d", 16), "p": ("unsigned", "r", 1)}
DEFAULT_DOMAIN = {"h": "u16", "r": "u32", "l": "u64", "f": "f32", "d": "f64", "p": "pred"}

# Approximate instructions: the bound the PTX ISA 9.0 states for each (§9.7.3: div, rcp,
# sqrt, rsqrt, sin, cos, lg2, ex2, tanh), as `rel=2^-E` (relative error), `abs=2^-E`
# (absolute error) or `ulp=N`, for the inputs the tests give them. compare.py accepts a
# cucpu result within that bound of the GPU's plus one ulp (cucpu's own rounding).
APPROX = {
    "div.approx": "ulp=2",       # |y| in [2^-126, 2^126]: max 2 ulp
    "div.full": "ulp=2",         # full range: max 2 ulp
    "rcp.approx": "ulp=1",       # max 1 ulp over the full range
    "sqrt.approx": "rel=2^-23",  # max relative error 2^-23
    "rsqrt.approx": "rel=2^-22.9",
    "ex2.approx": "ulp=2",       # max 2 ulp over the full range
    "lg2.approx": "abs=2^-22,rel=2^-22",  # absolute 2^-22 in (0.5, 2), relative 2^-22 beyond
    "sin.approx": "abs=2^-14.7",  # in -100pi..100pi (2^-20.5 in -2pi..2pi)
    "cos.approx": "abs=2^-14.7",
    "tanh.approx": "rel=2^-10.987",
}


class Form:
    def __init__(self, text, outs, ins, domains=None, body=None, code=None, name=None):
        self.outs, self.ins = outs, ins
        self.domains = domains or [DEFAULT_DOMAIN[k] for k in ins]
        self.body, self.code = body, code
        self.name = name or text
        self.text = text
        self.tag = next((f"approx({bound})" for op, bound in APPROX.items() if self.name.startswith(op)), None)


def op(text, outs, ins, domains=None):
    """One instruction `text d, a, b, ...` (or with `d|e` for two predicate results)."""
    dsts = "|".join("{d%d}" % i for i in range(len(outs)))
    srcs = ", ".join("{a%d}" % i for i in range(len(ins)))
    return Form(text, outs, ins, domains, body=f"{text} {dsts}, {srcs};")


def seq(name, outs, ins, body, domains=None):
    return Form(name, outs, ins, domains, body=body, name=name)


# --------------------------------------------------------------------------- families
def integer_arithmetic():
    F = []
    for t, k in (("s32", "r"), ("u32", "r"), ("s64", "l"), ("u64", "l"), ("s16", "h"), ("u16", "h")):
        F += [op(f"add.{t}", k, k + k), op(f"sub.{t}", k, k + k)]
    F += [op("add.sat.s32", "r", "rr"), op("sub.sat.s32", "r", "rr")]
    # Carry chains: the second instruction shows CC.CF as the first left it.
    for w, k in (("u32", "r"), ("u64", "l")):
        for first in ("add.cc", "sub.cc"):
            for second in ("addc", "subc"):
                F.append(seq(f"{first}.{w}+{second}.{w}", k + k, k * 4,
                             f"{first}.{w} {{d0}}, {{a0}}, {{a1}}; {second}.{w} {{d1}}, {{a2}}, {{a3}};"))
        F.append(seq(f"add.cc.{w}+addc.cc.{w}+addc.{w}", k + k, k * 4,
                     f"{{ .reg .b{w[1:]} t; add.cc.{w} t, {{a0}}, {{a1}}; addc.cc.{w} {{d0}}, {{a2}}, {{a3}}; "
                     f"addc.{w} {{d1}}, 0, 0; }}"))
        F.append(seq(f"sub.cc.{w}+subc.cc.{w}+subc.{w}", k + k, k * 4,
                     f"{{ .reg .b{w[1:]} t; sub.cc.{w} t, {{a0}}, {{a1}}; subc.cc.{w} {{d0}}, {{a2}}, {{a3}}; "
                     f"subc.{w} {{d1}}, 0, 0; }}"))
    F.append(seq("mad.lo.cc.u32+madc.hi.u32", "rr", "rrrr",
                  "mad.lo.cc.u32 {d0}, {a0}, {a1}, {a2}; madc.hi.u32 {d1}, {a0}, {a1}, {a3};"))
    F.append(seq("mad.lo.cc.u32+madc.hi.cc.u32+addc.u32", "rr", "rrrr",
                  "{ .reg .b32 t; mad.lo.cc.u32 t, {a0}, {a1}, {a2}; madc.hi.cc.u32 {d0}, {a0}, {a1}, {a3}; "
                  "addc.u32 {d1}, 0, 0; }"))
    F.append(seq("mad.lo.cc.u64+madc.hi.u64", "ll", "llll",
                  "mad.lo.cc.u64 {d0}, {a0}, {a1}, {a2}; madc.hi.u64 {d1}, {a0}, {a1}, {a3};"))
    for t, k in (("s32", "r"), ("u32", "r"), ("s64", "l"), ("u64", "l"), ("s16", "h"), ("u16", "h")):
        F += [op(f"mul.lo.{t}", k, k + k), op(f"mul.hi.{t}", k, k + k),
              op(f"mad.lo.{t}", k, k * 3), op(f"mad.hi.{t}", k, k * 3)]
    for t, k, w in (("s32", "r", "l"), ("u32", "r", "l"), ("s16", "h", "r"), ("u16", "h", "r")):
        F += [op(f"mul.wide.{t}", w, k + k), op(f"mad.wide.{t}", w, k + k + w)]
    F.append(op("mad.hi.sat.s32", "r", "rrr"))
    for t in ("s32", "u32"):
        F += [op(f"mul24.lo.{t}", "r", "rr"), op(f"mul24.hi.{t}", "r", "rr"),
              op(f"mad24.lo.{t}", "r", "rrr"), op(f"mad24.hi.{t}", "r", "rrr")]
    F.append(op("mad24.hi.sat.s32", "r", "rrr"))
    for t, k in (("s32", "r"), ("u32", "r"), ("s64", "l"), ("u64", "l"), ("s16", "h"), ("u16", "h")):
        F += [op(f"sad.{t}", k, k * 3), op(f"div.{t}", k, k + k), op(f"rem.{t}", k, k + k),
              op(f"min.{t}", k, k + k), op(f"max.{t}", k, k + k)]
    for t, k in (("s32", "r"), ("s64", "l"), ("s16", "h")):
        F += [op(f"abs.{t}", k, k), op(f"neg.{t}", k, k)]
    F += [op("min.relu.s32", "r", "rr"), op("max.relu.s32", "r", "rr")]
    return F


def bit_manipulation():
    F = []
    for t, k in (("b16", "h"), ("b32", "r"), ("b64", "l")):
        F += [op(f"and.{t}", k, k + k), op(f"or.{t}", k, k + k), op(f"xor.{t}", k, k + k),
              op(f"not.{t}", k, k), op(f"cnot.{t}", k, k)]
    F += [op("and.pred", "p", "pp"), op("or.pred", "p", "pp"), op("xor.pred", "p", "pp"), op("not.pred", "p", "p")]
    for t, k in (("b32", "r"), ("b64", "l")):
        F += [op(f"popc.{t}", "r", k), op(f"clz.{t}", "r", k), op(f"brev.{t}", k, k)]
    for t, k in (("u32", "r"), ("s32", "r"), ("u64", "l"), ("s64", "l")):
        F += [op(f"bfind.{t}", "r", k), op(f"bfind.shiftamt.{t}", "r", k)]
        F.append(op(f"bfe.{t}", k, k + "rr", [DEFAULT_DOMAIN[k], "bitpos", "bitpos"]))
    for t, k in (("b32", "r"), ("b64", "l")):
        F.append(op(f"bfi.{t}", k, k + k + "rr", [DEFAULT_DOMAIN[k]] * 2 + ["bitpos", "bitpos"]))
    F.append(op("fns.b32", "r", "rrr", ["u32", "fnsbase", "fnsoff"]))
    F.append(op("prmt.b32", "r", "rrr", ["u32", "u32", "sel"]))
    for mode in ("f4e", "b4e", "rc8", "ecl", "ecr", "rc16"):
        F.append(op(f"prmt.b32.{mode}", "r", "rrr", ["u32", "u32", "sel"]))
    for d in ("l", "r"):
        for m in ("wrap", "clamp"):
            F.append(op(f"shf.{d}.{m}.b32", "r", "rrr", ["u32", "u32", "shift"]))
    for t, k in (("b16", "h"), ("b32", "r"), ("b64", "l"), ("u16", "h"), ("s16", "h"), ("u32", "r"),
                 ("s32", "r"), ("u64", "l"), ("s64", "l")):
        if t[0] == "b":
            F.append(op(f"shl.{t}", k, k + "r", [DEFAULT_DOMAIN[k], "shift"]))
        else:
            F.append(op(f"shr.{t}", k, k + "r", [DEFAULT_DOMAIN[k], "shift"]))
    for lut in (0x00, 0xFF, 0x96, 0xE8, 0xCA, 0x80, 0xFE, 0x1E, 0x6A, 0x3C, 0xF0, 0xAA):
        F.append(seq(f"lop3.b32.0x{lut:02x}", "r", "rrr", f"lop3.b32 {{d0}}, {{a0}}, {{a1}}, {{a2}}, 0x{lut:02x};"))
    for a in ("u32", "s32"):
        for b in ("u32", "s32"):
            F.append(op(f"dp4a.{a}.{b}", "r", "rrr"))
            for part in ("lo", "hi"):
                F.append(op(f"dp2a.{part}.{a}.{b}", "r", "rrr"))
    for m in ("clamp", "wrap"):
        F.append(op(f"bmsk.{m}.b32", "r", "rr", ["shift", "shift"]))
        for t in ("s32", "u32"):
            F.append(op(f"szext.{m}.{t}", "r", "rr", ["u32", "shift"]))
    return F


def float_arithmetic(t):
    k = "f" if t == "f32" else "d"
    F = []
    for rnd in ("rn", "rz", "rm", "rp"):
        for o in ("add", "sub", "mul"):
            F.append(op(f"{o}.{rnd}.{t}", k, k + k))
        F.append(op(f"fma.{rnd}.{t}", k, k * 3))
        F.append(op(f"div.{rnd}.{t}", k, k + k))
        F.append(op(f"sqrt.{rnd}.{t}", k, k))
        F.append(op(f"rcp.{rnd}.{t}", k, k))
    F += [op(f"add.{t}", k, k + k), op(f"mul.{t}", k, k + k), op(f"mad.rn.{t}", k, k * 3)]
    F += [op(f"neg.{t}", k, k), op(f"abs.{t}", k, k), op(f"min.{t}", k, k + k), op(f"max.{t}", k, k + k)]
    F += [op(f"copysign.{t}", k, k + k)]
    for p in ("finite", "infinite", "number", "notanumber", "normal", "subnormal"):
        F.append(op(f"testp.{p}.{t}", "p", k))
    if t == "f64":
        return F
    for rnd in ("rn", "rz", "rm", "rp"):
        for o in ("add", "mul"):
            F.append(op(f"{o}.{rnd}.ftz.{t}", k, k + k))
        F.append(op(f"fma.{rnd}.ftz.{t}", k, k * 3))
    F += [op("sub.rn.ftz.f32", k, k + k), op("div.rn.ftz.f32", k, k + k), op("div.rz.ftz.f32", k, k + k),
          op("sqrt.rn.ftz.f32", k, k), op("rcp.rn.ftz.f32", k, k), op("rcp.rm.ftz.f32", k, k)]
    F += [op("add.sat.f32", k, k + k), op("add.rz.ftz.sat.f32", k, k + k), op("mul.sat.f32", k, k + k),
          op("fma.rn.sat.f32", k, k * 3), op("mad.rn.ftz.sat.f32", k, k * 3), op("sub.rm.sat.f32", k, k + k)]
    F += [op("neg.ftz.f32", k, k), op("abs.ftz.f32", k, k), op("min.ftz.f32", k, k + k),
          op("max.ftz.f32", k, k + k), op("min.NaN.f32", k, k + k), op("max.NaN.f32", k, k + k),
          op("min.ftz.NaN.f32", k, k + k), op("min.xorsign.abs.f32", k, k + k),
          op("max.xorsign.abs.f32", k, k + k), op("max.NaN.xorsign.abs.f32", k, k + k)]
    # Approximate forms (compared within the bound APPROX states).
    F += [op("div.full.f32", k, "ff", ["ranged", "ydiv"]), op("div.full.ftz.f32", k, "ff", ["ranged", "ydiv"]),
          op("div.approx.f32", k, "ff", ["ranged", "ydiv"]), op("div.approx.ftz.f32", k, "ff", ["ranged", "ydiv"])]
    for fn, dom in (("rcp", "f32"), ("sqrt", "pos"), ("rsqrt", "pos"), ("ex2", "ex2"), ("lg2", "pos"),
                    ("sin", "trig"), ("cos", "trig")):
        F.append(op(f"{fn}.approx.{t}", k, k, [dom]))
        F.append(op(f"{fn}.approx.ftz.{t}", k, k, [dom]))
    F.append(op("tanh.approx.f32", k, k, ["tanh"]))
    return F


COMPARE_F = ("eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan")


def comparison():
    F = []
    for t, k, cmps in (("s32", "r", ("eq", "ne", "lt", "le", "gt", "ge")),
                       ("u32", "r", ("eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs")),
                       ("s64", "l", ("lt", "ge")), ("u64", "l", ("lo", "hs", "eq")), ("b16", "h", ("eq", "ne")),
                       ("s16", "h", ("lt", "gt")), ("b32", "r", ("eq", "ne")), ("f32", "f", COMPARE_F),
                       ("f64", "d", COMPARE_F)):
        for c in cmps:
            F.append(op(f"setp.{c}.{t}", "p", k + k))
    F += [op("setp.lt.ftz.f32", "p", "ff"), op("setp.equ.ftz.f32", "p", "ff")]
    for t, k in (("s32", "r"), ("f32", "f")):
        for bop in ("and", "or", "xor"):
            F.append(seq(f"setp.lt.{bop}.{t} p|q, a, b, c", "pp", k + k + "p",
                          f"setp.lt.{bop}.{t} {{d0}}|{{d1}}, {{a0}}, {{a1}}, {{a2}};"))
            F.append(seq(f"setp.ge.{bop}.{t} p|q, a, b, !c", "pp", k + k + "p",
                          f"setp.ge.{bop}.{t} {{d0}}|{{d1}}, {{a0}}, {{a1}}, !{{a2}};"))
    F.append(seq("setp.nan.f64 p|q", "pp", "dd", "setp.nan.f64 {d0}|{d1}, {a0}, {a1};"))
    for d, dk in (("u32", "r"), ("s32", "r"), ("f32", "f")):
        for c, t, k in (("lt", "s32", "r"), ("hi", "u32", "r"), ("ltu", "f32", "f"), ("ge", "f64", "d")):
            F.append(op(f"set.{c}.{d}.{t}", dk, k + k))
    F.append(op("set.gt.ftz.f32.f32", "f", "ff"))
    F += [op("set.eq.and.u32.s32", "r", "rrp"), op("set.num.or.f32.f32", "f", "ffp"),
          op("set.ne.xor.s32.u64", "r", "llp")]
    F += [op("selp.b32", "r", "rrp"), op("selp.b64", "l", "llp"), op("selp.f32", "f", "ffp"),
          op("selp.b16", "h", "hhp")]
    F += [op("slct.b32.s32", "r", "rrr"), op("slct.f32.s32", "f", "ffr"), op("slct.b32.f32", "r", "rrf"),
          op("slct.ftz.b32.f32", "r", "rrf"), op("slct.b64.s32", "l", "llr"), op("slct.f64.f32", "d", "ddf")]
    return F


INTS = {"u8": "r", "s8": "r", "u16": "h", "s16": "h", "u32": "r", "s32": "r", "u64": "l", "s64": "l"}


def int_range(t):
    bits = int(t[1:])
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if t[0] == "s" else (0, (1 << bits) - 1)


def fits(s, d):
    return int_range(d)[0] <= int_range(s)[0] and int_range(s)[1] <= int_range(d)[1]


def int_domain(t):
    return {"h": "u16", "r": "cu32", "l": "cu64"}[INTS[t]]


def conversion():
    F = []
    for d in INTS:
        for s in INTS:
            if d == s:
                continue
            F.append(op(f"cvt.{d}.{s}", INTS[d], INTS[s], [int_domain(s)]))
            if not fits(s, d):  # ptxas refuses .sat where nothing can saturate
                F.append(op(f"cvt.sat.{d}.{s}", INTS[d], INTS[s], [int_domain(s)]))
    for ft, fk in (("f32", "f"), ("f64", "d")):
        for d in INTS:
            for rnd in ("rni", "rzi", "rmi", "rpi"):
                F.append(op(f"cvt.{rnd}.{d}.{ft}", INTS[d], fk))
        for s in INTS:
            exact = ft == "f64" and s[1:] != "64"
            for rnd in ("rn",) if exact else ("rn", "rz", "rm", "rp"):
                F.append(op(f"cvt.{rnd}.{ft}.{s}", fk, INTS[s], [int_domain(s)]))
        for rnd in ("rni", "rzi", "rmi", "rpi"):
            F.append(op(f"cvt.{rnd}.{ft}.{ft}", fk, fk))
        F.append(op(f"cvt.rni.sat.{ft}.{ft}", fk, fk))
    F += [op("cvt.rzi.ftz.s32.f32", "r", "f"), op("cvt.rni.ftz.f32.f32", "f", "f"), op("cvt.sat.f32.f32", "f", "f"),
          op("cvt.ftz.sat.f32.f32", "f", "f"), op("cvt.rn.sat.f32.s32", "f", "r", ["cu32"]),
          op("cvt.f64.f32", "d", "f"), op("cvt.ftz.f64.f32", "d", "f"), op("cvt.sat.f64.f32", "d", "f")]
    for rnd in ("rn", "rz", "rm", "rp"):
        F.append(op(f"cvt.{rnd}.f32.f64", "f", "d"))
    F += [op("cvt.rn.ftz.f32.f64", "f", "d"), op("cvt.rn.sat.f32.f64", "f", "d"),
          op("cvt.rz.ftz.sat.f32.f64", "f", "d")]
    return F


def narrow_conversion():
    """cvt to and from fp8 pairs, and .satfinite to f16/bf16/tf32 (the sm_90 forms: fp6, fp4
    and ue8m0 need sm_100, so no H100/H200 can take their expected output)."""
    F = []
    for t in ("e4m3x2", "e5m2x2"):
        for relu in ("", ".relu"):
            F.append(op(f"cvt.rn.satfinite{relu}.{t}.f32", "h", "ff", ["nf32", "nf32"]))
            F.append(op(f"cvt.rn.satfinite{relu}.{t}.f16x2", "h", "r", ["f16x2"]))
            F.append(op(f"cvt.rn{relu}.f16x2.{t}", "r", "h", ["fp8pairs"]))
    for t in ("f16", "bf16"):
        for relu in ("", ".relu"):
            F.append(op(f"cvt.rn{relu}.satfinite.{t}.f32", "h", "f", ["nf32"]))
            F.append(op(f"cvt.rn{relu}.satfinite.{t}x2.f32", "r", "ff", ["nf32", "nf32"]))
    F += [op("cvt.rna.satfinite.tf32.f32", "r", "f", ["nf32"]), op("cvt.rna.tf32.f32", "r", "f", ["nf32"])]
    return F


VIDEO_OPS = ("vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax")
VIDEO_CMPS = ("eq", "ne", "lt", "le", "gt", "ge")
# Every __v* intrinsic of crt/device_functions.h, by argument count.
SIMD_UNARY = ("abs2", "abs4", "absss2", "absss4", "neg2", "neg4", "negss2", "negss4")
SIMD_BINARY = tuple(f"{o}{n}" for o in ("absdiffs", "absdiffu", "add", "addss", "addus", "avgs", "avgu", "cmpeq",
                                        "cmpges", "cmpgeu", "cmpgts", "cmpgtu", "cmples", "cmpleu", "cmplts",
                                        "cmpltu", "cmpne", "haddu", "maxs", "maxu", "mins",
                                        "minu", "sads", "sadu", "seteq", "setges", "setgeu", "setgts", "setgtu",
                                        "setles", "setleu", "setlts", "setltu", "setne", "sub", "subss", "subus")
                    for n in (2, 4))
SIMD_RELU = ("imax_s32_relu", "imax_s16x2_relu", "imin_s32_relu", "imin_s16x2_relu")
SIMD_TERNARY = tuple(f"{o}_{t}" for o in ("imax3", "imin3", "iaddmax", "iaddmin") for t in ("s32", "s16x2", "u32", "u16x2")) \
    + tuple(f"{o}_{t}_relu" for o in ("imax3", "imin3", "iaddmax", "iaddmin") for t in ("s32", "s16x2"))
SIMD_BOOL = tuple(f"ib{o}_{t}" for o in ("max", "min") for t in ("s32", "u32", "s16x2", "u16x2"))


def simd():
    """add/min/max on .u16x2/.s16x2, the SIMD video instructions (vadd2 ... vset4: types,
    .sat, .add, masks and selectors) and every __v* intrinsic of device_functions.h."""
    F = []
    for t in ("u16x2", "s16x2"):
        F += [op(f"add.{t}", "r", "rr", ["simd"] * 2), op(f"min.{t}", "r", "rr", ["simd"] * 2),
              op(f"max.{t}", "r", "rr", ["simd"] * 2)]
    F += [op("min.relu.s16x2", "r", "rr", ["simd"] * 2), op("max.relu.s16x2", "r", "rr", ["simd"] * 2),
          op("max.s16x2.relu", "r", "rr", ["simd"] * 2)]

    def video(text, three, body_operands):
        # Without .add or a mask, c is ignored: pass a again so that a and b run pairwise.
        ins = "rrr" if three else "rr"
        return seq(text, "r", ins, f"{text.split(' ')[0]} {body_operands};", ["simd"] * len(ins))

    for n in (2, 4):
        h = "h" if n == 2 else "b"
        mask, asel, bsel = (".h0", ".h01", ".h23") if n == 2 else (".b20", ".b0527", ".b7014")
        for o in VIDEO_OPS:
            for types in ("u32.u32.u32", "s32.s32.s32", "s32.u32.s32", "u32.s32.u32"):
                F.append(video(f"{o}{n}.{types}", False, "{d0}, {a0}, {a1}, {a0}"))
            for types in ("u32.u32.u32", "s32.s32.s32", "u32.s32.s32"):
                F.append(video(f"{o}{n}.{types}.sat", False, "{d0}, {a0}, {a1}, {a0}"))
            for types in ("u32.u32.u32", "s32.s32.s32"):
                F.append(video(f"{o}{n}.{types}.add", True, "{d0}, {a0}, {a1}, {a2}"))
            F.append(video(f"{o}{n}.s32.s32.u32.sat d{mask}, a{asel}, b{bsel}, c", True,
                           f"{{d0}}{mask}, {{a0}}{asel}, {{a1}}{bsel}, {{a2}}"))
            F.append(video(f"{o}{n}.u32.u32.s32.add d{mask}, a{bsel}, b{asel}, c", True,
                           f"{{d0}}{mask}, {{a0}}{bsel}, {{a1}}{asel}, {{a2}}"))
        for c in VIDEO_CMPS:
            for types in ("u32.u32", "s32.s32"):
                F.append(video(f"vset{n}.{types}.{c}", False, "{d0}, {a0}, {a1}, {a0}"))
        for c in ("lt", "ge"):
            F.append(video(f"vset{n}.s32.u32.{c}", False, "{d0}, {a0}, {a1}, {a0}"))
            F.append(video(f"vset{n}.u32.s32.{c}.add", True, "{d0}, {a0}, {a1}, {a2}"))
        F.append(video(f"vset{n}.s32.s32.ne d{mask}, a{asel}, b{bsel}, c", True,
                       f"{{d0}}{mask}, {{a0}}{asel}, {{a1}}{bsel}, {{a2}}"))

    def call(name, outs, ins, code):
        return Form(name, outs, ins, ["simd"] * len(ins), code=code)

    for f in SIMD_UNARY:
        F.append(call(f"__v{f}(a)", "r", "r", f"o0 = __v{f}((unsigned)a0);"))
    for f in SIMD_BINARY + SIMD_RELU:
        F.append(call(f"__v{f}(a,b)", "r", "rr", f"o0 = (unsigned)__v{f}((unsigned)a0, (unsigned)a1);"))
    for f in SIMD_TERNARY:
        F.append(call(f"__v{f}(a,b,c)", "r", "rrr", f"o0 = (unsigned)__v{f}((unsigned)a0, (unsigned)a1, (unsigned)a2);"))
    for f in SIMD_BOOL:  # the predicates as 0x0100 (hi) | 0x0001 (lo, or the only one)
        if f.endswith("x2"):
            code = (f"bool hi, lo; o0 = (unsigned)__v{f}((unsigned)a0, (unsigned)a1, &hi, &lo); "
                    f"o1 = (hi ? 0x100u : 0u) | (lo ? 1u : 0u);")
        else:
            code = f"bool p; o0 = (unsigned)__v{f}((unsigned)a0, (unsigned)a1, &p); o1 = p ? 1u : 0u;"
        F.append(call(f"__v{f}(a,b)", "rh", "rr", code))
    return F


def atomics():
    F = []
    for space in ("global", "shared"):
        for o, t, k in (("add", "u32", "r"), ("add", "u64", "l"), ("add", "f32", "f"), ("add", "f64", "d"),
                        ("inc", "u32", "r"), ("dec", "u32", "r"), ("exch", "b32", "r"), ("exch", "b64", "l"),
                        ("min", "s32", "r"), ("min", "u32", "r"), ("max", "s32", "r"), ("max", "u32", "r"),
                        ("min", "s64", "l"), ("max", "u64", "l"), ("and", "b32", "r"), ("or", "b64", "l"),
                        ("xor", "b32", "r")):
            F.append(atomic_form(space, f"{o}.{t}", k, 1))
        F.append(atomic_form(space, "cas.b32", "r", 2))
        F.append(atomic_form(space, "cas.b64", "l", 2))
    return F


def atomic_form(space, what, k, operands):
    """Each thread's own slot holds the first input; prints the old value and the new one."""
    ctype, cons, _ = KINDS[k]
    srcs = "".join(f", %{i + 2}" for i in range(operands))
    addr_cons, addr = ("l", "slot") if space == "global" else ("r", "(unsigned)__cvta_generic_to_shared(slot)")
    args = ", ".join(f'"{cons}"({cvt_in(k, f"a{i + 1}")})' for i in range(operands))
    code = (f"{ctype}* slot = ({ctype}*)({'scratch + i' if space == 'global' else 'shared_slots + threadIdx.x'});\n"
            f"      *slot = {cvt_in(k, 'a0')}; {ctype} old;\n"
            f'      asm volatile("atom.{space}.{what} %0, [%1]{srcs};" : "={cons}"(old) : "{addr_cons}"({addr}), '
            f"{args} : \"memory\");\n"
            f"      o0 = {cvt_out(k, 'old')}; o1 = {cvt_out(k, '*slot')};")
    return Form(f"atom.{space}.{what}", k + k, k * (operands + 1), code=code)


# --------------------------------------------------------------------------- emitting
def cvt_in(k, v):
    return {"h": f"(unsigned short){v}", "r": f"(unsigned){v}", "l": v, "f": f"__uint_as_float((unsigned){v})",
            "d": f"__longlong_as_double((long long){v})", "p": f"(unsigned){v}"}[k]


def cvt_out(k, v):
    return {"h": v, "r": v, "l": v, "f": f"__float_as_uint({v})", "d": f"(unsigned long long)__double_as_longlong({v})",
            "p": v}[k]


def asm_case(form):
    """The C statements computing o0, o1 from a0..a3 for one form."""
    if form.code:
        return form.code
    decls, pre, post, subst = [], [], [], {}
    outs, ins = [], []
    for i, k in enumerate(form.outs):
        n = len(outs)
        outs.append(f'"={KINDS[k][1]}"(r{i})')
        if k == "p":
            decls.append(f"qd{i}")
            post.append(f"selp.u32 %{n}, 1, 0, qd{i};")
            subst[f"d{i}"] = f"qd{i}"
        else:
            subst[f"d{i}"] = f"%{n}"
    for i, k in enumerate(form.ins):
        n = len(form.outs) + i
        ins.append(f'"{KINDS[k][1]}"(x{i})')
        if k == "p":
            decls.append(f"qa{i}")
            pre.append(f"setp.ne.u32 qa{i}, %{n}, 0;")
            subst[f"a{i}"] = f"qa{i}"
        else:
            subst[f"a{i}"] = f"%{n}"
    text = form.body
    for key, value in subst.items():
        text = text.replace("{" + key + "}", value)
    if decls:
        text = "{ .reg .pred " + ", ".join(decls) + "; " + " ".join(pre + [text] + post) + " }"
    lines = [f"{KINDS[k][0]} x{i} = {cvt_in(k, f'a{i}')};" for i, k in enumerate(form.ins)]
    lines += [f"{KINDS[k][0]} r{i};" for i, k in enumerate(form.outs)]
    lines.append(f'asm volatile("{text}" : {", ".join(outs)} : {", ".join(ins)});')
    lines += [f"o{i} = {cvt_out(k, f'r{i}')};" for i, k in enumerate(form.outs)]
    return "\n      ".join(lines)


HEADER = """\
// GENERATED by tests/isa/generate.py ({family}): edit the generator, not this file.
// {what}
// Every form runs over edge-case inputs, one thread per case; each line prints the form,
// the inputs and the results as hex bits (predicates as 0/1). expected/{family}.out is what
// a GPU printed; lines tagged approx(...) compare within that bound (tests/isa/compare.py).
#include "isa_harness.h"

#pragma nv_diag_suppress 550  // the inputs a form does not read
"""

DRIVER = """
static const Domain domains[] = {{{domain_list}}};
static const Form forms[] = {{
{form_list}
}};

int main() {{ return run_forms(forms, (int)(sizeof(forms) / sizeof(forms[0])), domains, run); }}
"""


def emit(family, what, forms):
    used = sorted({d for f in forms for d in f.domains}, key=list(DOMAINS).index)
    index = {d: i for i, d in enumerate(used)}
    out = [HEADER.format(family=family, what=what)]
    for d in used:
        lead, rest = DOMAINS[d]
        vals = ", ".join(f"0x{v:x}ull" for v in lead + rest)
        out.append(f"static const u64 dom_{d}[] = {{{vals}}};\nstatic const int dom_{d}_leading = {len(lead)};\n")
    out.append("__global__ void run(int form, int n, const u64* in0, const u64* in1, const u64* in2, const u64* in3,\n"
               "                    u64* out0, u64* out1, u64* scratch) {\n"
               "  __shared__ u64 shared_slots[128];\n"
               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  if (i >= n) return;\n"
               "  u64 a0 = in0[i], a1 = in1[i], a2 = in2[i], a3 = in3[i];\n"
               "  u64 o0 = 0, o1 = 0;\n"
               "  (void)a1; (void)a2; (void)a3; (void)scratch; (void)shared_slots;\n"
               "  switch (form) {\n")
    for n, f in enumerate(forms):
        out.append(f"    case {n}: {{  // {f.name}\n      {asm_case(f)}\n      break;\n    }}\n")
    out.append("  }\n  out0[i] = o0;\n  out1[i] = o1;\n}\n")
    rows = []
    for f in forms:
        doms = ", ".join(str(index[d]) for d in f.domains)
        widths = ", ".join(str(KINDS[k][2]) for k in f.ins + f.outs)
        tag = (f.tag + " ") if f.tag else ""
        rows.append(f'    {{"{f.name}", "{tag}", {len(f.ins)}, {{{doms}}}, {len(f.outs)}, {{{widths}}}}},')
    domain_list = ", ".join(f"VALUES(dom_{d})" for d in used)
    out.append(DRIVER.format(domain_list=domain_list, form_list="\n".join(rows)))
    with open(os.path.join(HERE, family + ".cu"), "w") as fh:
        fh.write("".join(out))
    return len(forms)


FAMILIES = [
    ("isa_integer", "Integer arithmetic: add sub (.sat, carry chains) mul mad mul24 mad24 sad div rem abs neg min max.",
     integer_arithmetic),
    ("isa_bits", "Logic and bits: and or xor not cnot popc clz bfind brev fns bfe bfi prmt shf shl shr lop3 dp4a "
     "dp2a bmsk szext.", bit_manipulation),
    ("isa_f32", "f32 arithmetic: add sub mul fma mad div sqrt rcp (all roundings, .ftz, .sat), approximate "
     "forms, neg abs min max copysign testp.", lambda: float_arithmetic("f32")),
    ("isa_f64", "f64 arithmetic: add sub mul fma mad div sqrt rcp (all roundings), neg abs min max copysign testp.",
     lambda: float_arithmetic("f64")),
    ("isa_compare", "Comparisons and selection: setp set (all comparisons, .and/.or/.xor, two results) selp slct.",
     comparison),
    ("isa_convert", "Conversions: cvt between integer types (.sat), integer <-> f32/f64 (all roundings), "
     "f32 <-> f64, float rounding to integer values.", conversion),
    ("isa_atomics", "Single-thread atomic semantics on global and shared memory: old and new value.", atomics),
    ("isa_simd", "Packed integers and SIMD video: add/min/max .u16x2 .s16x2 (.relu), vadd2 ... vset4 (.sat, "
     ".add, masks, selectors), every __v* intrinsic.", simd),
    ("isa_narrow_convert", "Conversions to and from fp8 pairs (e4m3x2, e5m2x2; .relu) and .satfinite to f16, "
     "bf16 (x2) and tf32.", narrow_conversion),
]

if __name__ == "__main__":
    for family, what, make in FAMILIES:
        print(family, emit(family, what, make()), "forms")
