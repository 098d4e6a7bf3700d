#!/usr/bin/env python3
"""Writes the tensor-core instruction tests of tests/isa:

    tensor_core.cu           mma.sync (every sm_90 shape and type) and nvcuda::wmma on
                             values whose products and sums are exact in every format
    tensor_core_rounding.cu  the float forms again on random values, where the result
                             shows how the GPU rounds and accumulates

    python3 tests/isa/generate_tensor_core.py      (deterministic; run from anywhere)

mma.sync: each lane's A, B, C registers come from a fixed-seed generator on the host (in
the PTX ISA 9.0 fragment layout, §9.7.14.5); one warp runs the instruction; every lane
prints its registers in and out as hex. wmma: A, B, C are matrices in global memory
(layouts and strides as named), one warp loads, multiplies, stores D row-major; the D
matrix is printed as hex, one row a line (the fragment layout of wmma is unspecified,
so only whole matrices are compared). The expected output is what an H100/H200 prints.
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def bf16_bits(x):
    return f32_bits(x) >> 16  # the values used are exact in bf16


E4M3 = {0.0: 0x00, 0.25: 0x28, 0.5: 0x30, 0.75: 0x34, 1.0: 0x38, 1.5: 0x3C, 2.0: 0x40, 3.0: 0x44}
E5M2 = {0.0: 0x00, 0.25: 0x34, 0.5: 0x38, 0.75: 0x3A, 1.0: 0x3C, 1.5: 0x3E, 2.0: 0x40, 3.0: 0x42}


def element(rng, kind, exact):
    """(bits, width) of one random element of a type."""
    sign = rng.choice((-1, 1))
    if kind in ("f16", "bf16", "tf32", "f32", "f64"):
        value = sign * rng.randint(0, 12) * 0.25 if exact else sign * rng.uniform(1, 2) * 2.0 ** rng.randint(-6, 6)
        if kind == "f16":
            return f16_bits(value), 16
        if kind == "bf16":
            return (f32_bits(value) >> 16) if exact else rng.getrandbits(7) | (rng.randint(118, 134) << 7) | (
                0x8000 if sign < 0 else 0), 16
        if kind in ("tf32", "f32"):
            return f32_bits(value) & (0xFFFFE000 if kind == "tf32" else 0xFFFFFFFF), 32
        return f64_bits(value), 64
    if kind in ("e4m3", "e5m2"):
        table = E4M3 if kind == "e4m3" else E5M2
        value = rng.choice(list(table))
        return table[value] | (0x80 if sign < 0 and value else 0), 8
    width = {"s8": 8, "u8": 8, "s4": 4, "u4": 4, "b1": 1, "s32": 32}[kind]
    if kind == "s32":
        return rng.getrandbits(20) if exact else rng.getrandbits(32), 32
    return rng.getrandbits(width), width


def registers(rng, kind, count, exact):
    """`count` registers (32-bit, or 64-bit for f64) filled with random elements."""
    regs = []
    for _ in range(count):
        bits, width = element(rng, kind, exact)
        if width >= 32:
            regs.append(bits)
            continue
        reg = 0
        for j in range(32 // width):
            reg |= element(rng, kind, exact)[0] << (j * width)
        regs.append(reg)
    return regs


# mma.sync forms: (shape, d, a, b, c, registers of A, B, C/D, extra qualifiers).
MMA = [
    ("m16n8k8", "f32", "f16", "f16", "f32", 2, 1, 4, ""), ("m16n8k8", "f16", "f16", "f16", "f16", 2, 1, 2, ""),
    ("m16n8k16", "f32", "f16", "f16", "f32", 4, 2, 4, ""), ("m16n8k16", "f16", "f16", "f16", "f16", 4, 2, 2, ""),
    ("m16n8k8", "f32", "bf16", "bf16", "f32", 2, 1, 4, ""),
    ("m16n8k16", "f32", "bf16", "bf16", "f32", 4, 2, 4, ""), ("m16n8k4", "f32", "tf32", "tf32", "f32", 2, 1, 4, ""),
    ("m16n8k8", "f32", "tf32", "tf32", "f32", 4, 2, 4, ""), ("m8n8k4", "f64", "f64", "f64", "f64", 1, 1, 2, ""),
    ("m16n8k4", "f64", "f64", "f64", "f64", 2, 1, 4, ""), ("m16n8k8", "f64", "f64", "f64", "f64", 4, 2, 4, ""),
    ("m16n8k16", "f64", "f64", "f64", "f64", 8, 4, 4, ""), ("m8n8k16", "s32", "s8", "s8", "s32", 1, 1, 2, ""),
    ("m8n8k16", "s32", "u8", "s8", "s32", 1, 1, 2, "satfinite"), ("m16n8k16", "s32", "s8", "u8", "s32", 2, 1, 4, ""),
    ("m16n8k32", "s32", "u8", "u8", "s32", 4, 2, 4, ""), ("m16n8k32", "s32", "s8", "s8", "s32", 4, 2, 4, "satfinite"),
    ("m8n8k32", "s32", "s4", "s4", "s32", 1, 1, 2, ""), ("m16n8k32", "s32", "u4", "s4", "s32", 2, 1, 4, ""),
    ("m16n8k64", "s32", "s4", "u4", "s32", 4, 2, 4, "satfinite"), ("m8n8k128", "s32", "b1", "b1", "s32", 1, 1, 2, "xor"),
    ("m16n8k128", "s32", "b1", "b1", "s32", 2, 1, 4, "and"), ("m16n8k256", "s32", "b1", "b1", "s32", 4, 2, 4, "xor"),
    ("m16n8k32", "f32", "e4m3", "e5m2", "f32", 4, 2, 4, ""), ("m16n8k32", "f32", "e5m2", "e5m2", "f32", 4, 2, 4, ""),
]
FLOAT_INPUTS = ("f16", "bf16", "tf32", "f64", "e4m3", "e5m2")
# mma.m8n8k4 with .f16 inputs (PTX ISA 9.0 §9.7.14.5.1): four products a warp, one per quad
# pair, every layout of A and B and every f16/f32 mix of D and C that ptxas takes (an f32 C
# needs an f32 D: ".dtype must be '.f32' when .ctype is '.f32'"). They come after the wmma
# forms (and draw their values after them) so that the lines of the older forms stay as
# they were.
QUAD_PAIR_MMA = [("m8n8k4", d, "f16", "f16", c, 2, 2, 4 if c == "f16" else 8, "", f"{la}.{lb}")
                 for la, lb in (("row", "col"), ("col", "row"), ("row", "row"), ("col", "col"))
                 for d, c in (("f32", "f32"), ("f16", "f16"), ("f32", "f16"))]


def mma_text(form):
    shape, d, a, b, c, na, nb, nc, extra = form[:9]
    layouts = form[9] if len(form) > 9 else "row.col"
    sat = ".satfinite" if extra == "satfinite" else ""
    bitop = f".{extra}.popc" if extra in ("xor", "and") else ""
    return f"mma.sync.aligned.{shape}.{layouts}{sat}.{d}.{a}.{b}.{c}{bitop}"


def reg_kind(t):
    return "l" if t == "f64" else "r"


def d_registers(form):
    shape, d, a, b, c, na, nb, nc, extra = form[:9]
    if d == c:
        return nc
    if shape == "m8n8k4":  # quad-pair f16 form: 8 f32 or 4 f16x2
        return 8 if d == "f32" else 4
    return 4 if d == "f32" else 2


def mma_asm(form):
    shape, d, a, b, c, na, nb, nc, extra = form[:9]
    nd = d_registers(form)
    operands, index = [], 0

    def group(count):
        nonlocal index
        text = "{" + ", ".join(f"%{index + i}" for i in range(count)) + "}"
        index += count
        return text

    text = f"{mma_text(form)} {group(nd)}, {group(na)}, {group(nb)}, {group(nc)};"
    outs = ", ".join(f'"={reg_kind(d)}"(d[{i}])' for i in range(nd))
    ins = ", ".join([f'"{reg_kind(a)}"(a[{i}])' for i in range(na)] + [f'"{reg_kind(b)}"(b[{i}])' for i in range(nb)]
                    + [f'"{reg_kind(c)}"(c[{i}])' for i in range(nc)])
    return text, outs, ins, nd


def wmma_forms():
    """(name, T in, T acc, m, n, k, layout a, layout b, ld a, ld b, ld c)."""
    F = []
    for m, n, k in ((16, 16, 16), (32, 8, 16), (8, 32, 16)):
        for la, lb in (("row", "col"), ("col", "row"), ("row", "row")):
            F.append(("half", "float", m, n, k, la, lb))
        F.append(("half", "half", m, n, k, "row", "col"))
        F.append(("__nv_bfloat16", "float", m, n, k, "col", "col"))
        F.append(("signed char", "int", m, n, k, "row", "col"))
        F.append(("unsigned char", "int", m, n, k, "col", "row"))
    F.append(("wmma::precision::tf32", "float", 16, 16, 8, "row", "col"))
    F.append(("wmma::precision::tf32", "float", 16, 16, 8, "col", "row"))
    F.append(("double", "double", 8, 8, 4, "row", "col"))
    F.append(("double", "double", 8, 8, 4, "col", "col"))
    return F


ELEM = {"half": "f16", "__nv_bfloat16": "bf16", "signed char": "s8", "unsigned char": "u8",
        "wmma::precision::tf32": "tf32", "double": "f64", "float": "f32", "int": "s32"}
STORAGE = {"half": "unsigned short", "__nv_bfloat16": "unsigned short", "signed char": "unsigned char",
           "unsigned char": "unsigned char", "wmma::precision::tf32": "unsigned", "double": "unsigned long long",
           "float": "unsigned", "int": "unsigned"}
CTYPE = {"half": "half", "__nv_bfloat16": "__nv_bfloat16", "signed char": "signed char",
         "unsigned char": "unsigned char", "wmma::precision::tf32": "float", "double": "double", "float": "float",
         "int": "int"}


def emit(path, exact, seed):
    rng = random.Random(seed)
    out = [f"""// GENERATED by tests/isa/generate_tensor_core.py: edit the generator, not this file.
