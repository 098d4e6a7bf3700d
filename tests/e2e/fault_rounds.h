// For end-to-end programs whose kernels fault on purpose: one round per child process
// (forked before it touches CUDA: on the H100 the device stays unusable for the rest of a
// process after such a fault, even across cudaDeviceReset). A round prints what the launch,
// the synchronisation, cudaGetLastError twice and an unrelated cudaMalloc return, then
// what `after_success` prints when the kernel did not fault, cudaDeviceReset's result and
// how the child process ended.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include <cuda_runtime.h>

template <typename Setup, typename Launch, typename AfterSuccess>
void run_fault_round(const char* name, Setup setup, Launch launch, AfterSuccess after_success) {
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        setup();
        launch();
        cudaError_t launched = cudaGetLastError();
        cudaError_t synced = cudaDeviceSynchronize();
        cudaError_t last = cudaGetLastError();
        cudaError_t last_again = cudaGetLastError();
        void* p = nullptr;
        cudaError_t malloc_after = cudaMalloc(&p, 16);
        printf("%s: launch %s, synchronize %s, last error %s then %s, cudaMalloc %s\n", name,
               cudaGetErrorName(launched), cudaGetErrorName(synced), cudaGetErrorName(last),
               cudaGetErrorName(last_again), cudaGetErrorName(malloc_after));
        if (synced == cudaSuccess) after_success();
        printf("  cudaDeviceReset: %s\n", cudaGetErrorName(cudaDeviceReset()));
        fflush(stdout);
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    printf("  process: %s\n", WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "exited normally" : "died");
}
