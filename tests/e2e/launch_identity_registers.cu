// The special registers that name a launch: %gridid (the launch's number) and
// %current_graph_exec (the cudaGraphExec_t of the graph whose node launched the kernel,
// 0 outside a graph), read by plain launches, by graph launches of two instantiations of
// one graph, and by a launch of the same exec twice. Only relations are printed (zero or
// not, equal or not), never the values, which differ from run to run.
#include <cstdio>
#include <cstdint>

#include <cuda_runtime.h>

__global__ void read_launch_identity(uint64_t* out) {
  uint64_t gridid, graph_exec;
  asm volatile("mov.u64 %0, %%gridid;" : "=l"(gridid));
  asm volatile("mov.u64 %0, %%current_graph_exec;" : "=l"(graph_exec));
  // Every thread of every block reads the same values: the last writer wins, and a
  // disagreement shows as a mismatch flag.
  if (out[0] != 0 && out[0] != gridid) out[2] = 1;
  if (out[0] != 0 && out[1] != graph_exec) out[2] = 1;
  out[0] = gridid;
  out[1] = graph_exec;
}

struct Reading {
  uint64_t gridid, graph_exec, mismatch;
};

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e = (call);                                                      \
    if (e != cudaSuccess) {                                                      \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(e));              \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

int main() {
  Reading* r;
  CHECK(cudaMallocManaged(&r, 8 * sizeof(Reading)));
  CHECK(cudaMemset(r, 0, 8 * sizeof(Reading)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  // Two plain launches, one of 4 blocks of 64 threads.
  read_launch_identity<<<4, 64, 0, s>>>(&r[0].gridid);
  read_launch_identity<<<1, 1, 0, s>>>(&r[1].gridid);

  // One graph, captured once, instantiated twice; the first exec launched twice.
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  read_launch_identity<<<2, 32, 0, s>>>(&r[2].gridid);
  CHECK(cudaStreamEndCapture(s, &graph));
  cudaGraphExec_t first, second;
  CHECK(cudaGraphInstantiate(&first, graph, 0));
  CHECK(cudaGraphInstantiate(&second, graph, 0));
  CHECK(cudaGraphLaunch(first, s));
  CHECK(cudaStreamSynchronize(s));
  r[3] = r[2];
  CHECK(cudaMemset(&r[2], 0, sizeof(Reading)));
  CHECK(cudaGraphLaunch(first, s));
  CHECK(cudaStreamSynchronize(s));
  r[4] = r[2];
  CHECK(cudaMemset(&r[2], 0, sizeof(Reading)));
  CHECK(cudaGraphLaunch(second, s));
  CHECK(cudaStreamSynchronize(s));
  r[5] = r[2];
  // A plain launch after the graphs.
  read_launch_identity<<<1, 32, 0, s>>>(&r[6].gridid);
  CHECK(cudaStreamSynchronize(s));

  const Reading& plain1 = r[0];
  const Reading& plain2 = r[1];
  const Reading& graph1 = r[3];
  const Reading& graph1_again = r[4];
  const Reading& graph2 = r[5];
  const Reading& plain3 = r[6];
  std::printf("every thread of a launch reads the same values: %d\n",
              plain1.mismatch == 0 && plain2.mismatch == 0 && graph1.mismatch == 0 && graph1_again.mismatch == 0 &&
                  graph2.mismatch == 0 && plain3.mismatch == 0);
  std::printf("%%gridid non-zero in every launch: %d\n", plain1.gridid != 0 && plain2.gridid != 0 &&
                                                           graph1.gridid != 0 && graph1_again.gridid != 0 &&
                                                           graph2.gridid != 0 && plain3.gridid != 0);
  std::printf("%%gridid differs between the two plain launches: %d\n", plain1.gridid != plain2.gridid);
  std::printf("%%gridid differs between two launches of one graph exec: %d\n", graph1.gridid != graph1_again.gridid);
  std::printf("%%gridid differs between the two execs: %d\n", graph1.gridid != graph2.gridid);
  std::printf("%%current_graph_exec outside a graph: %llx %llx %llx\n", (unsigned long long)plain1.graph_exec,
              (unsigned long long)plain2.graph_exec, (unsigned long long)plain3.graph_exec);
  std::printf("%%current_graph_exec in a graph is non-zero: %d\n", graph1.graph_exec != 0);
  std::printf("%%current_graph_exec equals the cudaGraphExec_t: %d %d\n",
              graph1.graph_exec == (uint64_t)(uintptr_t)first, graph2.graph_exec == (uint64_t)(uintptr_t)second);
  std::printf("%%current_graph_exec same for two launches of one exec: %d\n",
              graph1.graph_exec == graph1_again.graph_exec);
  std::printf("%%current_graph_exec differs between the two execs: %d\n", graph1.graph_exec != graph2.graph_exec);

  CHECK(cudaGraphExecDestroy(first));
  CHECK(cudaGraphExecDestroy(second));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(r));
  return 0;
}
