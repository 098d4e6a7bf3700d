// A kernel taking a struct by value, module-scope variables with initializers.
struct Params {
  float scale;
  double offset;
  int dims[3];
  const float* in;
  float* out;
};

__constant__ float coefficients[4] = {1.0f, 0.5f, 0.25f, 0.125f};
__device__ int counter = 7;
__device__ int* counter_ptr = &counter;
__device__ double table[2][3] = {{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}};

__global__ void apply_params(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.dims[0] * p.dims[1] * p.dims[2])
    p.out[i] = p.in[i] * p.scale * coefficients[i & 3] + (float)p.offset + *counter_ptr + table[i & 1][i % 3];
}
