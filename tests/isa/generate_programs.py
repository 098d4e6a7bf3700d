#!/usr/bin/env python3
"""Writes the instruction tests whose cases need their own kernels and launch shapes:

    python3 tests/isa/generate_programs.py   # rewrites isa_memory.cu isa_atomics_ext.cu
                                             # isa_special_registers.cu isa_control.cu

Each case is one kernel (inline PTX, `asm volatile`) launched on its own grid; thread t
reads one row of inputs and writes its results, and the host (isa_program_harness.h) prints
one line per row: `CASE INPUTS -> RESULTS` in hex. Everything printed is deterministic on a
GPU: values that are not (addresses, clocks, %warpid, %smid) are printed only as the
comparisons a program may rely on (0/1). expected/NAME.out is what a GPU printed, compared
byte for byte.
"""
import os
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from generate import F16_SPECIALS, f32, f32_specials  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261123)

# The 64 bytes every memory case loads (global, shared, local, const, param): bytes with and
# without their top bit at every alignment, f32 and f64 NaNs with payloads, subnormals.
PATTERN = [0x0123456789ABCDEF, 0xFEDCBA9876543210, 0x7F800001FFC00001, 0x7FF0000000000001,
           0x8000000080000000, 0x807FFFFF00000001, 0x00FF7F80FF00817E, 0xC0490FDB3F800000]

# Register kinds: C type, inline-asm constraint, hex digits printed, C expression of its bits.
KINDS = {"h": ("unsigned short", "h", 4), "r": ("unsigned", "r", 8), "l": ("u64", "l", 16),
         "f": ("float", "f", 8), "d": ("double", "d", 16)}


def bits(k, v):
    return {"f": f"__float_as_uint({v})", "d": f"(u64)__double_as_longlong({v})"}.get(k, f"(u64){v}")


def from_bits(k, v):
    return {"f": f"__uint_as_float((unsigned)({v}))", "d": f"__longlong_as_double((long long)({v}))",
            "h": f"(unsigned short)({v})", "r": f"(unsigned)({v})"}.get(k, f"(u64)({v})")


def asm(text, outs=(), ins=(), memory=True):
    """`asm volatile` with operands named in text as $o0.. (outputs) and $i0.. (inputs);
    outs and ins are (constraint, C expression) pairs."""
    for n, _ in enumerate(outs):
        text = text.replace(f"$o{n}", f"%{n}")
    for n, _ in enumerate(ins):
        text = text.replace(f"$i{n}", f"%{len(outs) + n}")
    assert "$" not in text, text
    o = ", ".join(f'"={c}"({e})' for c, e in outs)
    i = ", ".join(f'"{c}"({e})' for c, e in ins)
    clobber = ' : "memory"' if memory else ""
    return f'asm volatile("{text}" : {o} : {i}{clobber});'


