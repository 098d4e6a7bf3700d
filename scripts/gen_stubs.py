#!/usr/bin/env python3
"""Generates the entry points of libcudart.so.13 or libcuda.so.1 that cucpu does not
implement yet.

Every function NVIDIA's library exports (read from that library with nm, never copied by
hand: libcudart.so.13 itself, and for the driver the toolkit's stub libcuda.so, which
lists every name of cuda.h) must exist in ours, so that any program loads and finds its
symbols. The functions our objects define are the implemented ones; every other one
becomes a stub that says on stderr which function is missing and returns the API's "not
supported" code. The stubs take no parameters: on x86-64 a callee may ignore its
arguments, and the error code goes back in eax as the caller of a `cudaError_t f(...)` /
`CUresult f(...)` expects. A missing function whose header declares any other return
type would be wrong as such a stub: that fails the build.

Also writes the version script that exports exactly NVIDIA's list: the runtime's under
the version node libcudart.so.13, the driver's unversioned (as NVIDIA's libcuda.so.1),
together with cucpu's own C++ interface (namespace cucpu), which libcudart.so.13 calls:
both APIs run on the one engine inside libcuda.so.1.

The math libraries (cuBLAS, cuRAND, cuFFT, cuSPARSE, cuSOLVER) are made the same way, with
one difference: some of their functions return something other than a status (cuBLAS's
legacy API returns results and keeps its error for cublasGetError; cuFFTW's plans are
pointers). A missing one of those reports itself through the library's `missing_value`
function, which keeps the error where that API keeps it, and returns zero (0, 0.0, a null
pointer, a zero complex number) in the registers the declared type uses.

usage: gen_stubs.py runtime|driver|LIBRARY NVIDIA_LIB INCLUDE_DIR OUT_STUBS OUT_VERSION_SCRIPT OBJECT..."""
import re
import subprocess
import sys

APIS = {
    "runtime": dict(headers=["cuda_runtime_api.h", "crt/host_runtime.h", "crt/device_functions.h"],
                    calling="CUDARTAPI", result="cudaError_t", version_node="libcudart.so.13",
                    missing="cucpu_report_missing_function", header="api/runtime/missing_function.h",
                    exports_engine=False),
    "driver": dict(headers=["cuda.h", "cudaProfiler.h"],
                   calling="CUDAAPI", result="CUresult", version_node="",
                   missing="cucpu_report_missing_driver_function", header="api/driver/missing_function.h",
                   exports_engine=True),
}


def math_library(soname, headers, calling, result, name):
    """A math library's entry: its stubs report through src/libs/<name>/missing_function.h."""
    return dict(headers=headers, calling=calling, result=result, version_node=soname,
                missing=f"cucpu_report_missing_{name}_function",
                missing_value=f"cucpu_report_missing_{name}_value",
                header=f"libs/{name}/missing_function.h", exports_engine=False)


APIS.update({
    "cublas": math_library("libcublas.so.13", ["cublas_api.h", "cublas.h", "cublasXt.h"], "CUBLASWINAPI",
                           "cublasStatus_t", "cublas"),
    "cublasLt": math_library("libcublasLt.so.13", ["cublasLt.h"], "CUBLASWINAPI", "cublasStatus_t", "cublas"),
    "curand": math_library("libcurand.so.10", ["curand.h"], "CURANDAPI", "curandStatus_t", "curand"),
    "cufft": math_library("libcufft.so.12", ["cufft.h", "cufftXt.h"], "CUFFTAPI", "cufftResult", "cufft"),
    "cufftw": math_library("libcufftw.so.12", ["cufftw.h"], "CUFFTAPI", "cufftResult", "cufft"),
    "cusparse": math_library("libcusparse.so.12", ["cusparse.h"], "CUSPARSEAPI", "cusparseStatus_t", "cusparse"),
    "cusolver": math_library("libcusolver.so.12", ["cusolverDn.h", "cusolverSp.h", "cusolverRf.h",
                                                   "cusolverSp_LOWLEVEL_PREVIEW.h", "cusolver_common.h"],
                             "CUSOLVERAPI", "cusolverStatus_t", "cusolver"),
})

