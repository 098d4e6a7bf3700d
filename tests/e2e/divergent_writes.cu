// divergent_writes: registers written by some lanes of a warp while others wait elsewhere
// (on the other side of a branch, at a loop's exit, past the end of the data). The
// compiled block strategy writes a register's whole vector there when no waiting lane
// reads it before writing it again, and must keep the waiting lanes' values otherwise:
//   - both sides of an if/else write x, read after the join;
//   - one side writes t, which the other side (run before or after it) reads as it was;
//   - a loop whose trip count differs per lane accumulates into acc (read after the loop),
//     with a temporary that lives only inside the body, and breaks out early;
//   - a divergent loop nested in a divergent if;
//   - `if (i < n) y[i] = a * x[i] + y[i]` with n not a multiple of 32 (its addresses live
//     only inside the branch), and the same with the branch's sides swapped;
//   - consecutive global and shared accesses by lanes 5 to 28 only (lane 0 inactive: the
//     vector access starts where lane 0's address would be);
//   - 16x16 blocks (a warp is two rows): each row's lanes consecutive, some lanes or a whole
//     row inactive, one element read by a whole row (`tile[ty][0]`), a transposed read.
#include <cstdio>
#include <vector>

constexpr int kThreads = 128;

__global__ void if_else_join(unsigned* out) {
    const unsigned tid = threadIdx.x;
    unsigned x = tid;
    if ((tid * 2654435761u) >> 29 < 3)
        x = x * 3 + 1;
    else
        x = (x ^ 0x55u) + 7;
    out[tid] = x;
}

// t is set before the branch; one side writes it, the other reads the old value. Which side
// runs first is the compiler's: both orders are asked (the condition and its negation).
__global__ void side_reads_old_value(unsigned* out, int flip) {
    const unsigned tid = threadIdx.x;
    unsigned t = tid * 11 + 3, u = 0;
    const bool left = ((tid % 5) < 2) != (flip != 0);
    if (left) {
        t = t * 7 + tid;  // written on this side only
        u = t + 1;
    } else {
        u = t * 2;  // the value from before the branch
    }
    out[tid] = u;
}

__global__ void divergent_loop(const unsigned* trips, unsigned* out) {
    const unsigned tid = threadIdx.x;
    unsigned acc = tid;
    for (unsigned k = 0; k < trips[tid]; ++k) {
        const unsigned temp = acc * 2654435761u + k;  // lives only inside the body
        if (temp % 97 == 5) break;
        acc = (temp >> 3) ^ acc;
    }
    out[tid] = acc;
}

__global__ void nested(const unsigned* trips, unsigned* out) {
    const unsigned tid = threadIdx.x;
    unsigned v = tid + 1, w = 0;
    if (tid % 3 != 0) {
        for (unsigned k = 0; k < trips[tid] % 9; ++k) {
            const unsigned step = v * 31 + k;
            v = step % 1009;
        }
        w = v + tid;
    } else {
        w = v * 5;
    }
    out[tid] = w + v;
}

