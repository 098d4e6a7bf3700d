// CUDA error checks for the benchmark programs: any failing runtime call ends the program
// with the call, its place and the error's name, so a launch that fails is never timed.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                                         \
    do {                                                                                                         \
        const cudaError_t status_ = (call);                                                                      \
        if (status_ != cudaSuccess) {                                                                            \
            std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call, cudaGetErrorName(status_), \
                         cudaGetErrorString(status_));                                                           \
            std::exit(1);                                                                                        \
        }                                                                                                        \
    } while (0)

// After a <<<...>>> launch: the launch's own error (bad configuration) at once.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

// A device buffer that frees itself.
template <class T>
class DeviceBuffer {
   public:
    explicit DeviceBuffer(std::size_t count) : count_(count) { CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T))); }
    ~DeviceBuffer() { cudaFree(data_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    T* get() const { return data_; }
    void upload(const T* host) { CUDA_CHECK(cudaMemcpy(data_, host, count_ * sizeof(T), cudaMemcpyHostToDevice)); }
    void download(T* host) const { CUDA_CHECK(cudaMemcpy(host, data_, count_ * sizeof(T), cudaMemcpyDeviceToHost)); }

   private:
    T* data_ = nullptr;
    std::size_t count_;
};
