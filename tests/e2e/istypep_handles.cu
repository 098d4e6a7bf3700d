// istypep.{texref,samplerref,surfref} (PTX ISA 9.0 §9.7.10.6) on the handles a program has:
// a texture object, a surface object and 0. The ISA does not say whether a texture object
// (a unified-mode .texref, its sampler inside) also counts as a .samplerref; the GPU's
// output settles it.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void kinds(unsigned long long handle, int* out) {
  int tex, sampler, surf;
  asm volatile(
      "{\n .reg .pred p;\n"
      " istypep.texref p, %3;\n selp.s32 %0, 1, 0, p;\n"
      " istypep.samplerref p, %3;\n selp.s32 %1, 1, 0, p;\n"
      " istypep.surfref p, %3;\n selp.s32 %2, 1, 0, p;\n}"
      : "=r"(tex), "=r"(sampler), "=r"(surf)
      : "l"(handle));
  out[0] = tex;
  out[1] = sampler;
  out[2] = surf;
}

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    printf("%s: %s\n", what, cudaGetErrorName(e));
    exit(1);
  }
}

static void ask(const char* name, unsigned long long handle, int* out) {
  int host[3];
  kinds<<<1, 1>>>(handle, out);
  check(cudaDeviceSynchronize(), name);
  check(cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost), "cudaMemcpy");
  printf("%-16s texref %d samplerref %d surfref %d\n", name, host[0], host[1], host[2]);
}

int main() {
  cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  check(cudaMallocArray(&array, &format, 4, 4, cudaArraySurfaceLoadStore), "cudaMallocArray");
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc texture_desc = {};
  texture_desc.filterMode = cudaFilterModeLinear;
  texture_desc.readMode = cudaReadModeElementType;
  cudaTextureObject_t texture;
  cudaSurfaceObject_t surface;
  check(cudaCreateTextureObject(&texture, &resource, &texture_desc, nullptr), "cudaCreateTextureObject");
  check(cudaCreateSurfaceObject(&surface, &resource), "cudaCreateSurfaceObject");
  int* out;
  check(cudaMalloc(&out, 3 * sizeof(int)), "cudaMalloc");
  ask("texture object", texture, out);
  ask("surface object", surface, out);
  ask("zero", 0, out);
  cudaDestroyTextureObject(texture);
  cudaDestroySurfaceObject(surface);
  cudaFreeArray(array);
  cudaFree(out);
  return 0;
}
