// The second translation unit of rdc_link.cu (built together with -rdc=true).
__device__ int part_counter = 5;
__constant__ float part_table[4] = {0.25f, 0.5f, 0.75f, 1.0f};

static __device__ float scale(float x) { return x * 3.0f; }  // not the main unit's `scale`
static __device__ int bias = 7;

template <typename T>
__device__ T twice(T x) { return x + x; }

__device__ float part_transform(float x, int i) { return scale(x) + bias + part_table[(i + 1) % 4]; }
__device__ int part_twice(int x) { return twice(x); }
