// Thrust on the device: thrust::sort of 32-bit keys (CUB's radix sort underneath) and a
// transform_reduce, instantiated through device_vector.
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>

struct square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};

float sort_and_norm(thrust::device_vector<unsigned>& keys, thrust::device_vector<float>& values) {
  thrust::sort(keys.begin(), keys.end());
  return thrust::transform_reduce(values.begin(), values.end(), square(), 0.0f, thrust::plus<float>());
}