// {'mma.sync and wmma on values whose products and sums are exact' if exact else
   'mma.sync and wmma float forms on random values: how the GPU rounds and accumulates'}.
// mma.sync: every lane prints its A, B, C registers and the D it got (hex); wmma: the D
// matrix, row-major, one row a line. expected/{os.path.basename(path)[:-3]}.out is what a GPU printed.
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;
typedef unsigned long long u64;

static void check(cudaError_t e, const char* what) {{
  if (e != cudaSuccess) {{
    printf("%s: %s\\n", what, cudaGetErrorString(e));
    exit(1);
  }}
}}
"""]
    mains = []

    def emit_mma(n, form):
        shape, d, a, b, c, na, nb, nc, extra = form[:9]
        text, outs, ins, nd = mma_asm(form)
        ta, tb, tc, td = (("u64" if t == "f64" else "unsigned") for t in (a, b, c, d))
        av = [registers(rng, a, na, exact) for _ in range(32)]
        bv = [registers(rng, b, nb, exact) for _ in range(32)]
        cv = [registers(rng, c if c != "f16" else "f16", nc, exact) for _ in range(32)]
        def table(name, t, rows):
            flat = ", ".join(f"0x{v:x}ull" for row in rows for v in row)
            return f"static const {t} {name}[] = {{{flat}}};\n"
        out.append(table(f"mma{n}_a", ta, av) + table(f"mma{n}_b", tb, bv) + table(f"mma{n}_c", tc, cv))
        out.append(f"""__global__ void mma{n}(const {ta}* A, const {tb}* B, const {tc}* C, {td}* D) {{
  const int lane = threadIdx.x;
  {ta} a[{na}];
  {tb} b[{nb}];
  {tc} c[{nc}];
  {td} d[{nd}];
  for (int i = 0; i < {na}; ++i) a[i] = A[lane * {na} + i];
  for (int i = 0; i < {nb}; ++i) b[i] = B[lane * {nb} + i];
  for (int i = 0; i < {nc}; ++i) c[i] = C[lane * {nc} + i];
  asm volatile("{text}" : {outs} : {ins});
  for (int i = 0; i < {nd}; ++i) D[lane * {nd} + i] = d[i];
}}
""")
        width = lambda t: 16 if t == "f64" else 8
        mains.append(f"""  {{
    {ta}* A; {tb}* B; {tc}* C; {td}* D; {td} host[32 * {nd}];
    check(cudaMalloc(&A, sizeof(mma{n}_a)), "cudaMalloc");
    check(cudaMalloc(&B, sizeof(mma{n}_b)), "cudaMalloc");
    check(cudaMalloc(&C, sizeof(mma{n}_c)), "cudaMalloc");
    check(cudaMalloc(&D, sizeof(host)), "cudaMalloc");
    check(cudaMemcpy(A, mma{n}_a, sizeof(mma{n}_a), cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(B, mma{n}_b, sizeof(mma{n}_b), cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(C, mma{n}_c, sizeof(mma{n}_c), cudaMemcpyHostToDevice), "cudaMemcpy");
    mma{n}<<<1, 32>>>(A, B, C, D);
    check(cudaGetLastError(), "{mma_text(form)}");
    check(cudaDeviceSynchronize(), "{mma_text(form)}");
    check(cudaMemcpy(host, D, sizeof(host), cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int lane = 0; lane < 32; ++lane) {{
      printf("{mma_text(form)} lane %2d:", lane);
      for (int i = 0; i < {na}; ++i) printf(" %0{width(a)}llx", (u64)mma{n}_a[lane * {na} + i]);
      printf(" |");
      for (int i = 0; i < {nb}; ++i) printf(" %0{width(b)}llx", (u64)mma{n}_b[lane * {nb} + i]);
      printf(" |");
      for (int i = 0; i < {nc}; ++i) printf(" %0{width(c)}llx", (u64)mma{n}_c[lane * {nc} + i]);
      printf(" ->");
      for (int i = 0; i < {nd}; ++i) printf(" %0{width(d)}llx", (u64)host[lane * {nd} + i]);
      printf("\\n");
    }}
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(D);
  }}
""")
    for n, form in enumerate(MMA):
        if exact or form[2] in FLOAT_INPUTS:
            emit_mma(n, form)
    for n, (tin, tacc, m, nn, k, la, lb) in enumerate(wmma_forms()):
        if not exact and tin in ("signed char", "unsigned char"):
            continue
        ein, eacc = ELEM[tin], ELEM[tacc]
        # Strides: the leading dimension plus padding, so that the stride argument matters.
        lda = (k if la == "row" else m) + 8
        ldb = (nn if lb == "row" else k) + 8
        ldc = nn + 4
        a_count = (m if la == "row" else k) * lda
        b_count = (k if lb == "row" else nn) * ldb
        c_count = m * ldc
        elem_bits = lambda kind: element(rng, kind, exact)[0]
        av = [elem_bits(ein) for _ in range(a_count)]
        bv = [elem_bits(ein) for _ in range(b_count)]
        cv = [elem_bits(eacc) if eacc != "s32" else rng.getrandbits(16) for _ in range(c_count)]
        si, sa = STORAGE[tin], STORAGE[tacc]
        name = f"wmma.{m}x{nn}x{k}.{ein}.{eacc}.{la}.{lb}"
        flat = lambda vs: ", ".join(f"0x{v:x}" for v in vs)
        layout = lambda l: "wmma::row_major" if l == "row" else "wmma::col_major"
        frag_in = tin
        out.append(f"""static const {si} wmma{n}_a[] = {{{flat(av)}}};
static const {si} wmma{n}_b[] = {{{flat(bv)}}};
static const {sa} wmma{n}_c[] = {{{flat(cv)}}};
__global__ void wmma{n}(const {CTYPE[tin]}* A, const {CTYPE[tin]}* B, const {CTYPE[tacc]}* C, {CTYPE[tacc]}* D) {{
  wmma::fragment<wmma::matrix_a, {m}, {nn}, {k}, {frag_in}, {layout(la)}> fa;
  wmma::fragment<wmma::matrix_b, {m}, {nn}, {k}, {frag_in}, {layout(lb)}> fb;
  wmma::fragment<wmma::accumulator, {m}, {nn}, {k}, {CTYPE[tacc] if tacc != 'half' else 'half'}> acc;
  wmma::load_matrix_sync(fa, A, {lda});
  wmma::load_matrix_sync(fb, B, {ldb});
  wmma::load_matrix_sync(acc, C, {ldc}, wmma::mem_row_major);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(D, acc, {nn}, wmma::mem_row_major);
}}
""")
        w = {"f32": 8, "s32": 8, "f16": 4, "f64": 16}[eacc]
        mains.append(f"""  {{
    void *A, *B, *C, *D;
    {sa} host[{m * nn}];
    check(cudaMalloc(&A, sizeof(wmma{n}_a)), "cudaMalloc");
    check(cudaMalloc(&B, sizeof(wmma{n}_b)), "cudaMalloc");
    check(cudaMalloc(&C, sizeof(wmma{n}_c)), "cudaMalloc");
    check(cudaMalloc(&D, sizeof(host)), "cudaMalloc");
    check(cudaMemcpy(A, wmma{n}_a, sizeof(wmma{n}_a), cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(B, wmma{n}_b, sizeof(wmma{n}_b), cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(C, wmma{n}_c, sizeof(wmma{n}_c), cudaMemcpyHostToDevice), "cudaMemcpy");
    wmma{n}<<<1, 32>>>(({CTYPE[tin]}*)A, ({CTYPE[tin]}*)B, ({CTYPE[tacc]}*)C, ({CTYPE[tacc]}*)D);
    check(cudaGetLastError(), "{name}");
    check(cudaDeviceSynchronize(), "{name}");
    check(cudaMemcpy(host, D, sizeof(host), cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int row = 0; row < {m}; ++row) {{
      printf("{name} row %2d:", row);
      for (int col = 0; col < {nn}; ++col) printf(" %0{w}llx", (u64)host[row * {nn} + col]);
      printf("\\n");
    }}
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(D);
  }}
""")
    for n, form in enumerate(QUAD_PAIR_MMA):
        emit_mma(len(MMA) + n, form)
    out.append("int main() {\n" + "".join(mains) + "  return 0;\n}\n")
    with open(path, "w") as fh:
        fh.write("".join(out))


if __name__ == "__main__":
    emit(os.path.join(HERE, "tensor_core.cu"), True, 90)
    emit(os.path.join(HERE, "tensor_core_rounding.cu"), False, 91)
    print("tensor_core.cu, tensor_core_rounding.cu")
