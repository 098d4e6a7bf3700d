# A Numba kernel run on cucpu: numba-cuda compiles the Python function through NVVM to
# LTO-IR, links it with nvJitLink (cucpu's stands in front of NVIDIA's and hands back PTX),
# loads it with cuLibraryLoadData and launches it with cuLaunchKernelEx.
import numpy as np
from numba import cuda


@cuda.jit
def add(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] * 2 + b[i]


@cuda.jit
def block_sums(data, sums):
    shared = cuda.shared.array(128, dtype=np.float32)
    t = cuda.threadIdx.x
    shared[t] = data[cuda.grid(1)]
    cuda.syncthreads()
    step = 64
    while step > 0:
        if t < step:
            shared[t] += shared[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        sums[cuda.blockIdx.x] = shared[0]


n = 4096
a = np.arange(n, dtype=np.float32)
b = np.full(n, 0.5, dtype=np.float32)
out = cuda.device_array(n, dtype=np.float32)
add[n // 128, 128](cuda.to_device(a), cuda.to_device(b), out)
print("add:", "PASS" if np.array_equal(out.copy_to_host(), a * 2 + b) else "FAIL")
sums = cuda.device_array(n // 128, dtype=np.float32)
block_sums[n // 128, 128](cuda.to_device(a), sums)
expected = a.reshape(-1, 128).sum(axis=1)
print("block sums:", "PASS" if np.array_equal(sums.copy_to_host(), expected) else "FAIL")
