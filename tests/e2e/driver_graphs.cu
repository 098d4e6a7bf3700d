// Graphs built node by node through the driver API, as the static runtime builds them for
// cudaGraphAdd*Node: memset, kernel (kernelParams and the packed `extra` buffer), memcpy
// (to the host and into a CUDA array), host, child graph, event record, memory
// allocation and free, and a conditional IF node whose body runs when a kernel sets its
// handle; the getters of nodes and edges, cuGraphClone, capture into an existing graph,
// the graph memory attributes, and the driver's codes for bad nodes.
// NVCC-FLAGS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

__global__ void add_index(int* data, int n, int scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += i * scale;
}

__global__ void set_condition(cudaGraphConditionalHandle handle, const int* data, int index) {
  cudaGraphSetConditional(handle, data[index] > 100 ? 1u : 0u);
}

static int failures = 0;

#define CHECK(call)                                                             \
  do {                                                                          \
    long long result_ = static_cast<long long>(call);                           \
    if (result_ != 0) {                                                         \
      std::printf("FAILED %s: %lld\n", #call, result_);                         \
      ++failures;                                                               \
    }                                                                           \
  } while (0)

static void say(const char* what, CUresult result) {
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::printf("%s: %s\n", what, name ? name : "?");
}

static CUfunction function_of(const void* symbol) {
  cudaFunction_t function = nullptr;
  CHECK(cudaGetFuncBySymbol(&function, symbol));
  return reinterpret_cast<CUfunction>(function);
}

static CUDA_KERNEL_NODE_PARAMS kernel_params(CUfunction f, unsigned blocks, unsigned threads, void** params,
                                             void** extra) {
  CUDA_KERNEL_NODE_PARAMS p{};
  p.func = f;
  p.gridDimX = blocks;
  p.gridDimY = p.gridDimZ = 1;
  p.blockDimX = threads;
  p.blockDimY = p.blockDimZ = 1;
  p.kernelParams = params;
  p.extra = extra;
  return p;
}

static int host_calls = 0;
static void CUDA_CB count_call(void* data) { host_calls += *static_cast<int*>(data); }

static const char* type_name(CUgraphNodeType type) {
  switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: return "kernel";
    case CU_GRAPH_NODE_TYPE_MEMCPY: return "memcpy";
    case CU_GRAPH_NODE_TYPE_MEMSET: return "memset";
    case CU_GRAPH_NODE_TYPE_HOST: return "host";
    case CU_GRAPH_NODE_TYPE_GRAPH: return "graph";
    case CU_GRAPH_NODE_TYPE_EMPTY: return "empty";
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return "event record";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return "mem alloc";
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return "mem free";
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: return "conditional";
    default: return "other";
  }
}

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // all that was printed survives a crash of the driver
  CHECK(cuInit(0));
  CUdevice device = 0;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context = nullptr;
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  CUstream stream = nullptr;
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

  const int n = 64;
  CUdeviceptr data = 0;
  CHECK(cuMemAlloc(&data, n * sizeof(int)));
  std::vector<int> host(n, -1);
  CUfunction add = function_of(reinterpret_cast<const void*>(add_index));
  CUfunction condition_kernel = function_of(reinterpret_cast<const void*>(set_condition));

  CUgraph graph = nullptr;
  CHECK(cuGraphCreate(&graph, 0));
  // memset -> kernel (kernelParams) -> kernel (extra) -> memcpy to the host -> host node
  CUDA_MEMSET_NODE_PARAMS memset{};
  memset.dst = data;
  memset.value = 7;
  memset.elementSize = 4;
  memset.width = n;
  memset.height = 1;
  CUgraphNode set_node = nullptr, add_node = nullptr, add_extra_node = nullptr, copy_node = nullptr,
              host_node = nullptr;
  CHECK(cuGraphAddMemsetNode(&set_node, graph, nullptr, 0, &memset, context));
  int count = n, scale = 1;
  void* params[] = {&data, &count, &scale};
  CUDA_KERNEL_NODE_PARAMS add_params = kernel_params(add, 2, 32, params, nullptr);
  CHECK(cuGraphAddKernelNode(&add_node, graph, &set_node, 1, &add_params));
  struct {
    CUdeviceptr data;
    int n;
    int scale;
  } packed{data, n, 100};
  size_t packed_size = sizeof(packed);
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                   CU_LAUNCH_PARAM_END};
  CUDA_KERNEL_NODE_PARAMS extra_params = kernel_params(add, 1, 64, nullptr, extra);
  CHECK(cuGraphAddKernelNode(&add_extra_node, graph, &add_node, 1, &extra_params));
  CUDA_MEMCPY3D to_host{};
  to_host.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  to_host.srcDevice = data;
  to_host.dstMemoryType = CU_MEMORYTYPE_HOST;
  to_host.dstHost = host.data();
  to_host.srcPitch = to_host.dstPitch = n * sizeof(int);
  to_host.srcHeight = to_host.dstHeight = 1;
  to_host.WidthInBytes = n * sizeof(int);
  to_host.Height = 1;
  to_host.Depth = 1;
  CHECK(cuGraphAddMemcpyNode(&copy_node, graph, &add_extra_node, 1, &to_host, context));
  int increment = 1;
  CUDA_HOST_NODE_PARAMS host_params{count_call, &increment};
  CHECK(cuGraphAddHostNode(&host_node, graph, &copy_node, 1, &host_params));

  // An allocation used by a kernel, then freed; an event recorded; a child graph (an empty
  // node and a memset) beside them.
  CUDA_MEM_ALLOC_NODE_PARAMS alloc{};
  alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  alloc.poolProps.location.id = device;
  alloc.bytesize = n * sizeof(int);
  CUgraphNode alloc_node = nullptr, scratch_node = nullptr, free_node = nullptr, event_node = nullptr,
              child_node = nullptr;
  CHECK(cuGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc));
  CUdeviceptr scratch = alloc.dptr;
  std::printf("allocation node gave an address: %s\n", scratch ? "yes" : "no");
  void* scratch_params[] = {&scratch, &count, &scale};
  CUDA_KERNEL_NODE_PARAMS scratch_kernel = kernel_params(add, 2, 32, scratch_params, nullptr);
  CHECK(cuGraphAddKernelNode(&scratch_node, graph, &alloc_node, 1, &scratch_kernel));
  CHECK(cuGraphAddMemFreeNode(&free_node, graph, &scratch_node, 1, scratch));
  CUevent event = nullptr;
  CHECK(cuEventCreate(&event, CU_EVENT_DEFAULT));
  CHECK(cuGraphAddEventRecordNode(&event_node, graph, &free_node, 1, event));
  CUgraph child = nullptr;
  CHECK(cuGraphCreate(&child, 0));
  CUgraphNode child_empty = nullptr, child_set = nullptr;
  CHECK(cuGraphAddEmptyNode(&child_empty, child, nullptr, 0));
  CUdeviceptr flag = 0;
  CHECK(cuMemAlloc(&flag, sizeof(int)));
  CUDA_MEMSET_NODE_PARAMS flag_set{};
  flag_set.dst = flag;
  flag_set.value = 0x2a;
  flag_set.elementSize = 1;
  flag_set.width = 4;
  flag_set.height = 1;
  CHECK(cuGraphAddMemsetNode(&child_set, child, &child_empty, 1, &flag_set, context));
  CHECK(cuGraphAddChildGraphNode(&child_node, graph, nullptr, 0, child));

  // A conditional IF node after the host node: its body adds 1000 * i when data[5] > 100.
  CUgraphConditionalHandle handle = 0;
  CHECK(cuGraphConditionalHandleCreate(&handle, graph, context, 0, CU_GRAPH_COND_ASSIGN_DEFAULT));
  CUgraphNode condition_node = nullptr, if_node = nullptr;
  int index = 5;
  void* condition_params[] = {&handle, &data, &index};
  CUDA_KERNEL_NODE_PARAMS set_params = kernel_params(condition_kernel, 1, 1, condition_params, nullptr);
  CHECK(cuGraphAddKernelNode(&condition_node, graph, &add_extra_node, 1, &set_params));
  CUgraphNodeParams if_params{};
  if_params.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
  if_params.conditional.handle = handle;
  if_params.conditional.type = CU_GRAPH_COND_TYPE_IF;
  if_params.conditional.size = 1;
  if_params.conditional.ctx = context;
  CHECK(cuGraphAddNode(&if_node, graph, &condition_node, nullptr, 1, &if_params));
  CUgraph body = if_params.conditional.phGraph_out ? if_params.conditional.phGraph_out[0] : nullptr;
  CUgraphNode body_node = nullptr;
  int big = 1000;
  void* body_args[] = {&data, &count, &big};
  CUgraphNodeParams body_params{};
  body_params.type = CU_GRAPH_NODE_TYPE_KERNEL;
  body_params.kernel.func = add;
  body_params.kernel.gridDimX = 2;
  body_params.kernel.gridDimY = body_params.kernel.gridDimZ = 1;
  body_params.kernel.blockDimX = 32;
  body_params.kernel.blockDimY = body_params.kernel.blockDimZ = 1;
  body_params.kernel.kernelParams = body_args;
  CHECK(cuGraphAddNode(&body_node, body, nullptr, nullptr, 0, &body_params));
  CUgraphNode late_copy = nullptr;
  std::vector<int> after_condition(n, -1);
  CUDA_MEMCPY3D late = to_host;
  late.dstHost = after_condition.data();
  CHECK(cuGraphAddMemcpyNode(&late_copy, graph, &if_node, 1, &late, context));

  size_t nodes = 0, roots = 0, edges = 0;
  CHECK(cuGraphGetNodes(graph, nullptr, &nodes));
  CHECK(cuGraphGetRootNodes(graph, nullptr, &roots));
  CHECK(cuGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  std::printf("nodes %zu, roots %zu, edges %zu\n", nodes, roots, edges);
  std::vector<CUgraphNode> all(nodes);
  CHECK(cuGraphGetNodes(graph, all.data(), &nodes));
  std::printf("types:");
  for (CUgraphNode node : all) {
    CUgraphNodeType type;
    CHECK(cuGraphNodeGetType(node, &type));
    std::printf(" %s", type_name(type));
  }
  std::printf("\n");
  std::vector<CUgraphNode> from(edges), to(edges);
  std::vector<CUgraphEdgeData> edge_data(edges);
  CHECK(cuGraphGetEdges(graph, from.data(), to.data(), edge_data.data(), &edges));
  std::printf("first edge: memset -> kernel %d, default edge data %d\n", from[0] == set_node && to[0] == add_node,
              edge_data[0].type == CU_GRAPH_DEPENDENCY_TYPE_DEFAULT && edge_data[0].from_port == 0);
  CUdeviceptr freed = 0;
  CHECK(cuGraphMemFreeNodeGetParams(free_node, &freed));
  std::printf("free node frees the allocation: %d\n", freed == scratch);

  CUgraphExec exec = nullptr;
  CHECK(cuGraphInstantiate(&exec, graph, 0));
  CHECK(cuGraphLaunch(exec, stream));
  CHECK(cuStreamSynchronize(stream));
  std::printf("after launch 1: host[0..5] %d %d %d %d %d %d, host calls %d, event done %d\n", host[0], host[1],
              host[2], host[3], host[4], host[5], host_calls, cuEventQuery(event) == CUDA_SUCCESS);
  std::printf("after the conditional: [0] %d [1] %d [5] %d [63] %d\n", after_condition[0], after_condition[1],
              after_condition[5], after_condition[63]);
  int flag_value = 0;
  CHECK(cuMemcpyDtoH(&flag_value, flag, sizeof(int)));
  std::printf("child graph memset: %#x\n", flag_value);
  cuuint64_t used = 0;
  CHECK(cuDeviceGetGraphMemAttribute(device, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &used));
  std::printf("graph memory used high >= the allocation: %d\n", used >= n * sizeof(int));

  // A graph with memory or conditional nodes cannot be cloned; a clone of the child graph
  // runs its memset again.
  CUgraph clone = nullptr;
  say("clone of a graph with memory and conditional nodes", cuGraphClone(&clone, graph));
  CHECK(cuMemsetD8(flag, 0, sizeof(int)));
  CHECK(cuCtxSynchronize());  // a set of device memory may return early; the clone runs on a non-blocking stream
  CHECK(cuGraphClone(&clone, child));
  CUgraphExec clone_exec = nullptr;
  CHECK(cuGraphInstantiate(&clone_exec, clone, 0));
  CHECK(cuGraphLaunch(clone_exec, stream));
  CHECK(cuStreamSynchronize(stream));
  CHECK(cuMemcpyDtoH(&flag_value, flag, sizeof(int)));
  std::printf("after the clone's launch: flag %#x, host calls %d\n", flag_value, host_calls);

  // Capture into an existing graph, after one of its nodes.
  CUgraph target = nullptr;
  CHECK(cuGraphCreate(&target, 0));
  CUgraphNode first = nullptr;
  CHECK(cuGraphAddMemsetNode(&first, target, nullptr, 0, &memset, context));
  CUstream capture = nullptr;
  CHECK(cuStreamCreate(&capture, CU_STREAM_NON_BLOCKING));
  CHECK(cuStreamBeginCaptureToGraph(capture, target, &first, nullptr, 1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK(cuLaunchKernel(add, 2, 1, 1, 32, 1, 1, 0, capture, params, nullptr));
  CUgraph captured = nullptr;
  CHECK(cuStreamEndCapture(capture, &captured));
  size_t target_nodes = 0;
  CHECK(cuGraphGetNodes(target, nullptr, &target_nodes));
  std::printf("capture into a graph: same graph %d, nodes %zu\n", captured == target, target_nodes);
  CUgraphExec target_exec = nullptr;
  CHECK(cuGraphInstantiate(&target_exec, target, 0));
  CHECK(cuGraphLaunch(target_exec, stream));
  CHECK(cuStreamSynchronize(stream));
  CHECK(cuMemcpyDtoH(host.data(), data, n * sizeof(int)));
  std::printf("after the captured graph: [0] %d [3] %d [63] %d\n", host[0], host[3], host[63]);

  // Bad nodes.
  CUgraphNode bad = nullptr;
  CUDA_MEMSET_NODE_PARAMS three_bytes = memset;
  three_bytes.elementSize = 3;
  say("memset node of 3-byte elements", cuGraphAddMemsetNode(&bad, graph, nullptr, 0, &three_bytes, context));
  say("free node of a cuMemAlloc address", cuGraphAddMemFreeNode(&bad, graph, nullptr, 0, data));
  say("child graph node of a graph with memory nodes", cuGraphAddChildGraphNode(&bad, target, nullptr, 0, graph));
  CUgraphNodeParams three_bodies = if_params;
  three_bodies.conditional.size = 3;
  three_bodies.conditional.phGraph_out = nullptr;
  say("IF node with three bodies", cuGraphAddNode(&bad, graph, nullptr, nullptr, 0, &three_bodies));
  CUDA_KERNEL_NODE_PARAMS no_function = kernel_params(nullptr, 1, 1, params, nullptr);
  say("kernel node without a function", cuGraphAddKernelNode(&bad, graph, nullptr, 0, &no_function));
  CUDA_MEM_ALLOC_NODE_PARAMS empty_alloc = alloc;
  empty_alloc.bytesize = 0;
  say("allocation node of 0 bytes", cuGraphAddMemAllocNode(&bad, graph, nullptr, 0, &empty_alloc));
  say("edge to a node of another graph", cuGraphAddDependencies(graph, &set_node, &first, nullptr, 1));

  CHECK(cuGraphExecDestroy(exec));
  CHECK(cuGraphExecDestroy(clone_exec));
  CHECK(cuGraphExecDestroy(target_exec));
  CHECK(cuGraphDestroy(graph));
  CHECK(cuGraphDestroy(clone));
  CHECK(cuGraphDestroy(child));
  CHECK(cuGraphDestroy(target));
  CHECK(cuEventDestroy(event));
  CHECK(cuStreamDestroy(capture));
  CHECK(cuStreamDestroy(stream));
  CHECK(cuMemFree(data));
  CHECK(cuMemFree(flag));
  CHECK(cuDevicePrimaryCtxRelease(device));
  std::printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
