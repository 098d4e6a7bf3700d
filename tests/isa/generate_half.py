#!/usr/bin/env python3
"""Writes half_precision.cu (f16, f16x2) and bf16.cu (bf16, bf16x2, tf32): the forms of
PTX ISA 9.7.4 (half precision) and the cvt forms to and from f16/bf16/tf32, over edge-case
inputs; the harness is half_harness.h. Run from tests/isa: python3 generate_half.py"""
def forms(ty, x2):
    F=[]
    def f(id_, shape, name, text, cases, tag=""):
        F.append((id_, shape, name, text, cases, tag))
    def ident(n): return n.replace('.','_')
    bin_ops = {'f16': ['add','add.ftz','add.sat','add.rn.ftz.sat','sub','sub.ftz','sub.sat','mul','mul.ftz','mul.sat','min','min.ftz','min.NaN','max','max.NaN','max.ftz.NaN',
                       'min.xorsign.abs','max.NaN.xorsign.abs','max.ftz.xorsign.abs'],
               'bf16': ['add','add.rn','sub','mul','mul.rn','min','min.NaN','max','max.NaN','min.xorsign.abs','max.NaN.xorsign.abs']}[ty]
    for op in bin_ops:
        n=f"{op}.{ty}"; f(ident(n),'H_HH',n,f"{n} %0, %1, %2;",'PAIRS')
    fmas = {'f16':['fma.rn','fma.rn.ftz','fma.rn.sat','fma.rn.relu','fma.rn.ftz.relu'], 'bf16':['fma.rn','fma.rn.relu']}[ty]
    for op in fmas:
        n=f"{op}.{ty}"; f(ident(n),'H_HHH',n,f"{n} %0, %1, %2, %3;",'TRIPLES')
    un = {'f16':[('neg',''),('neg.ftz',''),('abs',''),('abs.ftz',''),('ex2.approx','approx(ulp=2) '),('tanh.approx','approx(ulp=2) ')],
          'bf16':[('neg',''),('abs',''),('ex2.approx.ftz','approx(ulp=2) '),('tanh.approx','approx(ulp=2) ')]}[ty]
    for op,tag in un:
        n=f"{op}.{ty}"; f(ident(n),'H_H',n,f"{n} %0, %1;",'UNARY',tag)
    ftz = '.ftz' if ty=='f16' else ''
    for c in ['eq','ne','lt','le','gt','ge','equ','neu','ltu','leu','gtu','geu','num','nan'] + ([f'lt{ftz}', f'neu{ftz}'] if ftz else []):
        n=f"setp.{c}.{ty}"
        f(ident(n),'P_HH',n,f"{{ .reg .pred pa; {n} pa, %1, %2; selp.u32 %0, 1, 0, pa; }}",'CMP_PAIRS')
    for c,dt,shape in [('lt',ty,'H_HH'),(f'eq{ftz}',ty,'H_HH'),('nan',ty,'H_HH'),('ge','u16','H_HH'),('ltu','u32','R_HH'),(f'ne{ftz}','s32','R_HH')]:
        n=f"set.{c}.{dt}.{ty}"; f(ident(n),shape,n,f"{n} %0, %1, %2;",'CMP_PAIRS')
    t2 = ty+'x2'
    bin2 = {'f16':['add','add.ftz','add.sat','sub','mul','mul.ftz.sat','min','min.NaN','max','max.ftz.NaN','min.xorsign.abs'],
            'bf16':['add','sub','mul','min','min.NaN','max','max.NaN','max.xorsign.abs']}[ty]
    for op in bin2:
        n=f"{op}.{t2}"; f(ident(n),'R_RR',n,f"{n} %0, %1, %2;",'X2_PAIRS')
    for op in {'f16':['fma.rn','fma.rn.relu','fma.rn.sat'],'bf16':['fma.rn','fma.rn.relu']}[ty]:
        n=f"{op}.{t2}"; f(ident(n),'R_RRR',n,f"{n} %0, %1, %2, %3;",'X2_TRIPLES')
    for op,tag in {'f16':[('neg',''),('abs.ftz',''),('ex2.approx','approx(ulp=2) '),('tanh.approx','approx(ulp=2) ')],
                   'bf16':[('neg',''),('abs',''),('ex2.approx.ftz','approx(ulp=2) '),('tanh.approx','approx(ulp=2) ')]}[ty]:
        n=f"{op}.{t2}"; f(ident(n),'R_R',n,f"{n} %0, %1;",'X2_UNARY',tag)
    for c in ['lt','equ', f'ne{ftz}', 'nan']:
        n=f"setp.{c}.{t2}"
        f(ident(n),'PP_RR',n,f"{{ .reg .pred pa, pb; {n} pa|pb, %2, %3; selp.u32 %0, 1, 0, pa; selp.u32 %1, 1, 0, pb; }}",'X2_PAIRS')
    n=f"setp.gt.and.{t2}"
    f(ident(n),'PP_RRR',n,f"{{ .reg .pred pa, pb, pc; setp.ne.u32 pc, %4, 0; {n} pa|pb, %2, %3, !pc; selp.u32 %0, 1, 0, pa; selp.u32 %1, 1, 0, pb; }}",'X2_PRED')
    for c,dt in [('lt',t2),('gtu','u32'),('eq','s32')]:
        n=f"set.{c}.{dt}.{t2}"; f(ident(n),'R_RR',n,f"{n} %0, %1, %2;",'X2_PAIRS')
    # conversions
    rnds = ['rn','rz','rm','rp']
    for r in rnds:
        n=f"cvt.{r}.{ty}.f32"; f(ident(n),'H_F',n,f"{n} %0, %1;",'F32')
    extra = {'f16':['rn.ftz','rn.sat','rn.relu','rz.relu'],'bf16':['rn.relu','rz.relu']}[ty]
    for r in extra:
        n=f"cvt.{r}.{ty}.f32"; f(ident(n),'H_F',n,f"{n} %0, %1;",'F32')
    for r in ['rn','rz','rn.relu']:
        n=f"cvt.{r}.{t2}.f32"; f(ident(n),'R_FF',n,f"{n} %0, %1, %2;",'F32_PAIRS')
    n=f"cvt.f32.{ty}"; f(ident(n),'F_H',n,f"{n} %0, %1;",'UNARY')
    for r in rnds:
        n=f"cvt.{r}.{ty}.f64"; f(ident(n),'H_D',n,f"{n} %0, %1;",'F64')
    for r,s,shape in [('rn','s32','H_R'),('rz','u32','H_R'),('rn','s64','H_L'),('rm','u64','H_L'),('rp','s16','H_R')]:
        n=f"cvt.{r}.{ty}.{s}"
        if s=='s16':
            f(ident(n),'H_H',n,f"{n} %0, %1;",'UNARY')
        else:
            f(ident(n),shape,n,f"{n} %0, %1;",'INT')
    for r in ['rni','rzi','rmi','rpi']:
        n=f"cvt.{r}.{ty}.{ty}"; f(ident(n),'H_H',n,f"{n} %0, %1;",'UNARY')
    for r,d,shape in [('rzi','s32','R_H'),('rni','u16','H_H'),('rpi','s64','R_H')]:
        n=f"cvt.{r}.{d}.{ty}"
        if d=='s64':
            continue
        f(ident(n),shape,n,f"{n} %0, %1;",'UNARY')
    if ty=='bf16':
        for r in ['rna']:  # .satfinite: not parsed yet (see README.md)
            n=f"cvt.{r}.tf32.f32"; f(ident(n),'R_F',n,f"{n} %0, %1;",'F32')
    if ty=='f16':
        f('mov_pack','R_HH','mov.b32 {a,b}',"mov.b32 %0, {%1, %2};",'CMP_PAIRS')
        f('mov_unpack','HH_R','mov.b32 {a,b}, r',"mov.b32 {%0, %1}, %2;",'X2_UNARY')
        f('st_ld_b16','H_HH_MEM','st.b16 ld.b16',"st.b16 [%1], %2; st.b16 [%1+2], %3; ld.b16 %0, [%1+2];",'CMP_PAIRS')
        f('selp_b16','H_HHR','selp.b16',"{ .reg .pred p; setp.ne.u32 p, %3, 0; selp.b16 %0, %1, %2, p; }",'SEL')
    return F

