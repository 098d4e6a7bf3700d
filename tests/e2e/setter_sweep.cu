// Every setter of limits and attributes with the values the device reports, zero, one past
// the maximum and a few in between: device limits, cache and device flags, function
// attributes, stream attributes, launch attributes of cudaLaunchKernelEx, kernel node
// attributes (not the cluster shape and cooperative ones, which cucpu does not take on a
// node yet), graph memory and memory pool attributes. Each line is the call, the value,
// the result and what the getter reads back afterwards (where there is one).
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

__global__ void plain(int* out) {
    if (out) out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void with_static_shared(int* out) {
    __shared__ int tile[1024];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (out) out[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

static const char* name(cudaError_t e) { return cudaGetErrorName(e); }
static cudaDeviceProp prop;

static void limits() {
    struct {
        cudaLimit limit;
        const char* label;
    } all[] = {{cudaLimitStackSize, "StackSize"},
               {cudaLimitPrintfFifoSize, "PrintfFifoSize"},
               {cudaLimitMallocHeapSize, "MallocHeapSize"},
               {cudaLimitDevRuntimeSyncDepth, "DevRuntimeSyncDepth"},
               {cudaLimitDevRuntimePendingLaunchCount, "DevRuntimePendingLaunchCount"},
               {cudaLimitMaxL2FetchGranularity, "MaxL2FetchGranularity"},
               {cudaLimitPersistingL2CacheSize, "PersistingL2CacheSize"}};
    const size_t l2max = prop.persistingL2CacheMaxSize;
    for (auto& l : all) {
        size_t initial = 0;
        cudaError_t got = cudaDeviceGetLimit(&initial, l.limit);
        printf("limit %s: get %s %zu\n", l.label, name(got), initial);
        const size_t values[] = {0, 1, 17, 32, 64, 128, 129, 256, 1000, 1024, 4096, 65536, 1u << 20, (1u << 20) + 1,
                                 l2max - 1, l2max, l2max + 1, (size_t)prop.l2CacheSize, 1ull << 30, 1ull << 40,
                                 ~(size_t)0, initial};
        for (size_t v : values) {
            cudaError_t set = cudaDeviceSetLimit(l.limit, v);
            size_t back = 0;
            cudaError_t get = cudaDeviceGetLimit(&back, l.limit);
            printf("  set %zu: %s, reads %s %zu\n", v, name(set), name(get), back);
            cudaGetLastError();
        }
    }
    printf("limit 99: set %s\n", name(cudaDeviceSetLimit((cudaLimit)99, 1)));
    cudaGetLastError();
}

static void device_settings() {
    for (int c = 0; c <= 5; ++c) {
        cudaError_t set = cudaDeviceSetCacheConfig((cudaFuncCache)c);
        cudaFuncCache back;
        cudaError_t get = cudaDeviceGetCacheConfig(&back);
        printf("cache config %d: %s, reads %s %d\n", c, name(set), name(get), (int)back);
        cudaGetLastError();
    }
    cudaDeviceSetCacheConfig(cudaFuncCachePreferNone);
    const unsigned flags[] = {0, cudaDeviceScheduleSpin, cudaDeviceScheduleYield, cudaDeviceScheduleBlockingSync,
                              cudaDeviceScheduleSpin | cudaDeviceScheduleYield, cudaDeviceMapHost,
                              cudaDeviceLmemResizeToMax, cudaDeviceSyncMemops, 0x100, 0x80000000u,
                              cudaDeviceScheduleAuto | cudaDeviceMapHost};
    for (unsigned f : flags) {
        cudaError_t set = cudaSetDeviceFlags(f);
        unsigned back = 0;
        cudaError_t get = cudaGetDeviceFlags(&back);
        printf("device flags 0x%x: %s, reads %s 0x%x\n", f, name(set), name(get), back);
        cudaGetLastError();
    }
    printf("reset persisting L2: %s\n", name(cudaCtxResetPersistingL2Cache()));
    int least = 0, greatest = 0;
    cudaDeviceGetStreamPriorityRange(&least, &greatest);
    for (int p : {-100, greatest - 1, greatest, -1, 0, least, least + 1, 100}) {
        cudaStream_t s;
        cudaError_t made = cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, p);
        int back = 12345;
        if (made == cudaSuccess) cudaStreamGetPriority(s, &back);
        printf("stream priority %d: %s, reads %d\n", p, name(made), back);
        if (made == cudaSuccess) cudaStreamDestroy(s);
        cudaGetLastError();
    }
}

template <typename Kernel>
static void function_attributes(const char* label, Kernel kernel) {
    cudaFuncAttributes attributes;
    cudaFuncGetAttributes(&attributes, kernel);
    printf("%s: static shared %zu, max dynamic %d, carveout %d\n", label, attributes.sharedSizeBytes,
           attributes.maxDynamicSharedSizeBytes, attributes.preferredShmemCarveout);
    const int optin = (int)prop.sharedMemPerBlockOptin;
    const int stat = (int)attributes.sharedSizeBytes;
    const int sizes[] = {-1, 0, 1, 48 * 1024, 48 * 1024 + 1, optin - stat - 1, optin - stat, optin - stat + 1, optin,
                         optin + 1, (int)prop.sharedMemPerMultiprocessor, 1 << 30};
    for (int v : sizes) {
        cudaError_t set = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, v);
        cudaFuncGetAttributes(&attributes, kernel);
        printf("  max dynamic shared %d: %s, reads %d\n", v, name(set), attributes.maxDynamicSharedSizeBytes);
        cudaGetLastError();
    }
    for (int v : {-2, -1, 0, 1, 50, 99, 100, 101, 1000}) {
        cudaError_t set = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, v);
        cudaFuncGetAttributes(&attributes, kernel);
        printf("  carveout %d: %s, reads %d\n", v, name(set), attributes.preferredShmemCarveout);
        cudaGetLastError();
    }
    const struct {
        cudaFuncAttribute attribute;
        const char* label;
    } cluster[] = {{cudaFuncAttributeClusterDimMustBeSet, "ClusterDimMustBeSet"},
                   {cudaFuncAttributeRequiredClusterWidth, "RequiredClusterWidth"},
                   {cudaFuncAttributeRequiredClusterHeight, "RequiredClusterHeight"},
                   {cudaFuncAttributeRequiredClusterDepth, "RequiredClusterDepth"},
                   {cudaFuncAttributeNonPortableClusterSizeAllowed, "NonPortableClusterSizeAllowed"},
                   {cudaFuncAttributeClusterSchedulingPolicyPreference, "ClusterSchedulingPolicyPreference"}};
    for (auto& a : cluster)
        for (int v : {-1, 0, 1, 2, 3, 8, 9, 16, 17}) {
            cudaError_t set = cudaFuncSetAttribute(kernel, a.attribute, v);
            printf("  %s %d: %s\n", a.label, v, name(set));
            cudaGetLastError();
        }
    // Back to no required cluster shape, so that the launches below run.
    for (auto& a : cluster) cudaFuncSetAttribute(kernel, a.attribute, 0);
    printf("  attribute 99: %s\n", name(cudaFuncSetAttribute(kernel, (cudaFuncAttribute)99, 0)));
    cudaGetLastError();
    for (int c = 0; c <= 5; ++c) {
        printf("  cache config %d: %s\n", c, name(cudaFuncSetCacheConfig(kernel, (cudaFuncCache)c)));
        cudaGetLastError();
    }
}