# How a stub that is no status returns its zero: the C type whose zero lands in the same
# registers as the declared type's (x86-64 System V).
ZERO_TYPES = {"void": "void", "float": "double", "double": "double",
              "cuComplex": "ZeroComplex", "cuDoubleComplex": "ZeroComplex"}


def exported_symbols(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] not in ("A", "W", "w"):
            names.add(parts[2].split("@")[0])
    return sorted(names)


def defined_symbols(objects):
    out = subprocess.run(["nm", "--defined-only", *objects], check=True, capture_output=True, text=True).stdout
    return {parts[2] for parts in (line.split() for line in out.splitlines()) if len(parts) == 3 and parts[1] == "T"}


def declared_return_types(include_dir, api):
    text = ""
    for header in api["headers"]:
        text += open(f"{include_dir}/{header}", errors="replace").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//.*$", "", text, flags=re.M)
    text = re.sub(r"^\s*#.*$", "", text, flags=re.M)  # preprocessor lines are not declarations
    types = {}
    for match in re.finditer(r"([\w\*][\w\s\*]*?)\s+" + api["calling"] + r"\s+(\w+)\s*\(", text):
        words = match.group(1).split()
        words = [w for w in words if not w.startswith("__") and w not in ("extern", "struct", "enum", "static")
                 and not re.fullmatch(r"[A-Z0-9_]+|\d+", w)]  # macros such as CUSPARSE_DEPRECATED
        if api["result"] in words or api["result"].removesuffix("_t") in words:
            words = [api["result"]]
        types.setdefault(match.group(2), " ".join(words).replace(" *", "*"))
    return types


def base_name(symbol):
    return re.sub(r"(_v\d)?(_ptsz|_ptds)?$", "", symbol)


def main():
    which, library, include_dir, out_stubs, out_script, *objects = sys.argv[1:]
    api = APIS[which]
    exported = exported_symbols(library)
    implemented = defined_symbols(objects)
    types = declared_return_types(include_dir, api)
    missing = [s for s in exported if s not in implemented]
    # cublasSgemm_v2 is declared under its own name; cuMemAlloc_v2 only as cuMemAlloc.
    declared = {s: types.get(s, types.get(base_name(s), api["result"])) for s in missing}
    wrong = [s for s in missing if declared[s] != api["result"] and "missing_value" not in api]
    if wrong:
        sys.exit(f"gen_stubs: these functions do not return {api['result']} and must be implemented: "
                 + ", ".join(f"{s} ({types[base_name(s)]})" for s in wrong))
    with open(out_stubs, "w") as f:
        f.write(f"// Generated by scripts/gen_stubs.py: the {library.split('/')[-1]} functions cucpu does not\n")
        f.write(f"// implement yet ({len(missing)} of {len(exported)}). Each says which one is missing.\n")
        f.write(f'#include "{api["header"]}"\n\n')
        if "missing_value" in api:
            f.write("struct ZeroComplex { double re, im; };  // cuComplex or cuDoubleComplex: zero in xmm0/xmm1\n\n")
        f.write('extern "C" {\n')
        for symbol in missing:
            if declared[symbol] == api["result"]:
                f.write(f'int {symbol}() {{ return {api["missing"]}("{symbol}"); }}\n')
                continue
            zero_type = ZERO_TYPES.get(declared[symbol], "long")  # integers, enums, pointers: rax
            f.write(f'{zero_type} {symbol}() {{ {api["missing_value"]}("{symbol}"); {"return" if zero_type == "void" else "return {}"}; }}\n')
        f.write("}\n")
    with open(out_script, "w") as f:
        f.write(f"{api['version_node']} {{\n  global:\n".lstrip())
        f.writelines(f"    {symbol};\n" for symbol in exported)
        if api["exports_engine"]:
            f.write('    extern "C++" { cucpu::*; "typeinfo for cucpu::*"; "vtable for cucpu::*"; };\n')
        f.write("  local: *;\n};\n")
    print(f"gen_stubs: {len(exported) - len(missing)} of {len(exported)} {which} functions implemented")


if __name__ == "__main__":
    main()
