// Quadtree build with dynamic parallelism (after the CUDA sample cdpQuadtree, one thread per
// node): a node holding more than kMaxPoints points partitions them stably into its four
// quadrants and launches a child grid per non-empty quadrant. The points are clustered
// ever tighter around one spot, so subdivision goes more than 10 levels deep; per-level
// node and leaf counts, the maximum depth and a checksum of the final point order are
// printed (all fixed by the points alone).
// NVCC-FLAGS: -rdc=true -lcudadevrt
#include <cstdio>
#include <cstring>

constexpr int kMaxPoints = 8;  // a node with more points than this is subdivided
constexpr int kMaxDepth = 24;  // a guard: nodes this deep stay leaves whatever they hold
constexpr int kLevels = kMaxDepth + 1;

__device__ int level_nodes[kLevels];
__device__ int level_leaves[kLevels];
__device__ int points_in_leaves;
__device__ int max_depth_reached;

// The points of a node are x[begin, end), y[begin, end); scratch_x/scratch_y are as large,
// and disjoint nodes use disjoint parts of them.
__global__ void build_node(float* x, float* y, float* scratch_x, float* scratch_y, int begin, int end, float x0,
                           float y0, float x1, float y1, int depth) {
  atomicAdd(&level_nodes[depth], 1);
  atomicMax(&max_depth_reached, depth);
  int count = end - begin;
  if (count <= kMaxPoints || depth == kMaxDepth) {
    atomicAdd(&level_leaves[depth], 1);
    atomicAdd(&points_in_leaves, count);
    return;
  }
  // Midpoints of dyadic bounds are exact in float, so every implementation splits alike.
  float mx = (x0 + x1) * 0.5f, my = (y0 + y1) * 0.5f;
  auto quadrant = [&](int i) { return (x[i] >= mx ? 1 : 0) + (y[i] >= my ? 2 : 0); };
  int starts[5] = {begin, 0, 0, 0, 0};
  int counts[4] = {0, 0, 0, 0};
  for (int i = begin; i < end; ++i) ++counts[quadrant(i)];
  for (int q = 0; q < 4; ++q) starts[q + 1] = starts[q] + counts[q];
  int fill[4] = {starts[0], starts[1], starts[2], starts[3]};
  for (int i = begin; i < end; ++i) {  // stable: points keep their order inside a quadrant
    int at = fill[quadrant(i)]++;
    scratch_x[at] = x[i];
    scratch_y[at] = y[i];
  }
  for (int i = begin; i < end; ++i) {
    x[i] = scratch_x[i];
    y[i] = scratch_y[i];
  }
  for (int q = 0; q < 4; ++q) {
    if (counts[q] == 0) continue;
    float cx0 = q & 1 ? mx : x0, cx1 = q & 1 ? x1 : mx;
    float cy0 = q & 2 ? my : y0, cy1 = q & 2 ? y1 : my;
    build_node<<<1, 1>>>(x, y, scratch_x, scratch_y, starts[q], starts[q + 1], cx0, cy0, cx1, cy1, depth + 1);
  }
}

// The same subdivision on the host (no reordering needed: only the counts), for the tree a
// correct run must build.
static void build_on_host(const float* x, const float* y, const int* points, int count, float x0, float y0, float x1,
                          float y1, int depth, int* nodes, int* leaves) {
  ++nodes[depth];
  if (count <= kMaxPoints || depth == kMaxDepth) {
    ++leaves[depth];
    return;
  }
  float mx = (x0 + x1) * 0.5f, my = (y0 + y1) * 0.5f;
  for (int q = 0; q < 4; ++q) {
    int* inside = new int[count];
    int n = 0;
    for (int i = 0; i < count; ++i) {
      int p = points[i];
      if ((x[p] >= mx ? 1 : 0) + (y[p] >= my ? 2 : 0) == q) inside[n++] = p;
    }
    if (n > 0)
      build_on_host(x, y, inside, n, q & 1 ? mx : x0, q & 2 ? my : y0, q & 1 ? x1 : mx, q & 2 ? y1 : my, depth + 1,
                    nodes, leaves);
    delete[] inside;
  }
}

int main() {
  const int uniform = 2048, clustered = 2048, n = uniform + clustered;
  float *x, *y, *scratch_x, *scratch_y;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  cudaMallocManaged(&scratch_x, n * sizeof(float));
  cudaMallocManaged(&scratch_y, n * sizeof(float));
  unsigned state = 2024u;
  auto next = [&] {  // fixed-seed LCG, 24 bits: exactly representable in a float
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f;
  };
  for (int i = 0; i < uniform; ++i) {
    x[i] = next();
    y[i] = next();
  }
  // Point k lies within 0.25 * 2^(-k/128) of (0.3, 0.7): each halving of the radius holds
  // 128 points, so the nodes around the centre keep subdividing down to depth ~20.
  for (int k = 0; k < clustered; ++k) {
    float radius = 0.25f * exp2f(-static_cast<float>(k) / 128.0f);
    x[uniform + k] = 0.3f + radius * (next() - 0.5f);
    y[uniform + k] = 0.7f + radius * (next() - 0.5f);
  }
  int host_nodes[kLevels] = {}, host_leaves[kLevels] = {};
  {
    int* all = new int[n];
    for (int i = 0; i < n; ++i) all[i] = i;
    build_on_host(x, y, all, n, 0.0f, 0.0f, 1.0f, 1.0f, 0, host_nodes, host_leaves);
    delete[] all;
  }
  build_node<<<1, 1>>>(x, y, scratch_x, scratch_y, 0, n, 0.0f, 0.0f, 1.0f, 1.0f, 0);
  cudaError_t error = cudaDeviceSynchronize();
  printf("quadtree build: %s\n", cudaGetErrorName(error));
  int nodes[kLevels], leaves[kLevels], in_leaves = 0, depth = 0;
  cudaMemcpyFromSymbol(nodes, level_nodes, sizeof nodes);
  cudaMemcpyFromSymbol(leaves, level_leaves, sizeof leaves);
  cudaMemcpyFromSymbol(&in_leaves, points_in_leaves, sizeof in_leaves);
  cudaMemcpyFromSymbol(&depth, max_depth_reached, sizeof depth);
  printf("max depth %d (at least 10: %s)\n", depth, depth >= 10 ? "yes" : "no");
  int total_nodes = 0;
  for (int level = 0; level < kLevels; ++level) {
    if (nodes[level] == 0) continue;
    printf("level %2d: %4d nodes, %4d leaves\n", level, nodes[level], leaves[level]);
    total_nodes += nodes[level];
  }
  bool same = true;
  for (int level = 0; level < kLevels; ++level)
    same = same && nodes[level] == host_nodes[level] && leaves[level] == host_leaves[level];
  printf("per-level counts as on the host: %s\n", same ? "yes" : "no");
  unsigned checksum = 0;
  for (int i = 0; i < n; ++i) {
    unsigned bits[2];
    memcpy(&bits[0], &x[i], 4);
    memcpy(&bits[1], &y[i], 4);
    checksum = (checksum * 31u + bits[0]) * 31u + bits[1];
  }
  printf("%d nodes, %d of %d points in leaves, point order checksum %u\n", total_nodes, in_leaves, n, checksum);
  cudaFree(x);
  cudaFree(y);
  cudaFree(scratch_x);
  cudaFree(scratch_y);
  return error == cudaSuccess && same ? 0 : 1;
}