static void print_window(const cudaAccessPolicyWindow& w, const void* base) {
    printf("base %s, bytes %zu, hit ratio %g, hit %d, miss %d", w.base_ptr == base ? "same" : "other", w.num_bytes,
           w.hitRatio, (int)w.hitProp, (int)w.missProp);
}

static void stream_attributes(void* buffer) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    const size_t maxw = prop.accessPolicyMaxWindowSize;
    const size_t bytes[] = {0, 1, 4096, maxw - 1, maxw, maxw + 1, 1ull << 40};
    const float ratios[] = {-0.5f, 0.0f, 0.5f, 1.0f, 1.5f};
    const int props[] = {cudaAccessPropertyNormal, cudaAccessPropertyStreaming, cudaAccessPropertyPersisting, 3};
    cudaStreamAttrValue value, back;
    for (size_t b : bytes)
        for (float r : ratios) {
            memset(&value, 0, sizeof value);
            value.accessPolicyWindow = {buffer, b, r, cudaAccessPropertyPersisting, cudaAccessPropertyStreaming};
            cudaError_t set = cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &value);
            memset(&back, 0, sizeof back);
            cudaError_t get = cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back);
            printf("stream window %zu bytes, ratio %g: %s, reads %s ", b, r, name(set), name(get));
            print_window(back.accessPolicyWindow, buffer);
            printf("\n");
            cudaGetLastError();
        }
    for (int hit : props)
        for (int miss : props) {
            memset(&value, 0, sizeof value);
            value.accessPolicyWindow = {buffer, 4096, 0.5f, (cudaAccessProperty)hit, (cudaAccessProperty)miss};
            printf("stream window hit %d miss %d: %s\n", hit, miss,
                   name(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &value)));
            cudaGetLastError();
        }
    memset(&value, 0, sizeof value);
    value.accessPolicyWindow = {nullptr, 4096, 0.5f, cudaAccessPropertyPersisting, cudaAccessPropertyStreaming};
    printf("stream window at null: %s\n", name(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &value)));
    cudaGetLastError();
    for (int p = 0; p <= 5; ++p) {
        memset(&value, 0, sizeof value);
        value.syncPolicy = (cudaSynchronizationPolicy)p;
        cudaError_t set = cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &value);
        memset(&back, 0, sizeof back);
        cudaError_t get = cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &back);
        printf("stream sync policy %d: %s, reads %s %d\n", p, name(set), name(get), (int)back.syncPolicy);
        cudaGetLastError();
    }
    for (int p : {-6, -5, -1, 0, 1}) {
        memset(&value, 0, sizeof value);
        value.priority = p;
        cudaError_t set = cudaStreamSetAttribute(s, cudaStreamAttributePriority, &value);
        memset(&back, 0, sizeof back);
        cudaError_t get = cudaStreamGetAttribute(s, cudaStreamAttributePriority, &back);
        printf("stream priority attribute %d: %s, reads %s %d\n", p, name(set), name(get), back.priority);
        cudaGetLastError();
    }
    for (int d = 0; d <= 3; ++d) {
        memset(&value, 0, sizeof value);
        value.memSyncDomain = (cudaLaunchMemSyncDomain)d;
        cudaError_t set = cudaStreamSetAttribute(s, cudaStreamAttributeMemSyncDomain, &value);
        memset(&back, 0, sizeof back);
        cudaError_t get = cudaStreamGetAttribute(s, cudaStreamAttributeMemSyncDomain, &back);
        printf("stream sync domain %d: %s, reads %s %d\n", d, name(set), name(get), (int)back.memSyncDomain);
        cudaGetLastError();
    }
    for (int remote : {0, 1, 3, 4}) {
        memset(&value, 0, sizeof value);
        value.memSyncDomainMap.default_ = 0;
        value.memSyncDomainMap.remote = (unsigned char)remote;
        cudaError_t set = cudaStreamSetAttribute(s, cudaStreamAttributeMemSyncDomainMap, &value);
        memset(&back, 0, sizeof back);
        cudaError_t get = cudaStreamGetAttribute(s, cudaStreamAttributeMemSyncDomainMap, &back);
        printf("stream sync domain map remote %d: %s, reads %s %d %d\n", remote, name(set), name(get),
               back.memSyncDomainMap.default_, back.memSyncDomainMap.remote);
        cudaGetLastError();
    }
    for (int a : {2, 4, 5, 6, 7, 11, 12, 13, 14, 99}) {
        memset(&value, 0, sizeof value);
        printf("stream attribute %d: set %s", a, name(cudaStreamSetAttribute(s, (cudaStreamAttrID)a, &value)));
        cudaGetLastError();
        printf(", get %s\n", name(cudaStreamGetAttribute(s, (cudaStreamAttrID)a, &back)));
        cudaGetLastError();
    }
    cudaStreamDestroy(s);
}

