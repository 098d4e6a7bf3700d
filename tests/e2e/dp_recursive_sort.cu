// Recursive quicksort with dynamic parallelism (after the CUDA sample cdpSimpleQuicksort):
// each grid partitions its range around the middle element and launches one child per side
// into its own device stream, down to a selection-sort cutoff; 1<<16 pseudo-random ints
// from a fixed seed, recursion at least 10 levels deep (maximum depth kept with atomicMax).
// NVCC-FLAGS: -rdc=true -lcudadevrt
#include <cstdio>

constexpr int kMaxDepth = 48;         // a guard only: this input stays shallower
constexpr int kSelectionCutoff = 32;  // ranges this small are selection-sorted

__device__ int max_depth_reached;
__device__ int grids_launched;
__device__ int selection_sorts;

__device__ void selection_sort(int* data, int left, int right) {
  for (int i = left; i <= right; ++i) {
    int min_index = i;
    for (int j = i + 1; j <= right; ++j)
      if (data[j] < data[min_index]) min_index = j;
    int t = data[i];
    data[i] = data[min_index];
    data[min_index] = t;
  }
}

// One thread per grid: the partition is sequential, so the tree of ranges, and with it the
// depth, depends only on the input.
__global__ void quicksort(int* data, int left, int right, int depth) {
  atomicMax(&max_depth_reached, depth);
  atomicAdd(&grids_launched, 1);
  if (depth >= kMaxDepth || right - left < kSelectionCutoff) {
    atomicAdd(&selection_sorts, 1);
    selection_sort(data, left, right);
    return;
  }
  int pivot = data[(left + right) / 2];
  int* lptr = data + left;
  int* rptr = data + right;
  while (lptr <= rptr) {
    while (*lptr < pivot) ++lptr;
    while (*rptr > pivot) --rptr;
    if (lptr <= rptr) {
      int t = *lptr;
      *lptr++ = *rptr;
      *rptr-- = t;
    }
  }
  int nright = static_cast<int>(rptr - data);
  int nleft = static_cast<int>(lptr - data);
  if (left < nright) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(data, left, nright, depth + 1);
    cudaStreamDestroy(s);
  }
  if (nleft < right) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(data, nleft, right, depth + 1);
    cudaStreamDestroy(s);
  }
}

// The same recursion on the host (the partition moves the same elements), for the depth and
// grid count a correct run must reach.
static void quicksort_on_host(int* data, int left, int right, int depth, int* max_depth, int* grids) {
  *max_depth = depth > *max_depth ? depth : *max_depth;
  ++*grids;
  if (depth >= kMaxDepth || right - left < kSelectionCutoff) return;
  int pivot = data[(left + right) / 2];
  int *lptr = data + left, *rptr = data + right;
  while (lptr <= rptr) {
    while (*lptr < pivot) ++lptr;
    while (*rptr > pivot) --rptr;
    if (lptr <= rptr) {
      int t = *lptr;
      *lptr++ = *rptr;
      *rptr-- = t;
    }
  }
  int nright = static_cast<int>(rptr - data), nleft = static_cast<int>(lptr - data);
  if (left < nright) quicksort_on_host(data, left, nright, depth + 1, max_depth, grids);
  if (nleft < right) quicksort_on_host(data, nleft, right, depth + 1, max_depth, grids);
}

int main() {
  const int n = 1 << 16;
  int* data;
  cudaMallocManaged(&data, n * sizeof(int));
  unsigned state = 12345u;
  unsigned long long input_sum = 0;
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;  // fixed-seed LCG
    data[i] = static_cast<int>(state >> 8) % 1000000;
    input_sum += static_cast<unsigned>(data[i]);
  }
  static int copy[n];
  for (int i = 0; i < n; ++i) copy[i] = data[i];
  int host_depth = 0, host_grids = 0;
  quicksort_on_host(copy, 0, n - 1, 0, &host_depth, &host_grids);
  // Every range may be pending at once on a GPU: allow more than the default 2048.
  printf("set pending launch limit: %s\n",
         cudaGetErrorName(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 16384)));
  quicksort<<<1, 1>>>(data, 0, n - 1, 0);
  cudaError_t error = cudaDeviceSynchronize();
  printf("quicksort: %s\n", cudaGetErrorName(error));
  int depth = 0, grids = 0, selections = 0;
  cudaMemcpyFromSymbol(&depth, max_depth_reached, sizeof depth);
  cudaMemcpyFromSymbol(&grids, grids_launched, sizeof grids);
  cudaMemcpyFromSymbol(&selections, selection_sorts, sizeof selections);
  bool sorted = true;
  unsigned long long output_sum = 0;
  unsigned checksum = 0;
  for (int i = 0; i < n; ++i) {
    if (i > 0 && data[i - 1] > data[i]) sorted = false;
    output_sum += static_cast<unsigned>(data[i]);
    checksum = checksum * 31u + static_cast<unsigned>(data[i]);
  }
  printf("max depth %d (at least 10: %s), %d grids, %d selection sorts\n", depth, depth >= 10 ? "yes" : "no", grids,
         selections);
  printf("depth and grids as on the host: %s\n", depth == host_depth && grids == host_grids ? "yes" : "no");
  printf("sorted: %s, same multiset sum: %s, checksum %u\n", sorted ? "yes" : "no",
         output_sum == input_sum ? "yes" : "no", checksum);
  printf("data[0] = %d, data[%d] = %d, data[%d] = %d\n", data[0], n / 2, data[n / 2], n - 1, data[n - 1]);
  cudaFree(data);
  return error == cudaSuccess && sorted && depth == host_depth && grids == host_grids ? 0 : 1;
}
