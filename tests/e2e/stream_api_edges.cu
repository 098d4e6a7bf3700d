// Stream and event API edges the conformance suite does not pin down: the attributes of
// the default streams, queries of busy streams and events (cudaErrorNotReady, never the
// last error), waits on never-recorded events, destroying a stream with work queued,
// cudaStreamAddCallback (status, stream handle, data, a CUDA call from inside),
// cudaLaunchKernelEx with a stream and a hint attribute, and stream capture (node types,
// capturing the legacy stream). Busy kernels spin on a mapped host flag, so every answer
// is deterministic.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void wait_for_flag(volatile int* flag, int* out) {
    long long start = clock64();
    while (*flag == 0)
        if (clock64() - start > 40000000000LL) break;  // ~20 s: never hang the test
    *out = *flag;
}

__global__ void add(int* p, int v) { *p += v; }

struct CallbackLog {
    cudaStream_t stream = nullptr;
    cudaError_t status = cudaErrorUnknown;
    int seen = -1;
    int* pinned = nullptr;
    cudaError_t malloc_inside = cudaErrorUnknown;
};

void CUDART_CB callback(cudaStream_t stream, cudaError_t status, void* data) {
    auto* log = static_cast<CallbackLog*>(data);
    log->stream = stream;
    log->status = status;
    log->seen = *log->pinned;
    void* p = nullptr;
    log->malloc_inside = cudaMalloc(&p, 16);
}

const char* name(cudaError_t e) { return cudaGetErrorName(e); }

const char* type_name(cudaGraphNodeType t) {
    switch (t) {
        case cudaGraphNodeTypeKernel: return "kernel";
        case cudaGraphNodeTypeMemcpy: return "memcpy";
        case cudaGraphNodeTypeMemset: return "memset";
        case cudaGraphNodeTypeHost: return "host";
        case cudaGraphNodeTypeEmpty: return "empty";
        default: return "other";
    }
}

void CUDART_CB nothing(void*) {}