static void launch_attributes(void* buffer) {
    int* out;
    cudaMalloc(&out, 64 * 32 * sizeof(int));
    auto launch = [&](const char* label, long long shown, cudaLaunchAttribute attribute, unsigned grid) {
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(grid);
        config.blockDim = dim3(32);
        config.attrs = &attribute;
        config.numAttrs = 1;
        cudaError_t launched = cudaLaunchKernelEx(&config, plain, out);
        cudaError_t synced = cudaDeviceSynchronize();
        printf("launch %s %lld: %s, then %s\n", label, shown, name(launched), name(synced));
        cudaGetLastError();
    };
    cudaLaunchAttribute a;
    for (unsigned x : {0u, 1u, 2u, 3u, 8u, 9u, 16u, 17u}) {
        memset(&a, 0, sizeof a);
        a.id = cudaLaunchAttributeClusterDimension;
        a.val.clusterDim.x = x;
        a.val.clusterDim.y = 1;
        a.val.clusterDim.z = 1;
        launch("cluster x", x, a, 48);
    }
    for (int p : {-100, -6, -5, 0, 1, 100}) {
        memset(&a, 0, sizeof a);
        a.id = cudaLaunchAttributePriority;
        a.val.priority = p;
        launch("priority", p, a, 4);
    }
    const size_t maxw = prop.accessPolicyMaxWindowSize;
    for (size_t b : {(size_t)0, (size_t)4096, maxw, maxw + 1})
        for (float r : {0.0f, 1.0f, 1.5f}) {
            memset(&a, 0, sizeof a);
            a.id = cudaLaunchAttributeAccessPolicyWindow;
            a.val.accessPolicyWindow = {buffer, b, r, cudaAccessPropertyPersisting, cudaAccessPropertyStreaming};
            char label[64];
            snprintf(label, sizeof label, "window ratio %g bytes", r);
            launch(label, (long long)b, a, 4);
        }
    for (int v : {0, 1, 2}) {
        memset(&a, 0, sizeof a);
        a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
        a.val.programmaticStreamSerializationAllowed = v;
        launch("programmatic serialization", v, a, 4);
    }
    for (int v : {0, 1, 2}) {
        memset(&a, 0, sizeof a);
        a.id = cudaLaunchAttributeCooperative;
        a.val.cooperative = v;
        launch("cooperative", v, a, 4);
    }
    for (int v : {0, 1, 2, 3}) {
        memset(&a, 0, sizeof a);
        a.id = cudaLaunchAttributeMemSyncDomain;
        a.val.memSyncDomain = (cudaLaunchMemSyncDomain)v;
        launch("sync domain", v, a, 4);
    }
    for (int v : {0, 1, 2, 3}) {
        memset(&a, 0, sizeof a);
        a.id = cudaLaunchAttributeClusterSchedulingPolicyPreference;
        a.val.clusterSchedulingPolicyPreference = (cudaClusterSchedulingPolicy)v;
        launch("cluster scheduling policy", v, a, 4);
    }
    for (int v : {-1, 0, 50, 100, 101}) {
        memset(&a, 0, sizeof a);
        a.id = cudaLaunchAttributePreferredSharedMemoryCarveout;
        a.val.sharedMemCarveout = (unsigned)v;
        launch("carveout", v, a, 4);
    }
    for (int v : {0, 1, 4}) {
        memset(&a, 0, sizeof a);
        a.id = cudaLaunchAttributeSynchronizationPolicy;
        a.val.syncPolicy = (cudaSynchronizationPolicy)v;
        launch("sync policy (streams only)", v, a, 4);
    }
    cudaFree(out);
}