DOMAINS = {
 'f16': dict(
  dom16=[0x0000,0x8000,0x0001,0x8001,0x03ff,0x0400,0x8400,0x7bff,0xfbff,0x7c00,0xfc00,0x7e00,0x7c01,0xfe13,
         0x3c00,0xbc00,0x3c01,0x3e00,0x4248,0xc500,0x3555,0x0200,0x1400],
  dom16_cmp=[0x0000,0x8000,0x0001,0x8001,0x0400,0x7bff,0x7c00,0xfc00,0x7e00,0xfe13,0x3c00,0xbc00,0x3c01,0x7c01],
  extra_unary=[0x4c00,0x4bff,0x4b80,0xcc80,0xce00,0xce40,0xcb40,0xc900,0x4900,0x3800,0xb800,0x4299,0x3266,0xb266,
         0x1000,0x4500,0xc200,0x3bff,0x4400,0x3d00,0x4d00,0x5640,0x3a00,0x4100,0xc100,0x6400,0x7a00,0xfa00],
  fma_a=[0x3c01,0x3e00,0x7bff,0x0001,0x03ff,0x8400,0x3555,0xc248,0x7c00,0x7e00],
  fma_b=[0x3c01,0x3e00,0x0400,0xbc00,0x5bff,0x0000,0x7c00,0x3801],
  fma_c=[0x0000,0x8000,0x0001,0x8001,0x3c00,0xfc00]),
 'bf16': dict(
  dom16=[0x0000,0x8000,0x0001,0x8001,0x007f,0x0080,0x8080,0x7f7f,0xff7f,0x7f80,0xff80,0x7fc0,0x7f81,0xffc5,
         0x3f80,0xbf80,0x3f81,0x3fc0,0x4049,0xc0a0,0x3eab,0x0100,0x3c00,0x7f00],
  dom16_cmp=[0x0000,0x8000,0x0001,0x8001,0x0080,0x7f7f,0x7f80,0xff80,0x7fc0,0xffc5,0x3f80,0xbf80,0x3f81,0x7f81],
  extra_unary=[0x4380,0x437f,0x4300,0xc300,0xc304,0xc306,0xc308,0xc1a0,0x4120,0x3f00,0xbf00,0x4053,0x3e4d,0xbe4d,
         0x3a00,0x40a0,0xc040,0x3f7f,0x4080,0x3fa0,0x41a0,0x42c8,0x3f40,0x4020,0xc020,0x4480,0x7e00,0xfe00],
  fma_a=[0x3f81,0x3fc0,0x7f7f,0x0001,0x007f,0x8080,0x3eab,0xc049,0x7f80,0x7fc0],
  fma_b=[0x3f81,0x3fc0,0x0080,0xbf80,0x437f,0x0000,0x7f80,0x3f01],
  fma_c=[0x0000,0x8000,0x0001,0x8001,0x3f80,0xff80]),
}
DOM_F32 = [0x00000000,0x80000000,0x00000001,0x807fffff,0x00800000,0x7f7fffff,0xff7fffff,0x7f800000,0xff800000,
  0x7fc00000,0xffc00001,0x7f800001,0x7fa12345,0x3f800000,0xbf800000,
  0x477fe000,0x477fefff,0x477ff000,0xc77ff000,0x477ff001,0x47800000,0x33800000,0x33000000,0x33000001,0xb3000001,
  0x33c00000,0x387fc000,0x387fe000,0x38800000,0x3f801000,0x3f803000,0x3f801001,0xbf801001,0x3eaaaaab,0x40490fdb,
  0xc0490fdb,0x3f808000,0x3f818000,0x3f808001,0xbf808001,0x7f7f8000,0x7f7f7fff,0x00008000,0x00018000,0x0000ffff,
  0x807f8000,0x3f800fff,0x3f802fff,0xbf801000,0x7f7ff000,0x00001000,0x00400000,0x80400000,0x42c80000,0xc2c80000,
  0x3c23d70a,0x5f000000,0x4b800000,0x3a800000,0x3effffff,0xbf000000,0x3f7fffff,0x3f800001,0x40000000,0x3f7ff000]