class Case:
    """One kernel: `body` (C statements reading a[j], writing o[j]; PARAM names the kernel's
    Params parameter in PTX) run by rows threads (or the given launch shape)."""

    def __init__(self, name, body, out_widths, inputs=None, in_widths=(), rows=None, grid=(1, 1, 1),
                 block=None, smem=0, decls=""):
        self.name, self.body, self.out_widths, self.decls = name, body, list(out_widths), decls
        self.inputs = [tuple(r) for r in inputs] if inputs is not None else None
        self.in_widths = list(in_widths)
        self.rows = len(self.inputs) if self.inputs is not None else (rows or 1)
        if block is None:
            block = (min(self.rows, 128), 1, 1)
            grid = ((self.rows + 127) // 128, 1, 1)
        self.grid, self.block, self.smem = grid, block, smem
        assert self.inputs is None or all(len(r) == len(self.in_widths) for r in self.inputs), name
        assert len(self.in_widths) <= 8 and len(self.out_widths) <= 16, name


# ----------------------------------------------------------------------------- isa_memory
LOCAL_FILL = "".join(f"st.local.b64 [lbuf+{8 * j}], $i{j}; " for j in range(8))
PATTERN_INS = [("l", f"global_pattern[{j}]") for j in range(8)]

# How each space's address `ad` of the pattern plus the row's offset (C `off`) is formed:
# (PTX declarations and instructions, operands, address register type).
SPACES = {
    "global": ("cvta.to.global.u64 ad, $i0; add.u64 ad, ad, $i1;", [("l", "(u64)global_pattern"), ("l", "off")]),
    "shared": ("add.u32 ad, $i0, $i1;", [("r", "(unsigned)__cvta_generic_to_shared(shared_pattern)"),
                                         ("r", "(unsigned)off")]),
    "local": (".local .align 16 .b8 lbuf[64]; " + LOCAL_FILL + "mov.u64 ad, lbuf; add.u64 ad, ad, $i8;",
              PATTERN_INS + [("l", "off")]),
    "const": ("cvta.to.const.u64 ad, $i0; add.u64 ad, ad, $i1;", [("l", "(u64)const_pattern"), ("l", "off")]),
    "param": ("mov.u64 ad, PARAM; add.u64 ad, ad, $i0;", [("l", "off")]),
    "generic-global": ("add.u64 ad, $i0, $i1;", [("l", "(u64)global_pattern"), ("l", "off")]),
    "generic-shared": ("add.u64 ad, $i0, $i1;", [("l", "(u64)shared_pattern"), ("l", "off")]),
    "generic-local": (".local .align 16 .b8 lbuf[64]; " + LOCAL_FILL +
                      "mov.u64 ad, lbuf; cvta.local.u64 ad, ad; add.u64 ad, ad, $i8;", PATTERN_INS + [("l", "off")]),
    "generic-const": ("add.u64 ad, $i0, $i1;", [("l", "(u64)const_pattern"), ("l", "off")]),
    "generic-param": ("cvta.param.u64 ad, PARAM; add.u64 ad, ad, $i0;", [("l", "off")]),
}
SHARED_FILL = "for (int j = 0; j < 8; ++j) shared_pattern[j] = global_pattern[j];\n  "

# Loads: (type, vector length, destination kind). The scalar integer forms load into every
# register width (narrow values are sign- or zero-extended by the type).
LOADS_ALL = ([(t, 1, k) for t in ("b8", "u8", "s8") for k in "hrl"] +
             [(t, 1, k) for t in ("b16", "u16", "s16") for k in "hrl"] +
             [(t, 1, k) for t in ("b32", "u32", "s32") for k in "rl"] + [("f32", 1, "f")] +
             [(t, 1, "l") for t in ("b64", "u64", "s64")] + [("f64", 1, "d"), ("b128", 1, "l")] +
             [("u8", 2, "h"), ("s8", 2, "r"), ("u8", 4, "r"), ("s8", 4, "h"), ("b16", 2, "h"), ("s16", 2, "r"),
              ("u16", 4, "h"), ("s16", 4, "l"), ("b32", 2, "r"), ("f32", 2, "f"), ("u32", 4, "r"), ("s32", 4, "l"),
              ("f32", 4, "f"), ("b64", 2, "l"), ("s64", 2, "l"), ("f64", 2, "d")])
LOADS_SOME = [("s8", 1, "r"), ("u8", 1, "h"), ("s16", 1, "l"), ("u16", 1, "r"), ("b32", 1, "r"), ("s32", 1, "l"),
              ("f32", 1, "f"), ("b64", 1, "l"), ("f64", 1, "d"), ("b128", 1, "l"), ("u16", 2, "h"), ("s8", 4, "r"),
              ("u32", 2, "r"), ("f32", 4, "f"), ("s64", 2, "l"), ("f64", 2, "d"), ("u16", 4, "h")]


def size_of(t):
    return 1 if t[1:] == "8" else int(t[1:]) // 8


def offsets(size, limit, rows):
    return [k * size for k in range(min(rows, limit // size))]


def load_case(op, space, t, n, k, rows=16):
    """`op` (ld.global, ldu.global, ld.global.nc, ...) of t (xn) from the pattern in space."""
    prelude, ins = SPACES[space]
    vec = f".v{n}" if n > 1 else ""
    if t == "b128":
        outs, dst, fix = [("l", "v0"), ("l", "v1")], "q", " mov.b128 {$o0, $o1}, q;"
        decl = ".reg .b128 q; "
        kind = "l"
    else:
        outs = [(KINDS[k][1], f"v{j}") for j in range(n)]
        dst = "$o0" if n == 1 else "{" + ", ".join(f"$o{j}" for j in range(n)) + "}"
        fix, decl, kind = "", "", k
    adtype = ".u32" if space == "shared" else ".u64"
    text = (f"{{ .reg {adtype} ad; {decl}{prelude} {op}{vec}.{t} {dst}, [ad];{fix} }}")
    name = f"{op}{vec}.{t}" + ("" if t == "b128" else f"->{k}") + f" ({space})"
    ctype = KINDS[kind][0]
    body = (SHARED_FILL if "shared" in space else "") + f"u64 off = a[0];\n  {ctype} " + \
        ", ".join(f"v{j}" for j in range(len(outs))) + ";\n  " + asm(text, outs, ins) + "\n  " + \
        " ".join(f"o[{j}] = {bits(kind, f'v{j}')};" for j in range(len(outs)))
    size = size_of(t) * n if t != "b128" else 16
    return Case(name, body, [KINDS[kind][2]] * len(outs), [(x,) for x in offsets(size, 64, rows)], [2])


# Stores: (type, vector length, source kind); each row stores at one offset into 32 bytes
# filled with 0xaa and prints the 32 bytes after.
STORES = [("b8", 1, "h"), ("u8", 1, "r"), ("s8", 1, "l"), ("b16", 1, "h"), ("u16", 1, "r"), ("b32", 1, "r"),
          ("s32", 1, "l"), ("f32", 1, "f"), ("b64", 1, "l"), ("f64", 1, "d"), ("b128", 1, "l"), ("u8", 2, "h"),
          ("b8", 4, "r"), ("b16", 2, "h"), ("s16", 4, "r"), ("b32", 2, "r"), ("f32", 4, "f"), ("u32", 4, "r"),
          ("b64", 2, "l"), ("f64", 2, "d")]
STORE_REGION = {
    "global": ("cvta.to.global.u64 rb, $i0;", ("l", "(u64)(store_scratch + 4 * t)"), "global"),
    "shared": ("mov.u32 rb, $i0;", ("r", "(unsigned)__cvta_generic_to_shared(shared_region + 4 * t)"), "shared"),
    "local": (".local .align 16 .b8 lbuf[32]; mov.u64 rb, lbuf;", None, "local"),
    "generic-global": ("mov.u64 rb, $i0;", ("l", "(u64)(store_scratch + 4 * t)"), ""),
    "generic-shared": ("mov.u64 rb, $i0;", ("l", "(u64)(shared_region + 4 * t)"), ""),
    "generic-local": (".local .align 16 .b8 lbuf[32]; mov.u64 rb, lbuf; cvta.local.u64 rb, rb;", None, ""),
}
STORE_VALUES = [0x8182838485868788, 0x1112131415161718, 0xF1F2F3F4F5F6F7F8, 0x7172737475767778]


def store_case(op, space, t, n, k, tail=""):
    """op is st.SPACE with qualifiers (or st for generic); tail goes after the address."""
    prelude, region, ss = STORE_REGION[space]
    ss = "." + ss if ss else ""
    adtype = ".u32" if space == "shared" else ".u64"
    ins = [region] if region else []
    base = len(ins)
    if t == "b128":
        srcs, vals = "q", [("l", f"{STORE_VALUES[0]:#x}ull"), ("l", f"{STORE_VALUES[1]:#x}ull")]
        pre = f"mov.b128 q, {{$i{base + 1}, $i{base + 2}}}; "
        decl = ".reg .b128 q; "
    else:
        vals = [(KINDS[k][1], from_bits(k, f"{STORE_VALUES[j]:#x}ull")) for j in range(n)]
        names = [f"$i{base + 1 + j}" for j in range(n)]
        srcs = names[0] if n == 1 else "{" + ", ".join(names) + "}"
        pre, decl = "", ""
    ins = ins + [("l" if adtype == ".u64" else "r", "off" if adtype == ".u64" else "(unsigned)off")] + vals
    vec = f".v{n}" if n > 1 else ""
    fill = "".join(f"st{ss}.b64 [rb+{8 * j}], fill; " for j in range(4))
    back = "".join(f"ld{ss}.b64 $o{j}, [rb+{8 * j}]; " for j in range(4))
    text = (f"{{ .reg {adtype} rb, ad; .reg .b64 fill; {decl}{prelude} mov.b64 fill, 0xaaaaaaaaaaaaaaaa; {fill}"
            f"add{adtype} ad, rb, $i{base}; {pre}{op}{vec}.{t} [ad]{tail}, {srcs}; {back}}}")
    outs = [("l", f"w{j}") for j in range(4)]
    body = "u64 off = a[0], w0, w1, w2, w3;\n  " + asm(text, outs, ins) + "\n  o[0] = w0; o[1] = w1; o[2] = w2; o[3] = w3;"
    size = size_of(t) * n if t != "b128" else 16
    rows = sorted(set(offsets(size, 32, 4) + [32 - size]))
    name = f"{op}{vec}.{t}" + ("" if t == "b128" else f"<-{k}") + f" ({space})"
    return Case(name, body, [16] * 4, [(x,) for x in rows], [2])


# Generic pointers of each space (C, in a row's `kind`): what isspacep and cvta see.
GENERIC_OF = """u64 g = 0; u64 local_words[2] = {a[0], a[0]};
  if (a[0] == 0) g = (u64)global_pattern;
  if (a[0] == 1) g = (u64)shared_pattern;
  if (a[0] == 2) g = (u64)local_words;
  if (a[0] == 3) g = (u64)const_pattern;
  if (a[0] == 4) asm volatile("cvta.param.u64 %0, PARAM;" : "=l"(g));
  if (a[0] == 5) g = (u64)(store_scratch + 8);
  """
SPACE_ROWS = [(0,), (1,), (2,), (3,), (4,), (5,)]  # global, shared, local, const, param, global + 64
TESTED_SPACES = ("global", "shared", "shared::cta", "shared::cluster", "local", "const", "param")


def address_cases():
    F = []
    outs = [("r", f"s{j}") for j in range(len(TESTED_SPACES))]
    text = "{ .reg .pred q; " + " ".join(
        f"isspacep.{s} q, $i0; selp.u32 $o{j}, 1, 0, q;" for j, s in enumerate(TESTED_SPACES)) + " }"
    body = (SHARED_FILL + GENERIC_OF + "unsigned " + ", ".join(f"s{j}" for j in range(len(outs))) + ";\n  " +
            asm(text, outs, [("l", "g")]) + "\n  " + " ".join(f"o[{j}] = s{j};" for j in range(len(outs))) +
            "\n  (void)local_words[1];")
    F.append(Case("isspacep." + "/".join(TESTED_SPACES) + " (space: 0 global 1 shared 2 local 3 const 4 param)",
                  body, [1] * len(outs), SPACE_ROWS, [1]))
    # cvta.to.SPACE then cvta.SPACE back gives the generic address again; the spaces' own
    # addresses keep distances; loads through either address agree.
    for kind, s in ((0, "global"), (1, "shared"), (2, "local"), (3, "const"), (4, "param")):
        text = (f"{{ .reg .u64 sa, sb, gb; .reg .pred q; cvta.to.{s}.u64 sa, $i0; add.u64 gb, $i0, 8; "
                f"cvta.to.{s}.u64 sb, gb; sub.u64 $o1, sb, sa; cvta.{s}.u64 gb, sa; setp.eq.u64 q, gb, $i0; "
                f"selp.u32 $o0, 1, 0, q; ld.{s}.u32 $o2, [sa+4]; ld.u32 $o3, [gb+4]; }}")
        body = (SHARED_FILL + GENERIC_OF + "u64 distance; unsigned same, via_space, via_generic;\n  " +
                asm(text, [("r", "same"), ("l", "distance"), ("r", "via_space"), ("r", "via_generic")],
                    [("l", "g")]) + "\n  o[0] = same; o[1] = distance; o[2] = via_space; o[3] = via_generic;" +
                "\n  (void)local_words[1];")
        if s == "local":  # the local words hold the row's own value (2): put the pattern there
            body = body.replace("u64 local_words[2] = {a[0], a[0]};",
                                "u64 local_words[2] = {global_pattern[0], global_pattern[1]};")
        F.append(Case(f"cvta.to.{s}.u64+cvta.{s}.u64 round trip, distance of +8, ld.{s} vs ld", body,
                      [1, 16, 8, 8], [(kind,)], [1]))
    # The first __shared__ variable's shared-window address (where the CTA's space starts).
    F.append(Case("cvta.to.shared.u64 of the first __shared__ variable",
                  SHARED_FILL + "u64 s;\n  " + asm("cvta.to.shared.u64 $o0, $i0;", [("l", "s")],
                                                   [("l", "(u64)shared_pattern")]) + "\n  o[0] = s;", [16]))
    return F


def mov_pack_cases():
    F = []
    vals = [(rng.getrandbits(64),) for _ in range(6)] + [(0,), (0xFFFFFFFFFFFFFFFF,), (0x8000000180000001,)]
    packs = [  # (name, PTX, outs, ins from the row's 64 bits)
        ("mov.b16 {b8,b8}", "{ .reg .b8 x, y; cvt.u8.u16 x, $i0; cvt.u8.u16 y, $i1; mov.b16 $o0, {x, y}; }",
         [("h", "h0")], [("h", "(unsigned short)(a[0] & 0xff)"), ("h", "(unsigned short)(a[0] >> 8 & 0xff)")]),
        ("mov.b16 unpack {b8,b8}", "{ .reg .b8 x, y; mov.b16 {x, y}, $i0; cvt.u16.u8 $o0, x; cvt.u16.u8 $o1, y; }",
         [("h", "h0"), ("h", "h1")], [("h", "(unsigned short)a[0]")]),
        ("mov.b32 {b16,b16}", "mov.b32 $o0, {$i0, $i1};", [("r", "r0")],
         [("h", "(unsigned short)a[0]"), ("h", "(unsigned short)(a[0] >> 16)")]),
        ("mov.b32 unpack {b16,b16}", "mov.b32 {$o0, $o1}, $i0;", [("h", "h0"), ("h", "h1")], [("r", "(unsigned)a[0]")]),
        ("mov.b32 {b8,b8,b8,b8}", "{ .reg .b8 x, y, z, w; cvt.u8.u32 x, $i0; shr.b32 $o0, $i0, 8; "
         "cvt.u8.u32 y, $o0; shr.b32 $o0, $i0, 16; cvt.u8.u32 z, $o0; shr.b32 $o0, $i0, 24; cvt.u8.u32 w, $o0; "
         "mov.b32 $o0, {x, y, z, w}; }", [("r", "r0")], [("r", "(unsigned)a[0]")]),
        ("mov.b64 {b32,b32}", "mov.b64 $o0, {$i0, $i1};", [("l", "l0")],
         [("r", "(unsigned)a[0]"), ("r", "(unsigned)(a[0] >> 32)")]),
        ("mov.b64 unpack {b32,b32}", "mov.b64 {$o0, $o1}, $i0;", [("r", "r0"), ("r", "r1")], [("l", "a[0]")]),
        ("mov.b64 {b16 x4}", "mov.b64 $o0, {$i0, $i1, $i2, $i3};", [("l", "l0")],
         [("h", f"(unsigned short)(a[0] >> {16 * j})") for j in range(4)]),
        ("mov.b64 unpack {b16 x4}", "mov.b64 {$o0, $o1, $o2, $o3}, $i0;", [("h", f"h{j}") for j in range(4)],
         [("l", "a[0]")]),
        ("mov.b64 unpack {b32,_}", "mov.b64 {$o0, _}, $i0;", [("r", "r0")], [("l", "a[0]")]),
        ("mov.b128 {b64,b64} and back", "{ .reg .b128 q; mov.b128 q, {$i0, $i1}; mov.b128 {$o1, $o0}, q; }",
         [("l", "l0"), ("l", "l1")], [("l", "a[0]"), ("l", "~a[0]")]),
    ]
    for name, text, outs, ins in packs:
        kinds = [c for c, _ in outs]
        decl = "; ".join(f"{KINDS[c][0]} {e}" for c, e in outs)
        body = f"{decl};\n  " + asm(text, outs, ins, memory=False) + "\n  " + \
            " ".join(f"o[{j}] = {e};" for j, (_, e) in enumerate(outs))
        F.append(Case(name, body, [KINDS[c][2] for c in kinds], vals, [16]))
    return F


def memory():
    F = []
    for t, n, k in LOADS_ALL:
        F.append(load_case("ld.global", "global", t, n, k))
    for space in SPACES:
        if space == "global":
            continue
        op = "ld" if space.startswith("generic") else "ld." + space
        for t, n, k in LOADS_SOME:
            if t == "b128" and space in ("const", "param", "generic-const", "generic-param"):
                continue
            F.append(load_case(op, space, t, n, k))
    # Symbol-relative addresses: [const_pattern+imm] and [PARAM+imm].
    for name, text in (("ld.const.u32 [const_pattern+12]", "ld.const.u32 $o0, [const_pattern+12];"),
                       ("ld.const.s16 [const_pattern+50]", "ld.const.s16 $o0, [const_pattern+50];"),
                       ("ld.param.u32 [PARAM+12]", "ld.param.u32 $o0, [PARAM+12];"),
                       ("ld.param.v2.u32 [PARAM+40] (low word)", "{ .reg .b32 x; ld.param.v2.u32 {$o0, x}, [PARAM+40]; }"),
                       ("ld.param.s8 [PARAM+9]", "ld.param.s8 $o0, [PARAM+9];")):
        F.append(Case(name, "unsigned v;\n  " + asm(text, [("r", "v")]) + "\n  o[0] = v;", [8]))
    # Non-coherent and uniform loads, global and generic.
    for op, space in (("ldu.global", "global"), ("ld.global.nc", "global"), ("ldu", "generic-global")):
        for t, n, k in (("s8", 1, "r"), ("u16", 1, "l"), ("b32", 1, "r"), ("f32", 1, "f"), ("f64", 1, "d"),
                        ("u32", 2, "r"), ("f32", 4, "f"), ("s64", 2, "l"), ("u8", 4, "h"), ("b128", 1, "l")):
            if op.startswith("ldu") and t == "b128":
                continue
            F.append(load_case(op, space, t, n, k, rows=4))
    # Qualifiers that only speak about caches, ordering and scope: same values.
    for q in ("ld.global.ca", "ld.global.cg", "ld.global.cs", "ld.global.lu", "ld.global.cv", "ld.volatile.global",
              "ld.weak.global", "ld.relaxed.cta.global", "ld.relaxed.gpu.global", "ld.acquire.sys.global",
              "ld.acquire.gpu.global", "ld.global.L1::evict_last", "ld.global.L1::no_allocate",
              "ld.global.L1::evict_first.L2::256B", "ld.global.nc.L1::evict_unchanged.L2::128B", "ld.global.L2::64B",
              "ld.global.nc.L1::evict_first", "ld.relaxed.sys.global.L1::evict_normal", "ld.mmio.relaxed.sys.global"):
        F.append(load_case(q, "global", "u32", 1, "r", rows=4))
    F.append(load_case("ld.volatile.shared", "shared", "s16", 1, "r", rows=4))
    F.append(load_case("ld.acquire.cta.shared::cta", "shared", "u32", 2, "r", rows=4))
    F.append(load_case("ld.relaxed.gpu", "generic-global", "b64", 1, "l", rows=4))
    for space in STORE_REGION:
        op = "st" if space.startswith("generic") else "st." + space
        for t, n, k in STORES:
            F.append(store_case(op, space, t, n, k))
    for q in ("st.global.wb", "st.global.cg", "st.global.cs", "st.global.wt", "st.volatile.global", "st.weak.global",
              "st.relaxed.gpu.global", "st.release.sys.global", "st.release.cta.global", "st.global.L1::no_allocate",
              "st.global.L1::evict_last", "st.mmio.relaxed.sys.global"):
        F.append(store_case(q, "global", "b32", 1, "r"))
    F.append(store_case("st.volatile.shared", "shared", "b16", 1, "h"))
    F.append(store_case("st.release.gpu.shared::cta", "shared", "b32", 2, "r"))
    # An L2 cache policy (createpolicy) on a load and a store: values unchanged.
    F.append(Case("createpolicy.fractional.L2::evict_last + ld/st.global.L2::cache_hint", "unsigned v, w;\n  " + asm(
        "{ .reg .b64 pol, ad; .reg .b32 x; createpolicy.fractional.L2::evict_last.b64 pol, 1.0; "
        "cvta.to.global.u64 ad, $i0; ld.global.L2::cache_hint.u32 $o0, [ad+4], pol; add.u32 x, $o0, 1; "
        "cvta.to.global.u64 ad, $i1; st.global.L2::cache_hint.u32 [ad], x, pol; ld.global.u32 $o1, [ad]; }",
        [("r", "v"), ("r", "w")], [("l", "(u64)global_pattern"), ("l", "(u64)(store_scratch + 4 * t)")]) +
        "\n  o[0] = v; o[1] = w;", [8, 8]))
    # prefetch: no result, must not fault; the row prints 1 once past them.
    prefetches = ("prefetch.global.L1 [$i0]; prefetch.global.L2 [$i0]; prefetch.global.L2::evict_last [$i0]; "
                  "prefetch.global.L2::evict_normal [$i0]; prefetch.L1 [$i1]; prefetch.L2 [$i1]; "
                  "prefetchu.L1 [$i1]; prefetch.L1 [$i2]; prefetch.L2 [$i3]; "
                  "{ .local .align 8 .b8 lb[16]; .reg .u64 la; mov.u64 la, lb; prefetch.local.L1 [la]; "
                  "prefetch.local.L2 [la]; } mov.u32 $o0, 1;")
    F.append(Case("prefetch.global.L1/L2(::evict_*) prefetch.L1/L2 prefetchu.L1 prefetch.local.L1/L2",
                  SHARED_FILL + "unsigned done;\n  " + asm(prefetches, [("r", "done")], [
                      ("l", "(u64)global_pattern"), ("l", "(u64)(global_pattern + 4)"), ("l", "(u64)shared_pattern"),
                      ("l", "(u64)const_pattern")]) + "\n  o[0] = done;", [1]))
    F += address_cases()
    F += mov_pack_cases()
    return F


# ----------------------------------------------------------------------- isa_atomics_ext
BF16_SPECIALS = [0x0000, 0x8000, 0x0001, 0x007F, 0x0080, 0x3F80, 0xBF80, 0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7FC0,
                 0xFFC1, 0x7F81, 0x4049, 0x3C00, 0x4B80, 0x3380]
HALF = {"f16": F16_SPECIALS[:16], "bf16": BF16_SPECIALS[:16]}
SCALAR_ATOMIC_ROWS = 12  # pairs of the first 12 specials, then random pairs


def half_pairs(ty):
    s = HALF[ty]
    lead = s[:SCALAR_ATOMIC_ROWS]
    return [(x, y) for x in lead for y in lead] + [(rng.choice(s), rng.getrandbits(16)) for _ in range(32)]


def word_of(ty, bits_):
    """A random element: a special value or random bits."""
    if ty in ("f16", "bf16"):
        return rng.choice(HALF[ty]) if rng.random() < 0.6 else rng.getrandbits(16)
    return rng.choice(f32_specials()) if rng.random() < 0.5 else f32(rng.uniform(-4, 4) * 2.0 ** rng.randint(-8, 8))


def atomic_slot(space):
    if space == "global":
        return "(u64)(atom_scratch + 2 * t)", "l", "atom_scratch + 2 * t"
    return "(unsigned)__cvta_generic_to_shared(atom_shared + 2 * threadIdx.x)", "r", "atom_shared + 2 * threadIdx.x"


def scalar_atomic(instr, space, ty, rows=None, operands=1, red=False):
    """instr on a 16-, 32-, 64- or 128-bit slot holding the row's first input; prints the old
    value (atom) and the slot afterwards."""
    addr, acons, cptr = atomic_slot(space)
    k = {"f16": "h", "bf16": "h", "b16": "h", "f16x2": "r", "bf16x2": "r", "u32": "r", "s32": "r", "b32": "r",
         "f32": "f", "u64": "l", "b64": "l", "b128": "q"}[ty]
    width = {"h": 4, "r": 8, "f": 8, "l": 16, "q": 32}[k]
    if rows is None:
        rows = half_pairs(ty) if ty in HALF else [(rng.getrandbits(width * 4), rng.getrandbits(width * 4))
                                                  for _ in range(16)]
        if operands == 2:  # (old, compare, new): every other compare matches
            rows = [(x, x if j % 2 == 0 else y, y) for j, (x, y) in enumerate(rows[:24])]
    if k == "q":  # 128 bits: two 64-bit halves per value
        ops = ", ".join(f"q{j + 1}" for j in range(operands))
        text = ("{ .reg .b128 q0, q1, q2; mov.b128 q1, {$i1, $i2}; mov.b128 q2, {$i3, $i4}; "
                f"{instr} q0, [$i0], {ops}; mov.b128 {{$o0, $o1}}, q0; }}")
        body = ("u64* slot = (u64*)(" + cptr + "); slot[0] = a[0]; slot[1] = a[1]; u64 lo, hi;\n  " +
                asm(text, [("l", "lo"), ("l", "hi")], [(acons, addr), ("l", "a[2]"), ("l", "a[3]"),
                                                        ("l", "a[4]"), ("l", "a[5]")]) +
                "\n  o[0] = lo; o[1] = hi; o[2] = slot[0]; o[3] = slot[1];")
        rows = [r + (0,) * (6 - len(r)) for r in rows]
        return Case(instr + f" ({space})", body, [16] * 4, rows, [16] * 6)
    ctype, cons, _ = KINDS[k]
    store = {"h": "unsigned short", "r": "unsigned", "f": "unsigned", "l": "u64"}[k]
    srcs = ", ".join(f"$i{j + 1}" for j in range(operands))
    ins = [(acons, addr)] + [(cons, from_bits(k, f"a[{j + 1}]")) for j in range(operands)]
    if red:
        text, outs, old = f"{instr} [$i0], {srcs};", [], "a[0]"
    else:
        text, outs, old = f"{instr} $o0, [$i0], {srcs};", [(cons, "old")], bits(k, "old")
    body = (f"{store}* slot = ({store}*)({cptr}); *slot = ({store})a[0]; {ctype} old;\n  " + asm(text, outs, ins) +
            f"\n  o[0] = {old}; o[1] = *slot;" + ("\n  (void)old;" if red else ""))
    return Case(instr + f" ({space})", body, [width] * 2, rows, [width] * (operands + 1))


def vector_atomic(instr, space, ty, n, red=False):
    """A vector atomic: the slot holds n elements of ty; the row gives the old elements then
    the operands, both as 32-bit words; prints the old words returned and the slot after."""
    addr, acons, cptr = atomic_slot(space)
    half = ty in ("f16", "bf16")
    words = n // 2 if half else n
    rows = []
    for _ in range(24):
        if half:
            els = [word_of(ty, 16) for _ in range(2 * n)]
            rows.append(tuple(els[2 * j] | els[2 * j + 1] << 16 for j in range(n)))
        elif ty == "f32":
            rows.append(tuple(word_of("f32", 32) for _ in range(2 * n)))
        else:  # f16x2 / bf16x2 words
            base = "f16" if ty.startswith("f16") else "bf16"
            rows.append(tuple(word_of(base, 16) | word_of(base, 16) << 16 for _ in range(2 * n)))
    k, cons = ("h", "h") if half else (("f", "f") if ty == "f32" else ("r", "r"))
    ctype = KINDS[k][0]
    # the elements: 16-bit halves of the words for f16/bf16, else the words
    if half:
        ops = [from_bits("h", f"a[{words + j // 2}] >> {16 * (j % 2)}") for j in range(n)]
    else:
        ops = [from_bits(k, f"a[{words + j}]") for j in range(n)]
    ins = [(acons, addr)] + [(cons, e) for e in ops]
    src = "{" + ", ".join(f"$i{j + 1}" for j in range(n)) + "}"
    if red:
        outs, text = [], f"{instr} [$i0], {src};"
    else:
        outs = [(cons, f"v[{j}]") for j in range(n)]
        text = f"{instr} {{{', '.join(f'$o{j}' for j in range(n))}}}, [$i0], {src};"
    olds = (" ".join(f"o[{j}] = {'(u64)v[%d] | (u64)v[%d] << 16' % (2 * j, 2 * j + 1) if half else bits(k, f'v[{j}]')};"
                     for j in range(words)) if not red else
            " ".join(f"o[{j}] = a[{j}];" for j in range(words)))
    body = (f"unsigned* slot = (unsigned*)({cptr}); for (int j = 0; j < {words}; ++j) slot[j] = (unsigned)a[j];\n  "
            f"{ctype} v[{n}];\n  " + asm(text, outs, ins) + f"\n  {olds}\n  " +
            " ".join(f"o[{words + j}] = slot[{j}];" for j in range(words)) + ("\n  (void)v;" if red else ""))
    return Case(instr + f" ({space})", body, [8] * (2 * words), rows, [8] * (2 * words))


def atomics_ext():
    F = []
    for space in ("global", "shared"):
        for ty in ("f16", "bf16", "f16x2", "bf16x2"):
            F.append(scalar_atomic(f"atom.{space}.add.noftz.{ty}", space, ty))
            F.append(scalar_atomic(f"red.{space}.add.noftz.{ty}", space, ty, red=True))
        F.append(scalar_atomic(f"atom.{space}.cas.b16", space, "b16", operands=2,
                               rows=[(x, x if j % 3 else y, y) for j, (x, y) in enumerate(
                                   [(0x1234, 0xABCD), (0xFFFF, 0), (0, 0x8000), (0x7FFF, 0x7FFF)] * 3)]))
        F.append(scalar_atomic(f"atom.{space}.exch.b64", space, "b64"))
        F.append(scalar_atomic(f"atom.{space}.cas.b128", space, "b128", operands=2, rows=[
            (x, y, x if j % 2 == 0 else x ^ 1, y, rng.getrandbits(64), rng.getrandbits(64))
            for j, (x, y) in enumerate((rng.getrandbits(64), rng.getrandbits(64)) for _ in range(8))]))
        F.append(scalar_atomic(f"atom.{space}.exch.b128", space, "b128", rows=[
            (rng.getrandbits(64), rng.getrandbits(64), rng.getrandbits(64), rng.getrandbits(64)) for _ in range(4)]))
    # Vector atomics (sm_90: .global only).
    for n in (2, 4):
        F.append(vector_atomic(f"atom.global.v{n}.f32.add", "global", "f32", n))
        F.append(vector_atomic(f"red.global.v{n}.f32.add", "global", "f32", n, red=True))
    for o in ("add", "min", "max"):
        for ty in ("f16", "bf16"):
            for n in (2, 4, 8):
                F.append(vector_atomic(f"atom.global.v{n}.{ty}.{o}.noftz", "global", ty, n))
            F.append(vector_atomic(f"red.global.v4.{ty}.{o}.noftz", "global", ty, 4, red=True))
        for ty in ("f16x2", "bf16x2"):
            for n in (2, 4):
                F.append(vector_atomic(f"atom.global.v{n}.{ty}.{o}.noftz", "global", ty, n))
            F.append(vector_atomic(f"red.global.v2.{ty}.{o}.noftz", "global", ty, 2, red=True))
    # Memory-order semantics and scopes are accepted; single-thread results as without them.
    u32_rows = [(x, y) for x in (0, 1, 0x7FFFFFFF, 0xFFFFFFFF) for y in (1, 0x80000000, 0xFFFFFFFF)]
    for sem in ("", ".relaxed", ".acquire", ".release", ".acq_rel"):
        for scope in ("", ".cta", ".gpu", ".sys", ".cluster"):
            if sem or scope:
                F.append(scalar_atomic(f"atom{sem}{scope}.global.add.u32", "global", "u32", rows=u32_rows))
    for sem in (".relaxed", ".release"):
        for scope in (".cta", ".gpu", ".sys"):
            F.append(scalar_atomic(f"red{sem}{scope}.global.add.u32", "global", "u32", rows=u32_rows, red=True))
    F += [scalar_atomic("atom.acq_rel.cta.shared::cta.max.s32", "shared", "s32", rows=u32_rows),
          scalar_atomic("atom.relaxed.cluster.shared::cluster.or.b32", "shared", "b32", rows=u32_rows),
          scalar_atomic("atom.sys.global.exch.b64", "global", "b64"),
          scalar_atomic("atom.acquire.gpu.global.cas.b32", "global", "b32", operands=2,
                        rows=[(x, x if y & 1 else y, y) for x, y in u32_rows]),
          scalar_atomic("atom.release.gpu.global.cas.b16", "global", "b16", operands=2,
                        rows=[(0x1234, 0x1234, 0x5678), (0x1234, 0x1235, 0x5678), (0xFFFF, 0xFFFF, 0)]),
          scalar_atomic("atom.relaxed.sys.global.add.noftz.f16x2", "global", "f16x2"),
          scalar_atomic("red.release.gpu.global.add.noftz.bf16", "global", "bf16", red=True),
          scalar_atomic("atom.global.add.u64", "global", "u64")]
    # Generic addresses of global and shared slots (no state space in the instruction).
    F.append(Case("atom.add.noftz.f16 / atom.cas.b16 (generic: global, shared)", (
        "unsigned short* slots[2] = {(unsigned short*)(atom_scratch + 2 * t), (unsigned short*)(atom_shared + 2 * threadIdx.x)};\n"
        "  for (int s = 0; s < 2; ++s) {\n    unsigned short* slot = slots[s]; *slot = (unsigned short)a[0]; "
        "unsigned short old, old2;\n    " + asm(
            "atom.add.noftz.f16 $o0, [$i0], $i1; atom.cas.b16 $o1, [$i0], $i2, $i1;",
            [("h", "old"), ("h", "old2")], [("l", "(u64)slot"), ("h", "(unsigned short)a[1]"),
                                           ("h", "(unsigned short)a[2]")]) +
        "\n    o[3 * s] = old; o[3 * s + 1] = old2; o[3 * s + 2] = *slot;\n  }"),
        [4] * 6, [(x, y, (x + y) & 0xFFFF) for x, y in half_pairs("f16")[:20]], [4] * 3))
    return F


# ------------------------------------------------------------------ isa_special_registers
def sreg(regs, kind="r"):
    """C reading each special register into a variable named as it (dots and % dropped)."""
    out = []
    for r in regs:
        v = r.strip("%").replace(".", "_")
        c, _, _ = KINDS[kind]
        out.append(f"{c} {v}; " + asm(f"mov.{'u64' if kind == 'l' else 'u32'} $o0, {r};", [(kind, v)], memory=False))
    return "\n  ".join(out)


def special_registers():
    F = []
    ids = [f"%{r}.{c}" for r in ("tid", "ntid", "ctaid", "nctaid") for c in "xyz"]
    names = [r.strip("%").replace(".", "_") for r in ids]
    body = sreg(ids) + "\n  " + " ".join(f"o[{j}] = {v};" for j, v in enumerate(names))
    F.append(Case("tid.xyz ntid.xyz ctaid.xyz nctaid.xyz (grid 2x3x2, block 4x3x2)", body, [8] * 12,
                  rows=12 * 24, grid=(2, 3, 2), block=(4, 3, 2)))
    F.append(Case("tid.xyz ntid.xyz ctaid.xyz nctaid.xyz (grid 1x1x3, block 2x1x35)", body, [8] * 12,
                  rows=3 * 70, grid=(1, 1, 3), block=(2, 1, 35)))
    lanes = ["%laneid", "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
             "%warpid", "%nwarpid", "%smid", "%nsmid"]
    body = (sreg(lanes) + "\n  o[0] = laneid; o[1] = laneid == (threadIdx.x & 31); o[2] = lanemask_eq; "
            "o[3] = lanemask_le; o[4] = lanemask_lt; o[5] = lanemask_ge; o[6] = lanemask_gt;\n"
            "  o[7] = warpid < nwarpid; o[8] = nwarpid; o[9] = smid < nsmid; o[10] = nsmid > 0;")
    F.append(Case("laneid (==tid%32) lanemask_eq/le/lt/ge/gt warpid<nwarpid nwarpid smid<nsmid nsmid>0 (block 80)",
                  body, [2, 1, 8, 8, 8, 8, 8, 1, 8, 1, 1], rows=160, grid=(2, 1, 1), block=(80, 1, 1)))
    for static, dynamic in ((0, 0), (256, 0), (0, 1000), (1024, 4096), (4000, 40000)):
        decl = f"__shared__ unsigned char static_smem[{static}];\n" if static else ""
        use = "((volatile unsigned char*)static_smem)[t] = 1; " if static else ""
        body = (use + "extern __shared__ unsigned char dynamic_smem[]; " + ("dynamic_smem[t] = 1; " if dynamic else "") +
                "\n  " + sreg(["%dynamic_smem_size", "%total_smem_size"]) +
                "\n  o[0] = dynamic_smem_size; o[1] = total_smem_size;")
        F.append(Case(f"dynamic_smem_size total_smem_size (static {static}, dynamic {dynamic})", body, [8] * 2,
                      decls=decl, smem=dynamic))
        if static and dynamic:  # sm_90's %aggr_smem_size: the CTA's shared memory and what the system reserves
            aggr = body[:body.index("\n  ")] + "\n  " + sreg(["%aggr_smem_size"]) + "\n  o[0] = aggr_smem_size;"
            F.append(Case(f"aggr_smem_size (static {static}, dynamic {dynamic})", aggr, [8], decls=decl, smem=dynamic))
    F.append(Case("gridid!=0", sreg(["%gridid"], "l") + "\n  o[0] = gridid != 0;", [1]))
    F.append(Case("current_graph_exec (not in a graph)", sreg(["%current_graph_exec"], "l") +
                  "\n  o[0] = current_graph_exec;", [16]))
    body = ("unsigned c1; u64 d1; " + asm("mov.u32 $o0, %clock; mov.u64 $o1, %clock64;", [("r", "c1"), ("l", "d1")]) +
            "\n  volatile unsigned spin = 0; for (int j = 0; j < 2000; ++j) spin = spin + j;\n  "
            "unsigned c2, hi; u64 d2; " + asm("mov.u32 $o0, %clock; mov.u64 $o1, %clock64; mov.u32 $o2, %clock_hi;",
                                              [("r", "c2"), ("l", "d2"), ("r", "hi")]) +
            "\n  o[0] = c2 - c1 > 0 && c2 - c1 < 0x80000000u; o[1] = d2 > d1; "
            "o[2] = hi == (unsigned)(d2 >> 32) || hi == (unsigned)(d2 >> 32) + 1;")
    F.append(Case("clock advances, clock64 advances, clock_hi is clock64's high word", body, [1] * 3, rows=32,
                  block=(32, 1, 1)))
    body = ("u64 g1, g2 = 0; " + asm("mov.u64 $o0, %globaltimer;", [("l", "g1")]) +
            "\n  for (int j = 0; j < 100000; ++j) {\n    " + asm("mov.u64 $o0, %globaltimer;", [("l", "g2")]) +
            "\n    if (g2 != g1) break;\n    __nanosleep(100);\n  }\n  unsigned lo, hi; " +
            asm("mov.u32 $o0, %globaltimer_lo; mov.u32 $o1, %globaltimer_hi;", [("r", "lo"), ("r", "hi")]) +
            "\n  o[0] = g1 != 0; o[1] = g2 > g1; o[2] = hi >= (unsigned)(g2 >> 32) && hi <= (unsigned)(g2 >> 32) + 1;"
            "\n  (void)lo;")
    F.append(Case("globaltimer nonzero, advances; globaltimer_hi", body, [1] * 3))
    cl = ([f"%{r}.{c}" for r in ("clusterid", "nclusterid", "cluster_ctaid", "cluster_nctaid") for c in "xyz"] +
          ["%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster"])
    cn = [r.strip("%").replace(".", "_") for r in cl]
    body = sreg(cl[:-1]) + "\n  unsigned is_explicit_cluster; " + asm(
        "{ .reg .pred q; mov.pred q, %is_explicit_cluster; selp.u32 $o0, 1, 0, q; }",
        [("r", "is_explicit_cluster")]) + "\n  " + " ".join(f"o[{j}] = {v};" for j, v in enumerate(cn))
    F.append(Case("clusterid.xyz nclusterid.xyz cluster_ctaid.xyz cluster_nctaid.xyz cluster_ctarank cluster_nctarank "
                  "is_explicit_cluster (no cluster launch, grid 2x3x1)", body, [8] * 15, rows=6, grid=(2, 3, 1),
                  block=(1, 1, 1)))
    # %pm0..7 and %pm0_64..%pm7_64 count only events a profiler configured: 0 without one.
    pm = [f"%pm{n}" for n in range(8)]
    F.append(Case("pm0..pm7 (no profiler)", sreg(pm) + "\n  " + " ".join(f"o[{n}] = pm{n};" for n in range(8)),
                  [8] * 8, rows=4, block=(4, 1, 1)))
    pm64 = [f"%pm{n}_64" for n in range(8)]
    F.append(Case("pm0_64..pm7_64 (no profiler)", sreg(pm64, "l") + "\n  " +
                  " ".join(f"o[{n}] = pm{n}_64;" for n in range(8)), [16] * 8, rows=4, block=(4, 1, 1)))
    # %envreg<32> hold driver-defined values: every thread of a launch reads the same ones, and
    # %envreg1:%envreg2 (cooperative groups' grid workspace) are 0 outside cooperative launches.
    env = [f"%envreg{n}" for n in range(32)]
    body = (sreg(env) + "\n  __shared__ unsigned first[32];\n  if (t == 0) {\n    " +
            " ".join(f"first[{n}] = envreg{n};" for n in range(32)) + "\n  }\n  __syncthreads();\n  o[0] = " +
            " && ".join(f"first[{n}] == envreg{n}" for n in range(32)) + ";\n  o[1] = envreg1 == 0 && envreg2 == 0;")
    F.append(Case("envreg0..31 uniform in a block; envreg1/2 zero (not cooperative)", body, [1, 1], rows=64,
                  block=(64, 1, 1)))
    return F


# ---------------------------------------------------------------------------- isa_control
CONTROL_DECLS = """
struct Triple {
  int a;
  long long b;
  float c;
};
// Struct arguments and results travel as .param byte arrays (nvcc writes the calls).
extern "C" __device__ __noinline__ Triple mix(Triple x, int k) {
  Triple r = {x.a * k, x.b - k, x.c * 2.0f};
  if (k < 0) return x;  // an early ret
  return r;
}
extern "C" __device__ __noinline__ unsigned twice(unsigned x) { return 2 * x; }
extern "C" __device__ __noinline__ unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
extern "C" __device__ __noinline__ bool is_odd(unsigned n);
extern "C" __device__ __noinline__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
extern "C" __device__ __noinline__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }
// A frame with a local array on every level of the recursion.
extern "C" __device__ __noinline__ unsigned frames(unsigned n, unsigned seed) {
  volatile unsigned local[5];
  for (int j = 0; j < 5; ++j) local[j] = seed * (j + 1) + n;
  unsigned below = n == 0 ? 0 : frames(n - 1, seed ^ local[n % 5]);
  return below * 3 + local[(n + 2) % 5];
}
__device__ __noinline__ unsigned add3(unsigned x) { return x + 3; }
__device__ __noinline__ unsigned sq(unsigned x) { return x * x; }
__device__ __noinline__ unsigned neg(unsigned x) { return 0u - x; }
__device__ unsigned (*const table[3])(unsigned) = {add3, sq, neg};
extern "C" __device__ __noinline__ void maybe_exit(unsigned x) {
  if (x) asm volatile("exit;");
}
"""


def control():
    F = []
    # bra.uni: one thread per block, so each branch is uniform.
    text = ("{ .reg .pred p; setp.lt.u32 p, $i0, 100; @p bra.uni SMALL; mul.lo.u32 $o0, $i0, 3; bra.uni DONE; "
            "SMALL: add.u32 $o0, $i0, 7; DONE: }")
    F.append(Case("bra.uni (one thread per block)", "unsigned r;\n  " + asm(text, [("r", "r")],
                  [("r", "(unsigned)a[0]")]) + "\n  o[0] = r;", [8],
                  [(x,) for x in (0, 99, 100, 101, 0xFFFFFFFF)], [8], grid=(5, 1, 1), block=(1, 1, 1)))
    # A loop with a backward branch, divergent trip counts.
    text = ("{ .reg .pred p; .reg .u32 n; mov.u32 $o0, 0; mov.u32 n, $i0; setp.eq.u32 p, n, 0; @p bra END; "
            "LOOP: add.u32 $o0, $o0, n; sub.u32 n, n, 1; setp.ne.u32 p, n, 0; @p bra LOOP; END: }")
    F.append(Case("bra loop (sum 1..n, divergent)", "unsigned r;\n  " + asm(text, [("r", "r")],
                  [("r", "(unsigned)a[0]")]) + "\n  o[0] = r;", [8], [(x,) for x in range(0, 40, 3)], [8]))
    # brx.idx over a table of targets, divergent and uniform.
    targets = ", ".join(f"T{j}" for j in range(6))
    cases_ = " ".join(f"T{j}: mov.u32 $o0, {100 + j * j}; bra.uni END;" for j in range(6))
    for uni, grid, block in (("", (1, 1, 1), None), (".uni", (12, 1, 1), (1, 1, 1))):
        text = f"{{ TABLE: .branchtargets {targets}; brx.idx{uni} $i0, TABLE; {cases_} END: }}"
        kwargs = {"grid": grid, "block": block} if block else {}
        F.append(Case(f"brx.idx{uni} (6 targets)", "unsigned r;\n  " + asm(text, [("r", "r")],
                      [("r", "(unsigned)a[0]")]) + "\n  o[0] = r;", [8],
                      [(x,) for x in (0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0)], [1], **kwargs))
    # call/ret with .param structs and a return value (written by nvcc).
    rows = [(x, k) for x in (0, 1, 0x7FFFFFFF, 0x80000000, 12345) for k in (0, 3, 0xFFFFFFFF)]
    F.append(Case("call mix(struct, int) -> struct (.param structs, ret on two paths)", (
        "Triple x = {(int)a[0], (long long)a[0] << 20, (float)(int)a[0]};\n"
        "  Triple r = mix(x, (int)a[1]);\n  o[0] = (unsigned)r.a; o[1] = (u64)r.b; o[2] = __float_as_uint(r.c);"),
        [8, 16, 8], rows, [8, 8]))
    # call from PTX: plain, .uni, predicated on and off. Each call sequence has its own .param
    # block (PTX gives a .param no meaning outside the call it is declared for); the result of
    # the predicated call is only kept when the call happened (ptxas refuses a predicated
    # ld.param of a call's result, and the .param is undefined when the call did not happen).
    text = ("{ .reg .pred p; .reg .b32 got; setp.ne.u32 p, $i1, 0; "
            "{ .param .b32 arg; .param .b32 res; st.param.b32 [arg], $i0; @p call (res), twice, (arg); "
            "ld.param.b32 got, [res]; selp.b32 $o0, got, 0xdead, p; } "
            "{ .param .b32 arg; .param .b32 res; st.param.b32 [arg], $i0; call.uni (res), twice, (arg); "
            "ld.param.b32 $o1, [res]; } }")
    F.append(Case("@p call (res), twice, (arg); call.uni", "unsigned r, s;\n  " + asm(text, [("r", "r"), ("r", "s")], [
        ("r", "(unsigned)a[0]"), ("r", "(unsigned)a[1]")]) + "\n  o[0] = r; o[1] = s; o[2] = twice((unsigned)a[0] + 1);",
        [8, 8, 8], [(x, p) for x in (0, 5, 0x80000001) for p in (0, 1)], [8, 1]))
    # Indirect calls through a table of function pointers (call with a .callprototype).
    F.append(Case("indirect call through a function table", "o[0] = table[a[1]]((unsigned)a[0]);", [8],
                  [(x, j) for x in (0, 7, 0xFFFF) for j in range(3)], [8, 1]))
    # Recursion.
    F.append(Case("recursion fib(n)", "o[0] = fib((unsigned)a[0]);", [8], [(n,) for n in range(0, 21)], [2]))
    F.append(Case("mutual recursion is_even/is_odd", "o[0] = is_even((unsigned)a[0]); o[1] = is_odd((unsigned)a[0]);",
                  [1, 1], [(n,) for n in (0, 1, 2, 7, 30, 31)], [2]))
    F.append(Case("recursion with a local array per frame", "o[0] = frames((unsigned)a[0], 0x9e3779b9u);", [8],
                  [(n,) for n in (0, 1, 2, 5, 12)], [2]))
    # exit from some lanes: the others go on; the row shows what each wrote.
    # __ballot_sync's mask must name exactly the lanes that call it: the survivors of each warp.
    F.append(Case("exit in lanes t%3==0, then ballot of the others", (
        "o[0] = 1;\n  if (t % 3 == 0) asm volatile(\"exit;\");\n"
        "  unsigned survivors = 0;\n  for (int l = 0; l < 32; ++l) survivors |= ((t - t % 32 + l) % 3 != 0 ? 1u : 0u) << l;\n"
        "  o[1] = __ballot_sync(survivors, 1); o[2] = 2;"), [1, 8, 1], rows=64, block=(64, 1, 1)))
    F.append(Case("ret in a kernel (lanes t%4==1)", (
        "o[0] = 1;\n  if (t % 4 == 1) asm volatile(\"ret;\");\n  o[1] = 2;"), [1, 1], rows=64, block=(64, 1, 1)))
    F.append(Case("exit in a .func (lanes t%4==2)", "o[0] = 1;\n  maybe_exit(t % 4 == 2);\n  o[1] = 2;", [1, 1],
                  rows=64, block=(64, 1, 1)))
    # selp / slct executed under a predicate: d keeps its old value when the guard is false.
    rows = [(p, q, x, y) for p in (0, 1) for q in (0, 1) for x, y in ((1, 2), (0x80000000, 0x7FFFFFFF))]
    text = ("{ .reg .pred p, q; setp.ne.u32 p, $i0, 0; setp.ne.u32 q, $i1, 0; mov.u32 $o0, 0xabcd; "
            "mov.u32 $o1, 0xabcd; mov.u32 $o2, 0xabcd; @p selp.b32 $o0, $i2, $i3, q; "
            "@!p slct.u32.s32 $o1, $i2, $i3, $i3; @q slct.f32.f32 $o2, $i2, $i3, 0fBF800000; }")
    F.append(Case("@p selp.b32, @!p slct.u32.s32, @q slct.f32.f32", "unsigned r, s, u;\n  " + asm(
        text, [("r", "r"), ("r", "s"), ("r", "u")], [("r", f"(unsigned)a[{j}]") for j in range(4)]) +
        "\n  o[0] = r; o[1] = s; o[2] = u;", [8] * 3, rows, [1, 1, 8, 8]))
    # nanosleep and pmevent: no result, must return.
    F.append(Case("nanosleep.u32 (imm, reg), pmevent, pmevent.mask", "unsigned done;\n  " + asm(
        "nanosleep.u32 100; nanosleep.u32 $i0; pmevent 3; pmevent.mask 0x9; mov.u32 $o0, 1;", [("r", "done")],
        [("r", "(unsigned)a[0]")]) + "\n  o[0] = done;", [1], [(0,), (1000,)], [4]))
    # Fences and memory barriers: no result; each must execute and return.
    fences = ("fence.sc.cta; fence.sc.gpu; fence.sc.sys; fence.sc.cluster; fence.acq_rel.cta; fence.acq_rel.gpu; "
              "fence.acq_rel.sys; fence.acq_rel.cluster; membar.cta; membar.gl; membar.sys; ")
    F.append(Case("fence.sc/.acq_rel (.cta .cluster .gpu .sys), membar.cta/.gl/.sys", "unsigned done;\n  " + asm(
        fences + "mov.u32 $o0, 1;", [("r", "done")], []) + "\n  o[0] = done;", [1], [(0,)], [4]))
    return F


# ------------------------------------------------------------------------------- emitting
HEADER = """\
// GENERATED by tests/isa/generate_programs.py ({family}): edit the generator, not this file.
// {what}
// Each case is one kernel on its own launch; each row prints the case, its inputs and its
// results in hex. expected/{family}.out is what a GPU printed (compared byte for byte).
#include "isa_program_harness.h"

#pragma nv_diag_suppress 177  // variables an asm statement does not read
#pragma nv_diag_suppress 550
"""

MEMORY_DECLS = """
static const u64 pattern[8] = {{{p}}};
__device__ __align__(16) u64 global_pattern[8] = {{{p}}};
__constant__ __align__(16) u64 const_pattern[8] = {{{p}}};
__device__ __align__(16) u64 store_scratch[1024 * 4];
__device__ __align__(16) u64 atom_scratch[1024 * 2];
"""


def emit(family, what, cases, decls=""):
    out = [HEADER.format(family=family, what=what),
           MEMORY_DECLS.format(p=", ".join(f"0x{w:016x}ull" for w in PATTERN)), decls]
    rows = []
    for n, c in enumerate(cases):
        kernel = f"k{n}"
        body = c.body.replace("PARAM", f"{kernel}_param_3")
        shared = ""
        if "shared_pattern" in body:
            shared += "  __shared__ __align__(16) u64 shared_pattern[8];\n"
        if "shared_region" in body:
            shared += "  __shared__ __align__(16) u64 shared_region[128 * 4];\n"
        if "atom_shared" in body:
            shared += "  __shared__ __align__(16) u64 atom_shared[128 * 2];\n"
        if c.decls:
            shared += "  " + c.decls
        out.append(f"\n// {c.name}\nextern \"C\" __global__ void {kernel}(u64* out, const u64* in, int rows, Params p) {{\n"
                   f"{shared}  const int t = linear_thread();\n  if (t >= rows) return;\n"
                   f"  const u64* a = in + (size_t)t * {len(c.in_widths)};\n"
                   f"  u64* o = out + (size_t)t * {len(c.out_widths)};\n  (void)a; (void)p;\n  {c.body.replace('PARAM', f'{kernel}_param_3')}\n}}\n")
        values = "nullptr"
        if c.inputs:
            out.append(f"static const u64 in{n}[] = {{{', '.join(f'0x{v:x}ull' for r in c.inputs for v in r)}}};\n")
            values = f"in{n}"
        widths = ", ".join(str(w) for w in c.in_widths + c.out_widths)
        name = c.name.replace('"', '\\"')
        rows.append(f'    {{"{name}", {kernel}, dim3{c.grid}, dim3{c.block}, {c.smem}, {c.rows}, {len(c.in_widths)}, '
                    f"{values}, {len(c.out_widths)}, {{{widths}}}}},")
    out.append("\nstatic const Case cases[] = {\n" + "\n".join(rows) + "\n};\n\n"
               "int main() { return run_cases(cases, (int)(sizeof(cases) / sizeof(cases[0])), pattern); }\n")
    with open(os.path.join(HERE, family + ".cu"), "w") as fh:
        fh.write("".join(out))
    return len(cases), sum(c.rows for c in cases)


FAMILIES = [
    ("isa_memory", "ld/st of every type and vector width in every state space (global shared local const param, "
     "generic), ldu, ld.global.nc, cache/order qualifiers, prefetch, cvta, isspacep, mov pack/unpack.", memory, ""),
    ("isa_atomics_ext", "atom/red on f16 bf16 f16x2 bf16x2 (scalar and .v2/.v4/.v8), cas.b16, exch.b64, b128, "
     "scopes and memory-order semantics: single-thread old and new values.", atomics_ext, ""),
    ("isa_special_registers", "Special registers with deterministic values, and the relations (ranges, "
     "monotonic clocks) of those without.", special_registers, ""),
    ("isa_control", "Control flow: bra.uni, loops, brx.idx, call/ret with .param structs, predicated and indirect "
     "calls, recursion, exit/ret from some lanes, predicated selp/slct, nanosleep, pmevent.", control, CONTROL_DECLS),
]

if __name__ == "__main__":
    for family, what, make, decls in FAMILIES:
        forms, rows = emit(family, what, make(), decls)
        print(family, forms, "cases", rows, "rows")
