// jit_startup: how long a program with a mid-sized module (32 kernels: 8 kernel templates
// of the kinds the other benchmarks use, each for float, double, int and unsigned) takes
// from its start to the end of its first kernel launch. Under cucpu that launch compiles
// the whole module, so this is the JIT's cold time; with a disk cache of compiled code
// (CUCPU_CACHE_DIR), a second run of the program with the same cache is the warm time.
// bench/run.sh runs it twice with the same fresh CUCPU_CACHE_DIR.
//
// "Start" is BENCH_T0_NS (nanoseconds of CLOCK_REALTIME, which bench/run.sh takes just
// before it starts the program, so `cucpu run` itself is counted) or, without it, the
// process's start time from /proc (10 ms resolution). SIZE is the first kernel's element
// count; RUNS is unused: each process measures once.
#include <ctime>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "common.h"
#include "cuda_check.h"

constexpr int kBlock = 256;

template <class T>
__global__ void axpy(long n, T a, const T* x, T* y) {
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

template <class T>
__global__ void tree_sums(const T* in, T* partial, long n) {
    __shared__ T sdata[kBlock];
    const unsigned tid = threadIdx.x;
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : T(0);
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sdata[0];
}

template <class T>
__global__ void shuffle_sums(const T* in, T* partial, long n) {
    __shared__ T warp_sums[kBlock / 32];
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
    T v = i < n ? in[i] : T(0);
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < kBlock / 32 ? warp_sums[threadIdx.x] : T(0);
        for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
        if (threadIdx.x == 0) partial[blockIdx.x] = v;
    }
}

template <class T>
__global__ void block_scan(const T* in, T* out, long n) {
    __shared__ T buffer[2][kBlock];
    const unsigned tid = threadIdx.x;
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + tid;
    int current = 0;
    buffer[0][tid] = i < n ? in[i] : T(0);
    __syncthreads();
    for (unsigned offset = 1; offset < blockDim.x; offset <<= 1) {
        const T value = buffer[current][tid];
        buffer[1 - current][tid] = tid >= offset ? value + buffer[current][tid - offset] : value;
        current = 1 - current;
        __syncthreads();
    }
    if (i < n) out[i] = buffer[current][tid];
}

template <class T>
__global__ void transpose_tiles(const T* in, T* out, int n) {
    __shared__ T tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[static_cast<long>(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[static_cast<long>(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <class T>
__global__ void five_point(const T* in, T* out, int n) {
    __shared__ T tile[18][18];
    const int tx = threadIdx.x, ty = threadIdx.y, x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
    const long at = static_cast<long>(y) * n + x;
    tile[ty + 1][tx + 1] = in[at];
    if (ty == 0) tile[0][tx + 1] = y > 0 ? in[at - n] : T(0);
    if (ty == 15) tile[17][tx + 1] = y + 1 < n ? in[at + n] : T(0);
    if (tx == 0) tile[ty + 1][0] = x > 0 ? in[at - 1] : T(0);
    if (tx == 15) tile[ty + 1][17] = x + 1 < n ? in[at + 1] : T(0);
    __syncthreads();
    out[at] = T(2) * tile[ty + 1][tx + 1] - (tile[ty][tx + 1] + tile[ty + 2][tx + 1]) / T(4) -
              (tile[ty + 1][tx] + tile[ty + 1][tx + 2]) / T(4);
}

template <class T>
__global__ void row_max_and_sum(const T* in, T* maxima, T* sums, int cols) {
    const int lane = threadIdx.x % 32;
    const long row = static_cast<long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
    T best = in[row * cols], sum = T(0);
    for (int c = lane; c < cols; c += 32) best = max(best, in[row * cols + c]), sum += in[row * cols + c];
    for (int mask = 16; mask > 0; mask >>= 1) {
        best = max(best, __shfl_xor_sync(0xffffffffu, best, mask));
        sum += __shfl_xor_sync(0xffffffffu, sum, mask);
    }
    if (lane == 0) maxima[row] = best, sums[row] = sum;
}

template <class T>
__global__ void tile_forces(const T* positions, T* forces, int n) {
    __shared__ T tile[kBlock];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const T me = positions[i];
    T force = T(0);
    for (int base = 0; base < n; base += kBlock) {
        tile[threadIdx.x] = positions[base + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < kBlock; ++j) force += (tile[j] - me) * (tile[j] > me ? T(1) : T(2));
        __syncthreads();
    }
    forces[i] = force;
}

#define INSTANTIATE(T)                                                    \
    template __global__ void axpy<T>(long, T, const T*, T*);              \
    template __global__ void tree_sums<T>(const T*, T*, long);            \
    template __global__ void shuffle_sums<T>(const T*, T*, long);         \
    template __global__ void block_scan<T>(const T*, T*, long);           \
    template __global__ void transpose_tiles<T>(const T*, T*, int);       \
    template __global__ void five_point<T>(const T*, T*, int);            \
    template __global__ void row_max_and_sum<T>(const T*, T*, T*, int);   \
    template __global__ void tile_forces<T>(const T*, T*, int);
INSTANTIATE(float)
INSTANTIATE(double)
INSTANTIATE(int)
INSTANTIATE(unsigned)

// Milliseconds since the program started (see the file's opening comment).
static double ms_since_start() {
    if (const char* t0 = std::getenv("BENCH_T0_NS")) {
        timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        return ((now.tv_sec * 1000000000.0 + now.tv_nsec) - std::atof(t0)) / 1e6;
    }
    std::ifstream stat_file("/proc/self/stat"), uptime_file("/proc/uptime");
    std::string stat((std::istreambuf_iterator<char>(stat_file)), std::istreambuf_iterator<char>());
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));  // the name may hold spaces
    std::string field;
    for (int index = 3; index <= 22; ++index) fields >> field;  // field 22: start time in clock ticks
    double uptime = 0;
    uptime_file >> uptime;
    return (uptime - std::atof(field.c_str()) / sysconf(_SC_CLK_TCK)) * 1000.0;
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1L << 16, kBlock);
    const long n = options.size;
    std::vector<float> x(n), y(n);
    for (long i = 0; i < n; ++i) x[i] = bench::uniform(i, 20), y[i] = bench::uniform(i, 21);
    DeviceBuffer<float> device_x(n), device_y(n);
    device_x.upload(x.data());
    device_y.upload(y.data());

    axpy<float><<<n / kBlock, kBlock>>>(n, 2.0f, device_x.get(), device_y.get());
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    const double ms = ms_since_start();

    std::vector<float> result(n);
    device_y.download(result.data());
    bench::Check check;
    for (long i = 0; i < n; ++i) check.near("y", i, result[i], 2.0 * x[i] + y[i], 1e-6);
    return bench::report_ms("jit_startup", "cuda", n, ms, check);
}