DOM_F64 = [0x0,0x8000000000000000,0x1,0x3ff0000000000000,0xbff0000000000000,0x7ff0000000000000,0xfff0000000000000,
  0x7ff8000000000000,0x7ff0000000000001,0xfff8000000000123,0x40effc0000000000,0x40effe0000000000,0x40effdffffffffff,
  0x3e70000000000000,0x3e60000000000000,0x3e60000000000001,0x3ff0020000000000,0x3ff0020000000001,0xbff0020000000001,
  0x3ff0100000000000,0x3ff0100000000001,0x3ff0300000000000,0x47efffffffffffff,0x7fefffffffffffff,0x3810000000000000,
  0x37a0000000000000,0x3790000000000000,0x3790000000000001,0x400921fb54442d18,0x3fd5555555555555,0xc0f0000000000000,
  0x47effff000000000,0x47effff000000001,0x3e6fffffffffffff]
DOM_INT = [0,1,0xffffffffffffffff,0x7fffffff,0x80000000,0xffffffff80000000,0xffe0,0xfff0,0xffef,0x10000,
  0x7fffffffffffffff,0x8000000000000000,0x0020000000000001,0x1000001,0x801,0x803,0x101,0x103,0xfffffffffffff7ff,
  0xffffffff,0x12345678,0xfffffffffffe0000,0xff800000,0x7f800000]