static void kernel_node_attributes(void* buffer) {
    cudaGraph_t graph;
    cudaGraphCreate(&graph, 0);
    int* out = nullptr;
    void* args[] = {&out};
    cudaKernelNodeParams params = {};
    params.func = (void*)plain;
    params.gridDim = dim3(4);
    params.blockDim = dim3(32);
    params.kernelParams = args;
    cudaGraphNode_t node = nullptr;
    printf("add kernel node: %s\n", name(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params)));
    if (!node) return;
    cudaKernelNodeAttrValue value, back;
    const size_t maxw = prop.accessPolicyMaxWindowSize;
    for (size_t b : {(size_t)0, maxw, maxw + 1}) {
        memset(&value, 0, sizeof value);
        value.accessPolicyWindow = {buffer, b, 0.5f, cudaAccessPropertyPersisting, cudaAccessPropertyStreaming};
        cudaError_t set = cudaGraphKernelNodeSetAttribute(node, cudaKernelNodeAttributeAccessPolicyWindow, &value);
        memset(&back, 0, sizeof back);
        cudaError_t get = cudaGraphKernelNodeGetAttribute(node, cudaKernelNodeAttributeAccessPolicyWindow, &back);
        printf("node window %zu bytes: %s, reads %s ", b, name(set), name(get));
        print_window(back.accessPolicyWindow, buffer);
        printf("\n");
        cudaGetLastError();
    }
    for (int p : {-6, -5, 0, 1}) {
        memset(&value, 0, sizeof value);
        value.priority = p;
        cudaError_t set = cudaGraphKernelNodeSetAttribute(node, cudaLaunchAttributePriority, &value);
        memset(&back, 0, sizeof back);
        cudaError_t get = cudaGraphKernelNodeGetAttribute(node, cudaLaunchAttributePriority, &back);
        printf("node priority %d: %s, reads %s %d\n", p, name(set), name(get), back.priority);
        cudaGetLastError();
    }
    cudaGraphDestroy(graph);
}

