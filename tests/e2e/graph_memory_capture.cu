// Stream-ordered allocation under stream capture (CUDA Programming Guide "Graph Memory
// Nodes"): cudaMallocAsync and cudaFreeAsync in a capturing stream become memory
// allocation and free nodes; the address is fixed when the node is captured; a graph
// whose allocation outlives it cannot be launched again until the memory is freed, unless
// it was instantiated with cudaGraphInstantiateFlagAutoFreeOnLaunch; frees of memory the
// graph did not allocate; captures over two streams; the graph memory attributes.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

constexpr int kN = 1 << 14;

__global__ void fill(int* p, int v) { p[blockIdx.x * blockDim.x + threadIdx.x] = v + threadIdx.x; }
__global__ void add(int* p, const int* q) { p[blockIdx.x * blockDim.x + threadIdx.x] += q[blockIdx.x * blockDim.x + threadIdx.x]; }

static const char* name(cudaError_t e) { return cudaGetErrorName(e); }

static int wrong(const int* host, int v) {
    int count = 0;
    for (int i = 0; i < kN; ++i) count += host[i] != v + i % 256;
    return count;
}

static void print_nodes(cudaGraph_t graph) {
    size_t count = 0;
    cudaGraphGetNodes(graph, nullptr, &count);
    std::vector<cudaGraphNode_t> nodes(count);
    cudaGraphGetNodes(graph, nodes.data(), &count);
    int kinds[32] = {};
    for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType type;
        cudaGraphNodeGetType(node, &type);
        ++kinds[type];
    }
    printf("  %zu nodes:", count);
    for (int k = 0; k < 32; ++k)
        if (kinds[k]) printf(" type %d x%d", k, kinds[k]);
    printf("\n");
}

static void print_graph_memory(const char* when) {
    unsigned long long used = 0, reserved = 0;
    cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
    cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved);
    printf("  graph memory %s: used %s, reserved %s\n", when, used ? "some" : "none", reserved ? "some" : "none");
}

