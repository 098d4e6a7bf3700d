# CuPy's kernels on cucpu: element-wise (compiled through NVRTC, whose cubin cucpu's
# libnvrtc.so.13 hands back as PTX) and a reduction, checked against NumPy.
import cupy as cp
import numpy as np

n = 1 << 16
x = cp.arange(n, dtype=cp.float32)
y = cp.full(n, 0.25, dtype=cp.float32)
z = x * 2 + y
print("elementwise:", "PASS" if np.array_equal(cp.asnumpy(z), np.arange(n, dtype=np.float32) * 2 + 0.25) else "FAIL")
kernel = cp.ElementwiseKernel("float32 a, float32 b", "float32 c", "c = a > b ? a - b : b - a", "absdiff")
d = kernel(x, cp.float32(1000))
print("ElementwiseKernel:", "PASS" if np.array_equal(cp.asnumpy(d), np.abs(np.arange(n, dtype=np.float32) - 1000)) else "FAIL")
s = int(cp.arange(1000, dtype=cp.int64).sum())
print("reduction:", "PASS" if s == 499500 else "FAIL")