int main() {
    // 1. The default streams.
    for (cudaStream_t s : {(cudaStream_t)0, cudaStreamLegacy, cudaStreamPerThread}) {
        int priority = 99;
        unsigned flags = 99;
        cudaError_t p = cudaStreamGetPriority(s, &priority), f = cudaStreamGetFlags(s, &flags);
        std::printf("default stream %p: priority %s %d, flags %s %u\n", (void*)s, name(p), priority, name(f), flags);
    }
    cudaStream_t a, b;
    cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
    cudaStreamCreate(&b);
    unsigned long long id_a = 0, id_b = 0;
    cudaStreamGetId(a, &id_a);
    cudaStreamGetId(b, &id_b);
    std::printf("stream ids differ: %s\n", id_a != id_b ? "yes" : "no");

    // 2. A busy stream and event.
    int *flag, *d_flag, *out;
    cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
    cudaHostGetDevicePointer(&d_flag, flag, 0);
    cudaMalloc(&out, sizeof(int));
    *(volatile int*)flag = 0;
    cudaEvent_t start, end, never;
    cudaEventCreate(&start);
    cudaEventCreate(&end);
    cudaEventCreate(&never);
    cudaEventRecord(start, a);
    wait_for_flag<<<1, 1, 0, a>>>(d_flag, out);
    cudaEventRecord(end, a);
    cudaError_t stream_query = cudaStreamQuery(a), event_query = cudaEventQuery(end);
    float ms = -1;
    cudaError_t elapsed_busy = cudaEventElapsedTime(&ms, start, end);
    cudaError_t last = cudaGetLastError();
    std::printf("busy: stream %s, event %s, elapsed %s, last error %s\n", name(stream_query), name(event_query),
                name(elapsed_busy), name(last));
    *(volatile int*)flag = 7;
    cudaError_t synchronized = cudaEventSynchronize(end);
    std::printf("cudaEventSynchronize: %s, then query %s\n", name(synchronized), name(cudaEventQuery(end)));
    std::printf("elapsed with a never-recorded event: %s\n", name(cudaEventElapsedTime(&ms, never, end)));
    std::printf("last error after that: %s\n", name(cudaGetLastError()));

    // 3. Waiting on a never-recorded event waits for nothing.
    int h = 0;
    cudaMemset(out, 0, sizeof(int));
    std::printf("wait on a never-recorded event: %s\n", name(cudaStreamWaitEvent(b, never, 0)));
    add<<<1, 1, 0, b>>>(out, 5);
    cudaStreamSynchronize(b);
    cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("work after it ran: %d\n", h);

    // 4. Destroying a stream with work queued: the work still runs.
    cudaStream_t doomed;
    cudaStreamCreateWithFlags(&doomed, cudaStreamNonBlocking);
    *(volatile int*)flag = 0;
    wait_for_flag<<<1, 1, 0, doomed>>>(d_flag, out);
    add<<<1, 1, 0, doomed>>>(out, 100);
    std::printf("cudaStreamDestroy with work queued: %s\n", name(cudaStreamDestroy(doomed)));
    *(volatile int*)flag = 3;
    std::printf("cudaDeviceSynchronize: %s\n", name(cudaDeviceSynchronize()));
    cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("the destroyed stream's work left %d\n", h);

    // 5. A callback after a kernel and a copy into pinned memory.
    CallbackLog log;
    cudaMallocHost(&log.pinned, sizeof(int));
    *log.pinned = 0;
    add<<<1, 1, 0, b>>>(out, 1);
    cudaMemcpyAsync(log.pinned, out, sizeof(int), cudaMemcpyDeviceToHost, b);
    std::printf("cudaStreamAddCallback: %s\n", name(cudaStreamAddCallback(b, callback, &log, 0)));
    std::printf("cudaStreamAddCallback with flags 1: %s\n", name(cudaStreamAddCallback(b, callback, &log, 1)));
    cudaGetLastError();
    cudaStreamSynchronize(b);
    std::printf("callback: same stream %s, status %s, saw %d, cudaMalloc inside %s\n", log.stream == b ? "yes" : "no",
                name(log.status), log.seen, name(log.malloc_inside));

    // 6. cudaLaunchKernelEx on a stream, with a priority hint.
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributePriority;
    attribute.val.priority = -1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(1);
    config.blockDim = dim3(1);
    config.stream = a;
    config.attrs = &attribute;
    config.numAttrs = 1;
    std::printf("cudaLaunchKernelEx: %s\n", name(cudaLaunchKernelEx(&config, add, out, 1000)));
    cudaStreamSynchronize(a);
    cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("after it: %d\n", h);

    // 7. Capture.
    std::printf("capture the legacy stream: %s\n", name(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal)));
    cudaGetLastError();
    cudaGraph_t graph;
    cudaStreamBeginCapture(a, cudaStreamCaptureModeGlobal);
    cudaStreamCaptureStatus status;
    cudaStreamIsCapturing(b, &status);
    std::printf("another stream while a captures: %s\n", status == cudaStreamCaptureStatusActive ? "active" : "none");
    add<<<1, 1, 0, a>>>(out, 1);
    cudaMemcpyAsync(log.pinned, out, sizeof(int), cudaMemcpyDeviceToHost, a);
    cudaMemsetAsync(out, 0, sizeof(int), a);
    cudaLaunchHostFunc(a, nothing, nullptr);
    std::printf("cudaStreamEndCapture: %s\n", name(cudaStreamEndCapture(a, &graph)));
    cudaGraphNode_t nodes[8];
    size_t count = 8;
    cudaGraphGetNodes(graph, nodes, &count);
    std::printf("captured %zu nodes:", count);
    for (size_t i = 0; i < count; ++i) {
        cudaGraphNodeType type;
        cudaGraphNodeGetType(nodes[i], &type);
        std::printf(" %s", type_name(type));
    }
    std::printf("\n");
    size_t roots = 0;
    cudaGraphGetRootNodes(graph, nullptr, &roots);
    std::printf("root nodes: %zu\n", roots);
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, graph, 0);
    *log.pinned = -1;
    cudaMemcpy(out, &h, sizeof(int), cudaMemcpyHostToDevice);
    cudaGraphLaunch(exec, a);
    cudaStreamSynchronize(a);
    int after_memset = -1;
    cudaMemcpy(&after_memset, out, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("graph launch: copied %d, then memset left %d\n", *log.pinned, after_memset);

    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    for (cudaEvent_t e : {start, end, never}) cudaEventDestroy(e);
    cudaStreamDestroy(a);
    cudaStreamDestroy(b);
    cudaFreeHost(log.pinned);
    cudaFreeHost(flag);
    cudaFree(out);
    std::printf("last error at the end: %s\n", name(cudaGetLastError()));
    return 0;
}
