// The limits of the guide's Appendix D dynamic-parallelism ABI (CDP1), which no GPU of
// compute capability 9.0 runs any more: an A100-class device (CUCPU_DEVICE=sm_80) takes
// cudaLimitDevRuntimeSyncDepth (default 2, at most the 24 nesting levels); a launch that
// would make a 25th level fails with cudaErrorLaunchMaxDepthExceeded, and so does a
// cudaDeviceSynchronize at a level deeper than the sync depth (CUDA Programming Guide,
// Appendix D, "Nesting and Synchronization Depth", "Configuration Options"). Self-checking.
#include <cstdio>

constexpr int kMax = 30;

// Records that depth `depth` ran, launches the next level, records the launch's and the
// sync's results.
__global__ void nest(int depth, int* reached, int* launch_codes, int* sync_codes) {
  reached[depth] = 1;
  if (depth >= kMax) return;
  nest<<<1, 1>>>(depth + 1, reached, launch_codes, sync_codes);
  launch_codes[depth] = cudaGetLastError();
  sync_codes[depth] = cudaDeviceSynchronize();
}

int main() {
  bool ok = true;
  size_t depth = 0;
  cudaError_t got = cudaDeviceGetLimit(&depth, cudaLimitDevRuntimeSyncDepth);
  printf("default cudaLimitDevRuntimeSyncDepth: %s %zu\n", cudaGetErrorName(got), depth);
  ok &= got == cudaSuccess && depth == 2;
  cudaError_t too_deep = cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 25);
  cudaGetLastError();
  printf("setting 25: %s\n", cudaGetErrorName(too_deep));
  ok &= too_deep == cudaErrorInvalidValue;
  cudaError_t set = cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 3);
  cudaDeviceGetLimit(&depth, cudaLimitDevRuntimeSyncDepth);
  printf("setting 3: %s, now %zu\n", cudaGetErrorName(set), depth);
  ok &= set == cudaSuccess && depth == 3;

  int *reached, *launch_codes, *sync_codes;
  cudaMallocManaged(&reached, sizeof(int) * (kMax + 1));
  cudaMallocManaged(&launch_codes, sizeof(int) * (kMax + 1));
  cudaMallocManaged(&sync_codes, sizeof(int) * (kMax + 1));
  for (int i = 0; i <= kMax; ++i) reached[i] = 0, launch_codes[i] = sync_codes[i] = -1;
  nest<<<1, 1>>>(0, reached, launch_codes, sync_codes);
  cudaError_t finished = cudaDeviceSynchronize();
  printf("chain of launches to depth %d: %s\n", kMax, cudaGetErrorName(finished));
  ok &= finished == cudaSuccess;

  int deepest = -1;
  for (int i = 0; i <= kMax; ++i)
    if (reached[i]) deepest = i;
  printf("deepest grid that ran: depth %d (%d levels)\n", deepest, deepest + 1);
  ok &= deepest == 23;
  bool launches_ok = true, syncs_ok = true;
  for (int i = 0; i <= 23; ++i) {
    launches_ok &= launch_codes[i] == (i < 23 ? cudaSuccess : cudaErrorLaunchMaxDepthExceeded);
    syncs_ok &= sync_codes[i] == (i < 3 ? cudaSuccess : cudaErrorLaunchMaxDepthExceeded);
  }
  auto name = [](int code) { return cudaGetErrorName(static_cast<cudaError_t>(code)); };
  printf("launch from depth 23: %s; launches from depths 0..22: %s\n", name(launch_codes[23]),
         launches_ok ? "cudaSuccess" : "NOT ALL cudaSuccess");
  printf("cudaDeviceSynchronize at depths 0..2: %s, at depths 3..23: %s (all as shown: %s)\n", name(sync_codes[0]),
         name(sync_codes[3]), syncs_ok ? "yes" : "NO");
  ok &= launches_ok && syncs_ok;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
