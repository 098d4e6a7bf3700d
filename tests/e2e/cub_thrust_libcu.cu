// CUDA's own C++ libraries on cucpu: Thrust algorithms (sort, sort_by_key, reduce, scan,
// transform, count_if), CUB device-wide primitives (radix sort, reduce, scan, select) and
// block/warp collectives, and libcu++ (cuda::atomic_ref, cuda::barrier, cuda::pipeline with
// memcpy_async, cuda::std::complex). Their PTX is full of inline asm from the headers; each
// result is printed and checked against the host.
// NVCC-FLAGS: -std=c++17
#include <cstdio>
#include <algorithm>
#include <numeric>
#include <vector>

#include <cub/cub.cuh>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/std/complex>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#pragma nv_diag_suppress static_var_with_dynamic_init

constexpr int kN = 1 << 16;
constexpr int kBlock = 128;
static int failures = 0;

static void report(const char* what, long long got, long long want) {
    bool ok = got == want;
    failures += !ok;
    printf("%-34s %lld%s\n", what, got, ok ? "" : "  <-- wrong");
}

// A scrambled permutation of 0..n-1 (multiplying by an odd number modulo 2^16).
static std::vector<int> scrambled(int n) {
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = (i * 40503 + 17) & (n - 1);
    return v;
}

__global__ void block_collectives(const int* in, int* block_sum, int* exclusive, int* warp_sum) {
    using BlockReduce = cub::BlockReduce<int, kBlock>;
    using BlockScan = cub::BlockScan<int, kBlock>;
    using WarpReduce = cub::WarpReduce<int>;
    __shared__ typename BlockReduce::TempStorage reduce_storage;
    __shared__ typename BlockScan::TempStorage scan_storage;
    __shared__ typename WarpReduce::TempStorage warp_storage[kBlock / 32];
    const int i = blockIdx.x * kBlock + threadIdx.x;
    const int v = in[i];
    const int sum = BlockReduce(reduce_storage).Sum(v);
    BlockScan(scan_storage).ExclusiveSum(v, exclusive[i]);
    const int warp = WarpReduce(warp_storage[threadIdx.x / 32]).Sum(v);
    if (threadIdx.x == 0) block_sum[blockIdx.x] = sum;
    if (threadIdx.x % 32 == 0) warp_sum[i / 32] = warp;
}