static void memory_attributes() {
    const struct {
        cudaGraphMemAttributeType attribute;
        const char* label;
    } graph_attributes[] = {{cudaGraphMemAttrUsedMemCurrent, "UsedMemCurrent"},
                            {cudaGraphMemAttrUsedMemHigh, "UsedMemHigh"},
                            {cudaGraphMemAttrReservedMemCurrent, "ReservedMemCurrent"},
                            {cudaGraphMemAttrReservedMemHigh, "ReservedMemHigh"}};
    for (auto& g : graph_attributes)
        for (unsigned long long v : {0ull, 1ull}) {
            unsigned long long value = v, back = 99;
            cudaError_t set = cudaDeviceSetGraphMemAttribute(0, g.attribute, &value);
            cudaError_t get = cudaDeviceGetGraphMemAttribute(0, g.attribute, &back);
            printf("graph memory %s %llu: %s, reads %s %llu\n", g.label, v, name(set), name(get), back);
            cudaGetLastError();
        }
    printf("graph memory trim: %s\n", name(cudaDeviceGraphMemTrim(0)));
    cudaMemPool_t pool;
    cudaDeviceGetDefaultMemPool(&pool, 0);
    for (unsigned long long v : {0ull, 1ull, 1ull << 20, ~0ull}) {
        unsigned long long value = v, back = 99;
        cudaError_t set = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &value);
        cudaError_t get = cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &back);
        printf("pool release threshold %llu: %s, reads %s %llu\n", v, name(set), name(get), back);
        cudaGetLastError();
    }
    const struct {
        cudaMemPoolAttr attribute;
        const char* label;
    } flags[] = {{cudaMemPoolReuseFollowEventDependencies, "ReuseFollowEventDependencies"},
                 {cudaMemPoolReuseAllowOpportunistic, "ReuseAllowOpportunistic"},
                 {cudaMemPoolReuseAllowInternalDependencies, "ReuseAllowInternalDependencies"}};
    for (auto& f : flags)
        for (int v : {0, 1, 2, -1}) {
            int value = v, back = 99;
            cudaError_t set = cudaMemPoolSetAttribute(pool, f.attribute, &value);
            cudaError_t get = cudaMemPoolGetAttribute(pool, f.attribute, &back);
            printf("pool %s %d: %s, reads %s %d\n", f.label, v, name(set), name(get), back);
            value = 1;
            cudaMemPoolSetAttribute(pool, f.attribute, &value);
            cudaGetLastError();
        }
    unsigned long long zero = 0;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &zero);
}

int main() {
    setvbuf(stdout, nullptr, _IOLBF, 0);  // a crash still shows the line before it
    cudaGetDeviceProperties(&prop, 0);
    printf("persisting L2 max %d, L2 %d, window max %d, optin shared %zu, shared per SM %zu\n",
           prop.persistingL2CacheMaxSize, prop.l2CacheSize, prop.accessPolicyMaxWindowSize,
           prop.sharedMemPerBlockOptin, prop.sharedMemPerMultiprocessor);
    void* buffer;
    cudaMalloc(&buffer, 1 << 20);
    limits();
    device_settings();
    function_attributes("plain", plain);
    function_attributes("with_static_shared", with_static_shared);
    stream_attributes(buffer);
    launch_attributes(buffer);
    kernel_node_attributes(buffer);
    memory_attributes();
    cudaFree(buffer);
    printf("done: %s\n", name(cudaGetLastError()));
    return 0;
}