def arr(name, values):
    return f"static const u64 {name}[] = {{" + ", ".join(f"0x{v:x}ull" for v in values) + "};\n"

def write(ty, path, what):
    d = DOMAINS[ty]
    out = [f"// GENERATED by tests/isa/generate_half.py: edit the generator, not this file.\n",
           f"// {what}\n",
           "// Each line: [approx(ulp=N) ]form inputs -> outputs, all in hex; expected/" + path.replace('.cu','.out') +
           " is what an H100/H200 printed.\n",
           "typedef unsigned long long u64;\n"]
    out.append(arr("dom16", d['dom16']))
    out.append(arr("dom16_cmp", d['dom16_cmp']))
    out.append(arr("dom16_unary", d['dom16'] + d['extra_unary']))
    for k in ('fma_a','fma_b','fma_c'): out.append(arr(k, d[k]))
    out.append(arr("dom_f32", DOM_F32)); out.append(arr("dom_f64", DOM_F64)); out.append(arr("dom_int", DOM_INT))
    out.append('#include "half_harness.h"\n\n#define FORMS(X) \\\n')
    for (i,sh,n,t,c,tag) in forms(ty, True):
        t=t.replace('"','\\"')
        out.append(f'  X({i}, {sh}, "{n}", "{t}", {c}, "{tag}") \\\n')
    out.append("\nFORMS(DEFINE_KERNEL)\n\nstatic const Form kForms[] = {FORMS(FORM_ENTRY)};\n\n"
               "int main() { return run_forms(kForms, sizeof(kForms) / sizeof(kForms[0])); }\n")
    open(path,'w').write("".join(out))

write('f16', 'half_precision.cu', 'f16 and f16x2: add sub mul fma (.ftz .sat .relu), neg abs min max (.NaN), ex2/tanh.approx, setp set selp, cvt to/from f16, mov pack/unpack, ld/st .b16.')
write('bf16', 'bf16.cu', 'bf16 and bf16x2: add sub mul fma (.relu), neg abs min max (.NaN), ex2/tanh.approx, setp set, cvt to/from bf16, cvt.rna.tf32.f32.')
