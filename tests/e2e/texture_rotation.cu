// Linear filtering at many arbitrary positions: images rotated through a texture with
// normalized coordinates (as NVIDIA's simpleTexture and simpleSurfaceWrite do), float and
// 8-bit normalized texels, wrap, clamp and border addressing, and 1D textures with border
// addressing at odd weights. Each run prints a hash of every result's bits and a few
// results, so that one differing bit anywhere shows: where a coordinate lands, the 2D
// corner weights and the border colour decide them. The float texels are multiples of
// 1/16 below 256, whose blends are exact in float: how the GPU rounds an inexact blend is
// not known exactly (README: textures).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

constexpr int kSize = 192;  // not a power of two: the normalized coordinates' products round

// The coordinates come from the host: computed in the kernel, a * b - c * d would be
// rounded as ptxas fuses it, which is not what this test is about.
__global__ void rotate(cudaTextureObject_t tex, const float2* coords, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(tex, coords[i].x, coords[i].y);
}

// Where pixel (x, y) of a size x size image rotated about its centre reads, in normalized
// coordinates, scaled by 1.3 so that some fall outside [0, 1). The rotations' cosines and
// sines are exact rationals (no libm on the host to differ between machines).
static std::vector<float2> rotated_coordinates(int size, double cos_theta, double sin_theta) {
    std::vector<float2> coords(size * size);
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const double u = (double)x / size - 0.5, v = (double)y / size - 0.5;
            coords[y * size + x] = make_float2((float)(1.3 * (u * cos_theta - v * sin_theta + 0.5)),
                                               (float)(1.3 * (v * cos_theta + u * sin_theta + 0.5)));
        }
    return coords;
}

__global__ void line(cudaTextureObject_t tex, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(tex, -0.2f + i * (1.4f / 1024.0f) + i * 1e-6f);
}

static uint32_t state = 12345;
static uint32_t next_random() { return state = state * 1664525u + 1013904223u; }

static void report(const char* name, const std::vector<float>& values) {
    uint64_t hash = 1469598103934665603ull;
    for (float v : values) {
        uint32_t bits;
        memcpy(&bits, &v, 4);
        hash = (hash ^ bits) * 1099511628211ull;
    }
    printf("%-28s hash %016llx:", name, (unsigned long long)hash);
    for (size_t i = 0; i < values.size(); i += values.size() / 7) printf(" %.9g", values[i]);
    printf("\n");
}

static cudaTextureObject_t texture_of(cudaArray_t array, cudaTextureAddressMode mode, bool normalized_read,
                                      float border) {
    cudaResourceDesc resource = {};
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array;
    cudaTextureDesc desc = {};
    desc.addressMode[0] = desc.addressMode[1] = mode;
    desc.filterMode = cudaFilterModeLinear;
    desc.readMode = normalized_read ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    desc.normalizedCoords = 1;
    desc.borderColor[0] = border;
    cudaTextureObject_t tex = 0;
    cudaError_t error = cudaCreateTextureObject(&tex, &resource, &desc, nullptr);
    if (error != cudaSuccess) printf("cudaCreateTextureObject: %s\n", cudaGetErrorName(error));
    return tex;
}

// Rotates an image of texels made by `make` with every address mode.
template <typename Texel, typename Make>
static void rotations(const char* name, Make make, bool normalized_read) {
    std::vector<Texel> image(kSize * kSize);
    for (Texel& t : image) t = make(next_random());
    cudaChannelFormatDesc format = cudaCreateChannelDesc<Texel>();
    cudaArray_t array;
    if (cudaMallocArray(&array, &format, kSize, kSize) != cudaSuccess) printf("%s: cudaMallocArray failed\n", name);
    cudaMemcpy2DToArray(array, 0, 0, image.data(), kSize * sizeof(Texel), kSize * sizeof(Texel), kSize,
                        cudaMemcpyHostToDevice);
    float* out;
    cudaMalloc(&out, kSize * kSize * sizeof(float));
    float2* coords;
    cudaMalloc(&coords, kSize * kSize * sizeof(float2));
    std::vector<float> result(kSize * kSize);
    const cudaTextureAddressMode modes[] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeBorder};
    const char* mode_names[] = {"wrap", "clamp", "border"};
    for (int m = 0; m < 3; ++m) {
        cudaTextureObject_t tex = texture_of(array, modes[m], normalized_read, 0.75f);
        for (double theta : {0.6435, 1.8546}) {  // cos, sin: 4/5, 3/5 and -7/25, 24/25
            const bool first = theta < 1.0;
            cudaMemcpy(coords, rotated_coordinates(kSize, first ? 0.8 : -0.28, first ? 0.6 : 0.96).data(),
                       kSize * kSize * sizeof(float2),
                       cudaMemcpyHostToDevice);
            rotate<<<kSize * kSize / 256, 256>>>(tex, coords, out, kSize * kSize);
            cudaMemcpy(result.data(), out, result.size() * sizeof(float), cudaMemcpyDeviceToHost);
            char label[64];
            snprintf(label, sizeof label, "%s %s %.1f", name, mode_names[m], theta);
            report(label, result);
        }
        cudaDestroyTextureObject(tex);
    }
    cudaFree(coords);
    cudaFree(out);
    cudaFreeArray(array);
}

int main() {
    rotations<float>("float", [](uint32_t r) { return (float)(r >> 20) / 16.0f - 128.0f; }, false);
    rotations<unsigned char>("uchar normalized", [](uint32_t r) { return (unsigned char)(r >> 24); }, true);

    // 1D with border addressing: filtered as 2D of one row, half of it the border's.
    const int texels = 16, n = 1024;
    std::vector<float> values(texels);
    for (float& v : values) v = (float)(next_random() >> 20);
    cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
    cudaArray_t array;
    cudaMallocArray(&array, &format, texels);
    cudaMemcpy2DToArray(array, 0, 0, values.data(), texels * 4, texels * 4, 1, cudaMemcpyHostToDevice);
    float* out;
    cudaMalloc(&out, n * sizeof(float));
    std::vector<float> result(n);
    for (cudaTextureAddressMode mode : {cudaAddressModeBorder, cudaAddressModeClamp}) {
        cudaTextureObject_t tex = texture_of(array, mode, false, 1000.0f);
        line<<<n / 128, 128>>>(tex, out, n);
        cudaMemcpy(result.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
        report(mode == cudaAddressModeBorder ? "1D border" : "1D clamp", result);
        cudaDestroyTextureObject(tex);
    }
    cudaFree(out);
    cudaFreeArray(array);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
