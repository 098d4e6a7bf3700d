// Texture and surface objects destroyed right after the launches that use them, before
// those kernels have run (NVIDIA's NV12toBGRandResize destroys its textures so): the
// kernels launched earlier still read and write through them, as on the GPU.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

constexpr int kWidth = 256, kHeight = 64;

// Each thread sums its row of the texture from its column on, so the kernel takes a while.
__global__ void row_sums(cudaTextureObject_t tex, unsigned* out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    unsigned sum = 0;
    for (int i = x; i < kWidth; ++i) sum += tex2D<unsigned char>(tex, i, y);
    out[y * kWidth + x] = sum;
}

__global__ void write_surface(cudaSurfaceObject_t surface) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    surf2Dwrite<unsigned>(x * 3u + y * 1000u, surface, x * 4, y);
}

int main() {
    std::vector<unsigned char> image(kWidth * kHeight);
    for (size_t i = 0; i < image.size(); ++i) image[i] = (unsigned char)(i * 37 + i / 7);
    unsigned char* pitched;
    size_t pitch;
    cudaMallocPitch(&pitched, &pitch, kWidth, kHeight);
    cudaMemcpy2D(pitched, pitch, image.data(), kWidth, kWidth, kHeight, cudaMemcpyHostToDevice);
    unsigned* sums;
    cudaMalloc(&sums, kWidth * kHeight * sizeof(unsigned));
    cudaStream_t stream;
    cudaStreamCreate(&stream);

    cudaResourceDesc resource = {};
    resource.resType = cudaResourceTypePitch2D;
    resource.res.pitch2D.devPtr = pitched;
    resource.res.pitch2D.desc = cudaCreateChannelDesc<unsigned char>();
    resource.res.pitch2D.width = kWidth;
    resource.res.pitch2D.height = kHeight;
    resource.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc desc = {};
    desc.filterMode = cudaFilterModePoint;
    desc.readMode = cudaReadModeElementType;
    for (cudaStream_t s : {cudaStream_t(0), stream}) {
        cudaTextureObject_t tex = 0;
        printf("create: %s\n", cudaGetErrorName(cudaCreateTextureObject(&tex, &resource, &desc, nullptr)));
        cudaMemsetAsync(sums, 0, kWidth * kHeight * sizeof(unsigned), s);
        row_sums<<<dim3(kWidth / 64, kHeight), 64, 0, s>>>(tex, sums);
        printf("destroy after the launch: %s\n", cudaGetErrorName(cudaDestroyTextureObject(tex)));
        printf("destroy again: %s\n", cudaGetErrorName(cudaDestroyTextureObject(tex)));
        cudaResourceDesc back;
        printf("resource of the destroyed object: %s\n",
               cudaGetErrorName(cudaGetTextureObjectResourceDesc(&back, tex)));
        std::vector<unsigned> host(kWidth * kHeight);
        printf("copy back: %s\n", cudaGetErrorName(cudaMemcpyAsync(host.data(), sums, host.size() * 4,
                                                                    cudaMemcpyDeviceToHost, s)));
        cudaStreamSynchronize(s);
        int wrong = 0;
        for (int y = 0; y < kHeight; ++y)
            for (int x = 0; x < kWidth; ++x) {
                unsigned expected = 0;
                for (int i = x; i < kWidth; ++i) expected += image[y * kWidth + i];
                wrong += host[y * kWidth + x] != expected;
            }
        printf("%s stream: %d of %d sums wrong\n", s ? "created" : "legacy", wrong, kWidth * kHeight);
    }

    cudaChannelFormatDesc format = cudaCreateChannelDesc<unsigned>();
    cudaArray_t array;
    cudaMallocArray(&array, &format, kWidth, kHeight, cudaArraySurfaceLoadStore);
    cudaResourceDesc surface_resource = {};
    surface_resource.resType = cudaResourceTypeArray;
    surface_resource.res.array.array = array;
    cudaSurfaceObject_t surface = 0;
    printf("create surface: %s\n", cudaGetErrorName(cudaCreateSurfaceObject(&surface, &surface_resource)));
    write_surface<<<dim3(kWidth / 64, kHeight), 64, 0, stream>>>(surface);
    printf("destroy surface after the launch: %s\n", cudaGetErrorName(cudaDestroySurfaceObject(surface)));
    std::vector<unsigned> texels(kWidth * kHeight);
    cudaMemcpy2DFromArrayAsync(texels.data(), kWidth * 4, array, 0, 0, kWidth * 4, kHeight, cudaMemcpyDeviceToHost,
                               stream);
    cudaStreamSynchronize(stream);
    int wrong = 0;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) wrong += texels[y * kWidth + x] != x * 3u + y * 1000u;
    printf("surface: %d of %d texels wrong\n", wrong, kWidth * kHeight);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