__global__ void libcu_features(const int* in, int* counter, int* staged, float* complex_out) {
    cuda::atomic_ref<int, cuda::thread_scope_device> count(*counter);
    count.fetch_add(in[threadIdx.x] & 3, cuda::memory_order_relaxed);

    __shared__ cuda::barrier<cuda::thread_scope_block> barrier;
    if (threadIdx.x == 0) init(&barrier, blockDim.x);
    __syncthreads();

    // Stage this block's slice through shared memory with memcpy_async and a pipeline.
    __shared__ int slice[kBlock];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    pipe.producer_acquire();
    cuda::memcpy_async(&slice[threadIdx.x], &in[blockIdx.x * kBlock + threadIdx.x], sizeof(int), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    pipe.consumer_release();
    barrier.arrive_and_wait();
    staged[blockIdx.x * kBlock + threadIdx.x] = slice[kBlock - 1 - threadIdx.x];

    cuda::std::complex<float> z(float(threadIdx.x), 1.0f);
    z = z * z + cuda::std::complex<float>(0.5f, -2.0f);
    complex_out[blockIdx.x * kBlock + threadIdx.x] = z.real() + 3.0f * z.imag();
}

struct IsMultipleOf3 {
    __host__ __device__ bool operator()(int x) const { return x % 3 == 0; }
};
struct Square {
    __host__ __device__ long long operator()(int x) const { return 1ll * x * x; }
};

int main() {
    const std::vector<int> host = scrambled(kN);
    std::vector<long long> prefix(kN);
    std::partial_sum(host.begin(), host.end(), prefix.begin(),
                     [](long long a, long long b) { return a + b; });

    // Thrust.
    thrust::device_vector<int> v(host.begin(), host.end());
    thrust::device_vector<int> values(kN);
    thrust::sequence(values.begin(), values.end());
    thrust::sort_by_key(v.begin(), v.end(), values.begin());
    report("thrust::sort_by_key first key", v[0], 0);
    const int index_of_7 = static_cast<int>(std::find(host.begin(), host.end(), 7) - host.begin());
    report("thrust::sort_by_key value of key 7", values[7], index_of_7);
    report("thrust::reduce", thrust::reduce(v.begin(), v.end(), 0ll), 1ll * kN * (kN - 1) / 2);
    thrust::device_vector<long long> squares(kN);
    thrust::transform(v.begin(), v.end(), squares.begin(), Square());
    thrust::inclusive_scan(squares.begin(), squares.end(), squares.begin());
    report("thrust::transform + inclusive_scan", squares.back(),
           1ll * (kN - 1) * kN * (2ll * kN - 1) / 6);
    report("thrust::count_if", thrust::count_if(v.begin(), v.end(), IsMultipleOf3()), (kN + 2) / 3);
    thrust::device_vector<int> descending(host.begin(), host.end());
    thrust::sort(descending.begin(), descending.end(), thrust::greater<int>());
    report("thrust::sort greater, element 10", descending[10], kN - 11);

    // CUB device-wide.
    thrust::device_vector<int> in(host.begin(), host.end()), out(kN);
    thrust::device_vector<long long> scanned(kN);
    thrust::device_vector<int> total(1), selected_count(1);
    int* in_p = thrust::raw_pointer_cast(in.data());
    int* out_p = thrust::raw_pointer_cast(out.data());
    size_t bytes = 0, most = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, bytes, in_p, out_p, kN);
    most = std::max(most, bytes);
    cub::DeviceReduce::Sum(nullptr, bytes, in_p, thrust::raw_pointer_cast(total.data()), kN);
    most = std::max(most, bytes);
    cub::DeviceScan::InclusiveSum(nullptr, bytes, in_p, thrust::raw_pointer_cast(scanned.data()), kN);
    most = std::max(most, bytes);
    cub::DeviceSelect::If(nullptr, bytes, in_p, out_p, thrust::raw_pointer_cast(selected_count.data()), kN,
                          IsMultipleOf3());
    most = std::max(most, bytes);
    thrust::device_vector<char> temp(most);
    void* temp_p = thrust::raw_pointer_cast(temp.data());
    bytes = most;
    cub::DeviceRadixSort::SortKeys(temp_p, bytes, in_p, out_p, kN);
    report("cub::DeviceRadixSort element 12345", out[12345], 12345);
    bytes = most;
    cub::DeviceReduce::Sum(temp_p, bytes, in_p, thrust::raw_pointer_cast(total.data()), kN);
    report("cub::DeviceReduce::Sum", total[0], static_cast<int>(1ll * kN * (kN - 1) / 2));
    bytes = most;
    cub::DeviceScan::InclusiveSum(temp_p, bytes, in_p, thrust::raw_pointer_cast(scanned.data()), kN);
    report("cub::DeviceScan element 999", scanned[999], prefix[999]);
    bytes = most;
    cub::DeviceSelect::If(temp_p, bytes, in_p, out_p, thrust::raw_pointer_cast(selected_count.data()), kN,
                          IsMultipleOf3());
    report("cub::DeviceSelect::If count", selected_count[0], (kN + 2) / 3);
    int first_selected = -1;
    for (int x : host)
        if (x % 3 == 0) {
            first_selected = x;
            break;
        }
    report("cub::DeviceSelect::If first", out[0], first_selected);

    // CUB block and warp collectives.
    const int blocks = kN / kBlock;
    thrust::device_vector<int> block_sum(blocks), exclusive(kN), warp_sum(kN / 32);
    block_collectives<<<blocks, kBlock>>>(in_p, thrust::raw_pointer_cast(block_sum.data()),
                                          thrust::raw_pointer_cast(exclusive.data()),
                                          thrust::raw_pointer_cast(warp_sum.data()));
    auto host_sum = [&](int from, int count) {
        return std::accumulate(host.begin() + from, host.begin() + from + count, 0ll);
    };
    report("cub::BlockReduce block 77", block_sum[77], host_sum(77 * kBlock, kBlock));
    report("cub::BlockScan element 300", exclusive[300], host_sum(2 * kBlock, 300 - 2 * kBlock));
    report("cub::WarpReduce warp 1001", warp_sum[1001], host_sum(1001 * 32, 32));

    // libcu++.
    thrust::device_vector<int> counter(1, 0), staged(kN);
    thrust::device_vector<float> complex_out(kN);
    libcu_features<<<blocks, kBlock>>>(in_p, thrust::raw_pointer_cast(counter.data()),
                                       thrust::raw_pointer_cast(staged.data()),
                                       thrust::raw_pointer_cast(complex_out.data()));
    long long low_bits = 0;
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < kBlock; ++t) low_bits += host[t] & 3;  // every block reads in[0..127]
    report("cuda::atomic_ref fetch_add", counter[0], low_bits);
    report("cuda::pipeline memcpy_async", staged[5 * kBlock + 2], host[5 * kBlock + kBlock - 1 - 2]);
    const float t = 9.0f;  // (9 + i)^2 + (0.5 - 2i) = 80.5 + 16i
    report("cuda::std::complex (x1000)", static_cast<long long>(complex_out[9] * 1000),
           static_cast<long long>((t * t - 1 + 0.5f + 3.0f * (2 * t - 2)) * 1000));

    printf("%s, %s\n", cudaGetErrorName(cudaDeviceSynchronize()), failures ? "FAILED" : "all as on the host");
    return failures ? 1 : 0;
}
