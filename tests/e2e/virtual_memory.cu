// The driver's virtual memory management: a reserved address range backed by two physical
// allocations mapped back to back, made accessible, written by a kernel across the seam;
// one allocation exported as a file descriptor, imported and mapped a second time (both
// addresses see the same memory); the properties, access and handles read back; and the
// driver's errors for sizes off the granularity and ranges that are not mapped.
// NVCC-FLAGS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

__global__ void fill(int* data, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    data[i] = static_cast<int>(i * 3);
}

static void say(const char* what, CUresult result) {
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::printf("%s: %s\n", what, name ? name : "?");
}

#define CHECK(call) say(#call, call)

int main() {
  CHECK(cuInit(0));
  cudaFree(nullptr);  // the runtime makes the primary context current
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t granularity = 0, recommended = 0;
  CHECK(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CHECK(cuMemGetAllocationGranularity(&recommended, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  std::printf("granularity %zu, recommended %zu\n", granularity, recommended);

  const size_t chunk = 2 * granularity;
  CUdeviceptr base = 0;
  CHECK(cuMemAddressReserve(&base, 4 * chunk, 0, 0, 0));
  std::printf("reserved range aligned to the granularity: %s\n", base % granularity == 0 ? "yes" : "no");
  CUmemGenericAllocationHandle first = 0, second = 0;
  CHECK(cuMemCreate(&first, chunk, &prop, 0));
  CHECK(cuMemCreate(&second, chunk, &prop, 0));
  CHECK(cuMemMap(base, chunk, 0, first, 0));
  CHECK(cuMemMap(base + chunk, chunk, 0, second, 0));
  CUmemAccessDesc access = {};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CHECK(cuMemSetAccess(base, 2 * chunk, &access, 1));
  unsigned long long flags = 99;
  CHECK(cuMemGetAccess(&flags, &prop.location, base + 100));
  std::printf("access flags %llu\n", flags);

  const size_t n = 2 * chunk / sizeof(int);
  fill<<<64, 256>>>(reinterpret_cast<int*>(base), n);
  std::printf("fill: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::vector<int> host(n);
  CHECK(cuMemcpyDtoH(host.data(), base, 2 * chunk));
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += host[i] != static_cast<int>(i * 3);
  std::printf("across the seam: %zu wrong of %zu\n", wrong, n);

  CUmemAllocationProp read_back = {};
  CHECK(cuMemGetAllocationPropertiesFromHandle(&read_back, second));
  std::printf("properties: type %d, location type %d id %d, handle types %d\n", read_back.type,
              read_back.location.type, read_back.location.id, read_back.requestedHandleTypes);
  CUmemGenericAllocationHandle retained = 0;
  CHECK(cuMemRetainAllocationHandle(&retained, reinterpret_cast<void*>(base + chunk + 64)));
  std::printf("retained handle is the second: %s\n", retained == second ? "yes" : "no");
  CHECK(cuMemRelease(retained));

  // The first allocation again, through a file descriptor, at a second address.
  int fd = -1;
  CHECK(cuMemExportToShareableHandle(&fd, first, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUmemGenericAllocationHandle imported = 0;
  CHECK(cuMemImportFromShareableHandle(&imported, reinterpret_cast<void*>(static_cast<uintptr_t>(fd)),
                                       CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  close(fd);
  CHECK(cuMemMap(base + 2 * chunk, chunk, 0, imported, 0));
  CHECK(cuMemSetAccess(base + 2 * chunk, chunk, &access, 1));
  int seen = 0;
  CHECK(cuMemcpyDtoH(&seen, base + 2 * chunk + 40 * sizeof(int), sizeof seen));
  int value = 12345;
  CHECK(cuMemcpyHtoD(base + 2 * chunk + 8, &value, sizeof value));
  int through_first = 0;
  CHECK(cuMemcpyDtoH(&through_first, base + 8, sizeof through_first));
  std::printf("alias reads %d, a write through it reads back %d through the first mapping\n", seen, through_first);

  // Errors.
  CUmemGenericAllocationHandle odd = 0;
  say("cuMemCreate of half the granularity", cuMemCreate(&odd, granularity / 2, &prop, 0));
  say("cuMemCreate of 0 bytes", cuMemCreate(&odd, 0, &prop, 0));
  say("cuMemMap of half the granularity", cuMemMap(base + 3 * chunk, granularity / 2, 0, second, 0));
  say("cuMemMap over a mapped range", cuMemMap(base, chunk, 0, second, 0));
  say("cuMemMap past the allocation", cuMemMap(base + 3 * chunk, chunk, chunk, second, 0));
  say("cuMemAddressReserve of half the granularity", cuMemAddressReserve(&odd, granularity / 2, 0, 0, 0));

  CHECK(cuMemUnmap(base + 2 * chunk, chunk));
  CHECK(cuMemUnmap(base, 2 * chunk));
  CHECK(cuMemRelease(imported));
  CHECK(cuMemRelease(first));
  CHECK(cuMemRelease(second));
  CHECK(cuMemAddressFree(base, 4 * chunk));
  std::printf("done\n");
  return 0;
}