int main() {
    cudaStream_t s, t;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking);
    int* host;
    cudaMallocHost(&host, kN * sizeof(int));

    // 1. Allocate, fill, copy out and free, all captured.
    {
        cudaGraph_t graph;
        int* p = nullptr;
        printf("begin: %s\n", name(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal)));
        cudaError_t allocated = cudaMallocAsync(&p, kN * sizeof(int), s);
        printf("cudaMallocAsync in capture: %s, pointer %s\n", name(allocated), p ? "set" : "null");
        cudaPointerAttributes attributes;
        printf("  pointer attributes before launch: %s\n", name(cudaPointerGetAttributes(&attributes, p)));
        cudaGetLastError();
        cudaStreamCaptureStatus status;
        const cudaGraphNode_t* deps = nullptr;
        size_t ndeps = 0;
        cudaStreamGetCaptureInfo(s, &status, nullptr, nullptr, &deps, nullptr, &ndeps);
        cudaGraphNodeType type = cudaGraphNodeTypeCount;
        if (ndeps == 1) cudaGraphNodeGetType(deps[0], &type);
        printf("  capture dependencies: %zu, type %d\n", ndeps, (int)type);
        if (ndeps == 1) {
            cudaMemAllocNodeParams params = {};
            cudaGraphMemAllocNodeGetParams(deps[0], &params);
            printf("  alloc node: %zu bytes, same pointer %s, location type %d id %d, alloc type %d\n",
                   params.bytesize, params.dptr == p ? "yes" : "no", (int)params.poolProps.location.type,
                   params.poolProps.location.id, (int)params.poolProps.allocType);
        }
        fill<<<kN / 256, 256, 0, s>>>(p, 5);
        cudaMemcpyAsync(host, p, kN * sizeof(int), cudaMemcpyDeviceToHost, s);
        printf("cudaFreeAsync in capture: %s\n", name(cudaFreeAsync(p, s)));
        printf("end: %s\n", name(cudaStreamEndCapture(s, &graph)));
        print_nodes(graph);
        cudaGraphExec_t exec;
        printf("instantiate: %s\n", name(cudaGraphInstantiate(&exec, graph, 0)));
        for (int launch = 0; launch < 3; ++launch) {
            host[0] = -1;
            cudaError_t launched = cudaGraphLaunch(exec, s);
            cudaError_t synced = cudaStreamSynchronize(s);
            printf("  launch %d: %s %s, %d wrong\n", launch, name(launched), name(synced), wrong(host, 5));
        }
        print_graph_memory("after the launches");
        cudaGraphExecDestroy(exec);
        cudaGraphDestroy(graph);
        printf("trim: %s\n", name(cudaDeviceGraphMemTrim(0)));
        print_graph_memory("after destroy and trim");
    }

    // 2. An allocation the graph does not free: freed outside between launches, or not.
    for (unsigned long long flags : {0ull, (unsigned long long)cudaGraphInstantiateFlagAutoFreeOnLaunch}) {
        printf("allocation outliving its graph, flags %llu:\n", flags);
        cudaGraph_t graph;
        int* p = nullptr;
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
        cudaMallocAsync(&p, kN * sizeof(int), s);
        fill<<<kN / 256, 256, 0, s>>>(p, 9);
        printf("  end: %s\n", name(cudaStreamEndCapture(s, &graph)));
        print_nodes(graph);
        cudaGraphExec_t exec;
        printf("  instantiate: %s\n", name(cudaGraphInstantiate(&exec, graph, flags)));
        printf("  launch: %s\n", name(cudaGraphLaunch(exec, s)));
        cudaMemcpyAsync(host, p, kN * sizeof(int), cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s);
        printf("  data: %d wrong\n", wrong(host, 9));
        cudaError_t again = cudaGraphLaunch(exec, s);
        printf("  launch again without a free: %s, sync %s\n", name(again), name(cudaStreamSynchronize(s)));
        cudaGetLastError();
        printf("  cudaFreeAsync outside: %s\n", name(cudaFreeAsync(p, s)));
        printf("  launch after the free: %s, sync %s\n", name(cudaGraphLaunch(exec, s)),
               name(cudaStreamSynchronize(s)));
        printf("  cudaFree outside: %s\n", name(cudaFree(p)));
        printf("  cudaFree again: %s\n", name(cudaFree(p)));
        cudaGetLastError();
        printf("  graph destroy: %s, exec destroy %s\n", name(cudaGraphDestroy(graph)),
               name(cudaGraphExecDestroy(exec)));
    }

    // 3. Frees in a capture of memory the graph did not allocate; zero bytes; a pool.
    {
        int *outside = nullptr, *plain = nullptr, *zero = (int*)1, *pooled = nullptr;
        cudaMallocAsync(&outside, kN * sizeof(int), s);
        cudaMalloc(&plain, kN * sizeof(int));
        cudaStreamSynchronize(s);
        cudaGraph_t graph;
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
        printf("capture: cudaFreeAsync of a cudaMallocAsync pointer from before: %s\n",
               name(cudaFreeAsync(outside, s)));
        cudaGetLastError();
        cudaStreamCaptureStatus status;
        cudaStreamIsCapturing(s, &status);
        printf("  capture status now: %d\n", (int)status);
        printf("  end: %s\n", name(cudaStreamEndCapture(s, &graph)));
        if (graph) {
            print_nodes(graph);
            cudaGraphDestroy(graph);
        }
        cudaGetLastError();

        graph = nullptr;
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
        printf("capture: cudaFreeAsync of a cudaMalloc pointer: %s\n", name(cudaFreeAsync(plain, s)));
        cudaGetLastError();
        printf("  end: %s\n", name(cudaStreamEndCapture(s, &graph)));
        if (graph) cudaGraphDestroy(graph);
        cudaGetLastError();

        graph = nullptr;
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
        cudaError_t allocated = cudaMallocAsync(&zero, 0, s);
        printf("capture: cudaMallocAsync of 0 bytes: %s, pointer %s\n", name(allocated), zero == nullptr ? "null" : "set");
        cudaGetLastError();
        cudaMemPool_t pool;
        cudaDeviceGetDefaultMemPool(&pool, 0);
        printf("  cudaMallocFromPoolAsync (default pool): %s\n",
               name(cudaMallocFromPoolAsync(&pooled, kN * sizeof(int), pool, s)));
        cudaGetLastError();
        if (pooled) cudaFreeAsync(pooled, s);
        printf("  end: %s\n", name(cudaStreamEndCapture(s, &graph)));
        if (graph) {
            print_nodes(graph);
            cudaGraphDestroy(graph);
        }
        cudaGetLastError();
        cudaFreeAsync(outside, s);
        cudaFree(plain);
        cudaStreamSynchronize(s);
    }

    // 4. Two streams: s forks to t, t allocates and fills, s joins and frees; a second
    // allocation after the free may take the first's address (the GPU reuses it).
    {
        cudaEvent_t fork, join;
        cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
        cudaEventCreateWithFlags(&join, cudaEventDisableTiming);
        cudaGraph_t graph;
        int *p = nullptr, *q = nullptr, *r = nullptr;
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
        cudaMallocAsync(&q, kN * sizeof(int), s);
        fill<<<kN / 256, 256, 0, s>>>(q, 1000);
        cudaEventRecord(fork, s);
        cudaStreamWaitEvent(t, fork, 0);
        printf("two streams: cudaMallocAsync on the forked stream: %s\n", name(cudaMallocAsync(&p, kN * sizeof(int), t)));
        fill<<<kN / 256, 256, 0, t>>>(p, 20);
        add<<<kN / 256, 256, 0, t>>>(p, q);
        cudaEventRecord(join, t);
        cudaStreamWaitEvent(s, join, 0);
        cudaMemcpyAsync(host, p, kN * sizeof(int), cudaMemcpyDeviceToHost, s);
        cudaFreeAsync(p, s);
        cudaFreeAsync(q, s);
        cudaMallocAsync(&r, kN * sizeof(int), s);
        printf("  an allocation after both frees reuses one of their addresses: %s\n",
               r == p || r == q ? "yes" : "no");
        cudaFreeAsync(r, s);
        printf("  end: %s\n", name(cudaStreamEndCapture(s, &graph)));
        print_nodes(graph);
        cudaGraphExec_t exec;
        cudaGraphInstantiate(&exec, graph, 0);
        for (int launch = 0; launch < 2; ++launch) {
            cudaError_t launched = cudaGraphLaunch(exec, t);
            cudaError_t synced = cudaStreamSynchronize(t);
            int bad = 0;
            for (int i = 0; i < kN; ++i) bad += host[i] != 1020 + 2 * (i % 256);
            printf("  launch %d on the other stream: %s %s, %d wrong\n", launch, name(launched), name(synced), bad);
        }
        cudaGraphExecDestroy(exec);
        cudaGraphDestroy(graph);
        cudaEventDestroy(fork);
        cudaEventDestroy(join);
    }

    // 5. The capture modes: cudaMallocAsync is safe in every mode, cudaMalloc is not.
    for (cudaStreamCaptureMode mode :
         {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed}) {
        cudaGraph_t graph = nullptr;
        int *p = nullptr, *m = nullptr;
        cudaStreamBeginCapture(s, mode);
        cudaError_t async = cudaMallocAsync(&p, 256, s);
        cudaError_t sync = cudaMalloc(&m, 256);
        if (p) cudaFreeAsync(p, s);
        cudaError_t ended = cudaStreamEndCapture(s, &graph);
        printf("mode %d: cudaMallocAsync %s, cudaMalloc %s, end %s\n", (int)mode, name(async), name(sync),
               name(ended));
        if (graph) cudaGraphDestroy(graph);
        if (m) cudaFree(m);
        cudaGetLastError();
    }
    cudaDeviceGraphMemTrim(0);
    print_graph_memory("at the end");
    printf("done: %s\n", name(cudaDeviceSynchronize()));
    return 0;
}