__global__ void saxpy(long n, float a, const float* x, float* y) {
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void saxpy_swapped(long n, float a, const float* x, float* y) {
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    y[i] = a * x[i] + y[i];
}

__global__ void middle_lanes(const unsigned* in, unsigned* out) {
    __shared__ unsigned staged[kThreads];
    const unsigned tid = threadIdx.x, lane = tid % 32;
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + tid;
    staged[tid] = 0;
    __syncthreads();
    if (lane >= 5 && lane < 29) {
        staged[tid] = in[i] * 3 + 1;
        out[i] = staged[tid] + lane;
    }
    __syncthreads();
    if (lane < 5) out[i] = staged[(tid + 8) % kThreads];
}

__global__ void tile_rows(const unsigned* in, unsigned* out, int n) {
    __shared__ unsigned tile[16][17];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
    tile[ty][tx] = in[y * n + x];
    __syncthreads();
    unsigned v = 0;
    if (tx >= 3 && ty % 3 != 1) v = tile[ty][tx - 3] * 7 + tile[ty][0];
    if (ty % 4 == 2) v += tile[tx][ty];
    out[y * n + x] = v + in[y * n + (n - 1 - x)];
}

static void print_words(const char* what, const unsigned* words, int count) {
    unsigned sum = 0;
    for (int i = 0; i < count; ++i) sum = sum * 31 + words[i];
    printf("%s: checksum %08x, first %u %u %u %u, last %u\n", what, sum, words[0], words[1], words[2], words[3],
           words[count - 1]);
}

int main() {
    unsigned *out = nullptr, *trips = nullptr;
    cudaMalloc(&out, kThreads * sizeof(unsigned));
    cudaMalloc(&trips, kThreads * sizeof(unsigned));
    std::vector<unsigned> host(kThreads), host_trips(kThreads);
    for (int i = 0; i < kThreads; ++i) host_trips[i] = (i * 37 + 11) % 23;
    cudaMemcpy(trips, host_trips.data(), kThreads * sizeof(unsigned), cudaMemcpyHostToDevice);

    if_else_join<<<1, kThreads>>>(out);
    cudaMemcpy(host.data(), out, kThreads * sizeof(unsigned), cudaMemcpyDeviceToHost);
    print_words("if/else join", host.data(), kThreads);
    for (int flip : {0, 1}) {
        side_reads_old_value<<<1, kThreads>>>(out, flip);
        cudaMemcpy(host.data(), out, kThreads * sizeof(unsigned), cudaMemcpyDeviceToHost);
        print_words(flip ? "old value, sides swapped" : "old value", host.data(), kThreads);
    }
    divergent_loop<<<1, kThreads>>>(trips, out);
    cudaMemcpy(host.data(), out, kThreads * sizeof(unsigned), cudaMemcpyDeviceToHost);
    print_words("divergent loop", host.data(), kThreads);
    nested<<<1, kThreads>>>(trips, out);
    cudaMemcpy(host.data(), out, kThreads * sizeof(unsigned), cudaMemcpyDeviceToHost);
    print_words("nested", host.data(), kThreads);
    {
        std::vector<unsigned> words(4 * kThreads);
        for (size_t i = 0; i < words.size(); ++i) words[i] = static_cast<unsigned>(i * 2654435761u >> 7);
        unsigned *source = nullptr, *wide = nullptr;
        cudaMalloc(&source, words.size() * sizeof(unsigned));
        cudaMalloc(&wide, words.size() * sizeof(unsigned));
        cudaMemcpy(source, words.data(), words.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
        cudaMemset(wide, 0xff, words.size() * sizeof(unsigned));
        middle_lanes<<<4, kThreads>>>(source, wide);
        cudaMemcpy(words.data(), wide, words.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
        print_words("middle lanes", words.data(), 4 * kThreads);
        cudaFree(source);
        cudaFree(wide);
    }

    for (long n : {1000L, 4093L}) {
        for (int swapped : {0, 1}) {
            const long padded = (n + 255) / 256 * 256;
            std::vector<float> hx(padded), hy(padded);
            for (long i = 0; i < padded; ++i) hx[i] = 0.25f * static_cast<float>(i % 101), hy[i] = 1.0f + i % 7;
            float *dx = nullptr, *dy = nullptr;
            cudaMalloc(&dx, padded * sizeof(float));
            cudaMalloc(&dy, padded * sizeof(float));
            cudaMemcpy(dx, hx.data(), padded * sizeof(float), cudaMemcpyHostToDevice);
            cudaMemcpy(dy, hy.data(), padded * sizeof(float), cudaMemcpyHostToDevice);
            if (swapped)
                saxpy_swapped<<<padded / 256, 256>>>(n, 1.5f, dx, dy);
            else
                saxpy<<<padded / 256, 256>>>(n, 1.5f, dx, dy);
            cudaMemcpy(hy.data(), dy, padded * sizeof(float), cudaMemcpyDeviceToHost);
            double sum = 0;
            for (long i = 0; i < padded; ++i) sum += hy[i] * static_cast<double>(i % 13 + 1);
            printf("saxpy%s n %ld: weighted sum %.3f, y[n-1] %.3f, y[n] %.3f\n", swapped ? " (swapped)" : "", n, sum,
                   hy[n - 1], hy[n]);
            cudaFree(dx);
            cudaFree(dy);
        }
    }
    {
        constexpr int n = 64;
        std::vector<unsigned> words(n * n);
        for (size_t i = 0; i < words.size(); ++i) words[i] = static_cast<unsigned>(i * 40503u + 17);
        unsigned *source = nullptr, *result = nullptr;
        cudaMalloc(&source, words.size() * sizeof(unsigned));
        cudaMalloc(&result, words.size() * sizeof(unsigned));
        cudaMemcpy(source, words.data(), words.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
        tile_rows<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(source, result, n);
        cudaMemcpy(words.data(), result, words.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
        print_words("16x16 tile rows", words.data(), n * n);
        cudaFree(source);
        cudaFree(result);
    }
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
