// CUDA arrays, texture objects and surface objects through the driver API, as
// simpleTextureDrv and the static runtime use them: cuArrayCreate/cuArray3DCreate, copies
// into and out of arrays (cuMemcpy2D/3D with array sides, the 1D HtoA/AtoH/AtoA/AtoD/DtoA and
// which arrays they take), textures
// over an array, linear and pitched memory (integer formats read as normalized floats
// unless CU_TRSF_READ_AS_INTEGER), a surface a kernel writes, the getters, and the
// driver's codes for bad descriptions. Kernels of this file are launched with
// cuLaunchKernel (cudaGetFuncBySymbol).
// NVCC-FLAGS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

__global__ void fetch_2d(cudaTextureObject_t texture, float* out, int width, int height, float shift) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < width && y < height) out[y * width + x] = tex2D<float>(texture, x + shift, y + 0.5f);
}

__global__ void fetch_uchar(cudaTextureObject_t as_float, cudaTextureObject_t as_integer, float* floats,
                            unsigned* integers, int n) {
  int i = threadIdx.x;
  if (i < n) {
    floats[i] = tex1Dfetch<float>(as_float, i);
    integers[i] = tex1Dfetch<unsigned char>(as_integer, i);
  }
}

__global__ void fetch_bytes_2d(cudaTextureObject_t texture, unsigned* out, int n, float y) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex2D<unsigned char>(texture, i * 0.25f, y);
}

__global__ void fetch_layers(cudaTextureObject_t texture, float* out, int width, int layers) {
  int x = threadIdx.x, layer = blockIdx.x;
  if (x < width && layer < layers) out[layer * width + x] = tex1DLayered<float>(texture, x + 0.5f, layer);
}

__global__ void write_surface(cudaSurfaceObject_t surface, int width, int height) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < width && y < height) surf2Dwrite(x * 100 + y, surface, x * int(sizeof(int)), y);
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

static void launch(const void* symbol, unsigned blocks, unsigned threads, void** params) {
  CHECK(cuLaunchKernel(function_of(symbol), blocks, 1, 1, threads, 1, 1, 0, nullptr, params, nullptr));
  CHECK(cuCtxSynchronize());
}

static CUdeviceptr device_alloc(size_t bytes) {
  CUdeviceptr p = 0;
  CHECK(cuMemAlloc(&p, bytes));
  return p;
}

static CUDA_TEXTURE_DESC texture_desc(CUaddress_mode mode, CUfilter_mode filter, unsigned flags) {
  CUDA_TEXTURE_DESC t{};
  t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = mode;
  t.filterMode = filter;
  t.flags = flags;
  return t;
}

int main() {
  CHECK(cuInit(0));
  CUdevice device = 0;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context = nullptr;
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));

  // A 2D float array: filled with cuMemcpy2D from pitched host rows, read back, then
  // sampled with linear filtering between texel centres.
  const int width = 8, height = 4;
  CUDA_ARRAY_DESCRIPTOR d2{};
  d2.Width = width;
  d2.Height = height;
  d2.Format = CU_AD_FORMAT_FLOAT;
  d2.NumChannels = 1;
  CUarray array2d = nullptr;
  CHECK(cuArrayCreate(&array2d, &d2));
  std::vector<float> rows(16 * height, -1.0f);  // a host pitch of 16 floats
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) rows[y * 16 + x] = float(y * 10 + x);
  CUDA_MEMCPY2D in{};
  in.srcMemoryType = CU_MEMORYTYPE_HOST;
  in.srcHost = rows.data();
  in.srcPitch = 16 * sizeof(float);
  in.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  in.dstArray = array2d;
  in.WidthInBytes = width * sizeof(float);
  in.Height = height;
  CHECK(cuMemcpy2D(&in));
  std::vector<float> back(width * height, 0);
  CUDA_MEMCPY2D out{};
  out.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  out.srcArray = array2d;
  out.srcXInBytes = 2 * sizeof(float);
  out.srcY = 1;
  out.dstMemoryType = CU_MEMORYTYPE_HOST;
  out.dstHost = back.data();
  out.dstPitch = 3 * sizeof(float);
  out.WidthInBytes = 3 * sizeof(float);
  out.Height = 2;
  CHECK(cuMemcpy2D(&out));
  std::printf("array rows 1-2, columns 2-4: %g %g %g / %g %g %g\n", back[0], back[1], back[2], back[3], back[4],
              back[5]);
  CUDA_ARRAY_DESCRIPTOR got2{};
  CHECK(cuArrayGetDescriptor(&got2, array2d));
  std::printf("descriptor: %zu x %zu format %#x channels %u\n", got2.Width, got2.Height, unsigned(got2.Format),
              got2.NumChannels);

  CUDA_RESOURCE_DESC resource{};
  resource.resType = CU_RESOURCE_TYPE_ARRAY;
  resource.res.array.hArray = array2d;
  CUDA_TEXTURE_DESC linear = texture_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
  CUtexObject texture = 0;
  CHECK(cuTexObjectCreate(&texture, &resource, &linear, nullptr));
  CUdeviceptr samples = device_alloc(width * height * sizeof(float));
  {
    int w = width, h = height;
    float shift = 0.75f;
    void* params[] = {&texture, &samples, &w, &h, &shift};
    launch(reinterpret_cast<const void*>(fetch_2d), height, width, params);
  }
  std::vector<float> sampled(width * height);
  CHECK(cuMemcpyDtoH(sampled.data(), samples, sampled.size() * sizeof(float)));
  std::printf("linear samples, row 2:");
  for (int x = 0; x < width; ++x) std::printf(" %.6g", sampled[2 * width + x]);
  std::printf("\n");
  CUDA_RESOURCE_DESC got_resource{};
  CUDA_TEXTURE_DESC got_texture{};
  CHECK(cuTexObjectGetResourceDesc(&got_resource, texture));
  CHECK(cuTexObjectGetTextureDesc(&got_texture, texture));
  std::printf("getters: type %d same array %d filter %d address %d\n", int(got_resource.resType),
              got_resource.res.array.hArray == array2d, int(got_texture.filterMode), int(got_texture.addressMode[0]));

  // Unsigned bytes in linear memory: without CU_TRSF_READ_AS_INTEGER they read as
  // normalized floats, with it as integers.
  const int n = 8;
  CUdeviceptr bytes = device_alloc(256);
  unsigned char byte_values[n] = {0, 1, 2, 64, 127, 128, 200, 255};
  CHECK(cuMemcpyHtoD(bytes, byte_values, n));
  CUDA_RESOURCE_DESC linear_resource{};
  linear_resource.resType = CU_RESOURCE_TYPE_LINEAR;
  linear_resource.res.linear.devPtr = bytes;
  linear_resource.res.linear.format = CU_AD_FORMAT_UNSIGNED_INT8;
  linear_resource.res.linear.numChannels = 1;
  linear_resource.res.linear.sizeInBytes = n;
  CUDA_TEXTURE_DESC as_float = texture_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
  CUDA_TEXTURE_DESC as_integer =
      texture_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER);
  CUtexObject float_texture = 0, integer_texture = 0;
  CHECK(cuTexObjectCreate(&float_texture, &linear_resource, &as_float, nullptr));
  CHECK(cuTexObjectCreate(&integer_texture, &linear_resource, &as_integer, nullptr));
  CUdeviceptr floats = device_alloc(n * sizeof(float)), integers = device_alloc(n * sizeof(unsigned));
  {
    int count = n;
    void* params[] = {&float_texture, &integer_texture, &floats, &integers, &count};
    launch(reinterpret_cast<const void*>(fetch_uchar), 1, n, params);
  }
  float float_values[n];
  unsigned integer_values[n];
  CHECK(cuMemcpyDtoH(float_values, floats, sizeof(float_values)));
  CHECK(cuMemcpyDtoH(integer_values, integers, sizeof(integer_values)));
  std::printf("bytes as floats:");
  for (float v : float_values) std::printf(" %.9g", v);
  std::printf("\nbytes as integers:");
  for (unsigned v : integer_values) std::printf(" %u", v);
  std::printf("\n");

  // A layered 1D array filled with cuMemcpy3D from device memory and the 1D HtoA copy,
  // copied array to array, sampled layer by layer.
  const int layer_width = 4, layers = 3;
  CUDA_ARRAY3D_DESCRIPTOR d3{};
  d3.Width = layer_width;
  d3.Depth = layers;
  d3.Format = CU_AD_FORMAT_FLOAT;
  d3.NumChannels = 1;
  d3.Flags = CUDA_ARRAY3D_LAYERED;
  CUarray layered = nullptr, layered_copy = nullptr;
  CHECK(cuArray3DCreate(&layered, &d3));
  CHECK(cuArray3DCreate(&layered_copy, &d3));
  std::vector<float> layer_values(layer_width * layers);
  for (size_t i = 0; i < layer_values.size(); ++i) layer_values[i] = 0.5f + float(i);
  CUdeviceptr staging = device_alloc(layer_values.size() * sizeof(float));
  CHECK(cuMemcpyHtoD(staging, layer_values.data(), layer_values.size() * sizeof(float)));
  CUDA_MEMCPY3D copy3d{};
  copy3d.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  copy3d.srcDevice = staging;
  copy3d.srcPitch = layer_width * sizeof(float);
  copy3d.srcHeight = 1;
  copy3d.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  copy3d.dstArray = layered;
  copy3d.WidthInBytes = layer_width * sizeof(float);
  copy3d.Height = 1;
  copy3d.Depth = layers;
  CHECK(cuMemcpy3D(&copy3d));
  CUDA_MEMCPY3D array_to_array{};
  array_to_array.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  array_to_array.srcArray = layered;
  array_to_array.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  array_to_array.dstArray = layered_copy;
  array_to_array.WidthInBytes = layer_width * sizeof(float);
  array_to_array.Height = 1;
  array_to_array.Depth = layers;
  CHECK(cuMemcpy3D(&array_to_array));
  const float replaced[2] = {100.0f, 200.0f};
  say("HtoA into a layered array", cuMemcpyHtoA(layered, 0, replaced, sizeof(replaced)));

  // The 1D copies on a 1D array, and where a 2D array takes them.
  CUDA_ARRAY_DESCRIPTOR d1 = d2;
  d1.Width = 16;
  d1.Height = 0;
  CUarray line = nullptr, line_copy = nullptr;
  CHECK(cuArrayCreate(&line, &d1));
  CHECK(cuArrayCreate(&line_copy, &d1));
  std::vector<float> ramp(16);
  for (int i = 0; i < 16; ++i) ramp[i] = float(i) * 1.5f;
  CHECK(cuMemcpyHtoA(line, 0, ramp.data(), ramp.size() * sizeof(float)));
  CHECK(cuMemcpyHtoA(line, 2 * sizeof(float), replaced, sizeof(replaced)));
  CHECK(cuMemcpyAtoA(line_copy, 4 * sizeof(float), line, 0, 8 * sizeof(float)));
  CUdeviceptr line_device = device_alloc(16 * sizeof(float));
  CHECK(cuMemcpyAtoD(line_device, line_copy, 0, 16 * sizeof(float)));
  CHECK(cuMemcpyDtoA(line, 12 * sizeof(float), line_device, 4 * sizeof(float)));
  float line_back[16];
  CHECK(cuMemcpyAtoH(line_back, line, 0, sizeof(line_back)));
  std::printf("1D array after HtoA/AtoA/AtoD/DtoA:");
  for (float v : line_back) std::printf(" %g", v);
  std::printf("\n");
  float row_values[16] = {};
  say("HtoA into a 2D array within row 0", cuMemcpyHtoA(array2d, 0, row_values, 4 * sizeof(float)));
  say("HtoA into a 2D array across rows", cuMemcpyHtoA(array2d, 0, row_values, 16 * sizeof(float)));
  say("AtoH from a 2D array's row 1", cuMemcpyAtoH(row_values, array2d, width * sizeof(float), 2 * sizeof(float)));
  CHECK(cuArrayDestroy(line));
  CHECK(cuArrayDestroy(line_copy));
  CHECK(cuMemFree(line_device));
  CUDA_ARRAY3D_DESCRIPTOR got3{};
  CHECK(cuArray3DGetDescriptor(&got3, layered_copy));
  std::printf("3D descriptor: %zu x %zu x %zu flags %u\n", got3.Width, got3.Height, got3.Depth, got3.Flags);
  CUDA_RESOURCE_DESC layered_resource{};
  layered_resource.resType = CU_RESOURCE_TYPE_ARRAY;
  layered_resource.res.array.hArray = layered_copy;
  CUDA_TEXTURE_DESC point = texture_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
  CUtexObject layered_texture = 0;
  CHECK(cuTexObjectCreate(&layered_texture, &layered_resource, &point, nullptr));
  CUdeviceptr layer_out = device_alloc(layer_values.size() * sizeof(float));
  {
    int w = layer_width, l = layers;
    void* params[] = {&layered_texture, &layer_out, &w, &l};
    launch(reinterpret_cast<const void*>(fetch_layers), layers, layer_width, params);
  }
  std::vector<float> layer_read(layer_values.size());
  CHECK(cuMemcpyDtoH(layer_read.data(), layer_out, layer_read.size() * sizeof(float)));
  std::printf("layered fetches:");
  for (float v : layer_read) std::printf(" %g", v);
  std::printf("\n");

  // A pitched 2D texture over cuMemAllocPitch memory, sampled with point filtering.
  size_t pitch = 0;
  CUdeviceptr pitched = 0;
  CHECK(cuMemAllocPitch(&pitched, &pitch, width * sizeof(float), height, 4));
  CUDA_MEMCPY2D to_pitched = in;
  to_pitched.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  to_pitched.dstArray = nullptr;
  to_pitched.dstDevice = pitched;
  to_pitched.dstPitch = pitch;
  CHECK(cuMemcpy2D(&to_pitched));
  CUDA_RESOURCE_DESC pitch_resource{};
  pitch_resource.resType = CU_RESOURCE_TYPE_PITCH2D;
  pitch_resource.res.pitch2D.devPtr = pitched;
  pitch_resource.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
  pitch_resource.res.pitch2D.numChannels = 1;
  pitch_resource.res.pitch2D.width = width;
  pitch_resource.res.pitch2D.height = height;
  pitch_resource.res.pitch2D.pitchInBytes = pitch;
  CUtexObject pitch_texture = 0;
  CHECK(cuTexObjectCreate(&pitch_texture, &pitch_resource, &point, nullptr));
  {
    int w = width, h = height;
    float shift = 0.5f;
    void* params[] = {&pitch_texture, &samples, &w, &h, &shift};
    launch(reinterpret_cast<const void*>(fetch_2d), height, width, params);
  }
  CHECK(cuMemcpyDtoH(sampled.data(), samples, sampled.size() * sizeof(float)));
  std::printf("pitched point samples, row 3:");
  for (int x = 0; x < width; ++x) std::printf(" %g", sampled[3 * width + x]);
  std::printf("\n");

  // A surface over an int array that a kernel writes, read back with cuMemcpy3D.
  CUDA_ARRAY3D_DESCRIPTOR surface_desc{};
  surface_desc.Width = 4;
  surface_desc.Height = 3;
  surface_desc.Format = CU_AD_FORMAT_SIGNED_INT32;
  surface_desc.NumChannels = 1;
  surface_desc.Flags = CUDA_ARRAY3D_SURFACE_LDST;
  CUarray surface_array = nullptr;
  CHECK(cuArray3DCreate(&surface_array, &surface_desc));
  CUDA_RESOURCE_DESC surface_resource{};
  surface_resource.resType = CU_RESOURCE_TYPE_ARRAY;
  surface_resource.res.array.hArray = surface_array;
  CUsurfObject surface = 0;
  CHECK(cuSurfObjectCreate(&surface, &surface_resource));
  {
    int w = 4, h = 3;
    void* params[] = {&surface, &w, &h};
    launch(reinterpret_cast<const void*>(write_surface), 3, 4, params);
  }
  int surface_values[12] = {};
  CUDA_MEMCPY3D from_surface{};
  from_surface.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  from_surface.srcArray = surface_array;
  from_surface.dstMemoryType = CU_MEMORYTYPE_HOST;
  from_surface.dstHost = surface_values;
  from_surface.dstPitch = 4 * sizeof(int);
  from_surface.dstHeight = 3;
  from_surface.WidthInBytes = 4 * sizeof(int);
  from_surface.Height = 3;
  from_surface.Depth = 1;
  CHECK(cuMemcpy3D(&from_surface));
  std::printf("surface:");
  for (int v : surface_values) std::printf(" %d", v);
  std::printf("\n");
  CUDA_RESOURCE_DESC got_surface{};
  CHECK(cuSurfObjectGetResourceDesc(&got_surface, surface));
  std::printf("surface getter: same array %d\n", got_surface.res.array.hArray == surface_array);

  // Bad descriptions and handles.
  CUarray bad = nullptr;
  CUDA_ARRAY_DESCRIPTOR three = d2;
  three.NumChannels = 3;
  say("array of 3 channels", cuArrayCreate(&bad, &three));
  CUDA_ARRAY_DESCRIPTOR no_width = d2;
  no_width.Width = 0;
  say("array of width 0", cuArrayCreate(&bad, &no_width));
  CUDA_ARRAY_DESCRIPTOR bad_format = d2;
  bad_format.Format = static_cast<CUarray_format>(0x7);
  say("array of format 0x7", cuArrayCreate(&bad, &bad_format));
  CUDA_ARRAY3D_DESCRIPTOR cube = d3;
  cube.Height = 5;
  cube.Depth = 6;
  cube.Flags = CUDA_ARRAY3D_CUBEMAP;
  say("cubemap of faces 4 x 5", cuArray3DCreate(&bad, &cube));
  CUDA_MEMCPY2D outside = out;
  outside.srcY = 3;
  say("2D copy past the array's last row", cuMemcpy2D(&outside));
  float spill[4];
  say("AtoH past the array's end", cuMemcpyAtoH(spill, array2d, (width * height - 2) * sizeof(float), sizeof(spill)));
  CUDA_TEXTURE_DESC filtered_integers =
      texture_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_READ_AS_INTEGER);
  CUtexObject bad_texture = 0;
  CUDA_RESOURCE_DESC misaligned = linear_resource;
  misaligned.res.linear.devPtr = bytes + 1;
  say("linear texture at a misaligned address", cuTexObjectCreate(&bad_texture, &misaligned, &as_float, nullptr));
  CUDA_RESOURCE_DESC flagged = resource;
  flagged.flags = 1;
  say("resource description with flags", cuTexObjectCreate(&bad_texture, &flagged, &linear, nullptr));
  say("texture without a texture description", cuTexObjectCreate(&bad_texture, &resource, nullptr, nullptr));
  CUDA_RESOURCE_DESC linear_surface = linear_resource;
  CUsurfObject bad_surface = 0;
  say("surface over linear memory", cuSurfObjectCreate(&bad_surface, &linear_surface));
  CUDA_RESOURCE_DESC pitched_bytes = pitch_resource;
  pitched_bytes.res.pitch2D.format = CU_AD_FORMAT_UNSIGNED_INT8;
  CUresult filtered = cuTexObjectCreate(&bad_texture, &pitched_bytes, &filtered_integers, nullptr);
  say("linear filtering of bytes read as integers", filtered);
  if (filtered == CUDA_SUCCESS) {
    const unsigned char byte_row[8] = {0, 100, 200, 50, 255, 1, 2, 3};
    CHECK(cuMemsetD8(pitched, 0, pitch * height));
    CHECK(cuMemcpyHtoD(pitched, byte_row, sizeof(byte_row)));
    CUdeviceptr fetched = device_alloc(16 * sizeof(unsigned));
    int count = 16;
    float y = 0.5f;
    void* params[] = {&bad_texture, &fetched, &count, &y};
    launch(reinterpret_cast<const void*>(fetch_bytes_2d), 1, 16, params);
    unsigned values[16];
    CHECK(cuMemcpyDtoH(values, fetched, sizeof(values)));
    std::printf("filtered integer fetches at x = 0, 0.25, ...:");
    for (unsigned v : values) std::printf(" %u", v);
    std::printf("\n");
    CHECK(cuMemFree(fetched));
    CHECK(cuTexObjectDestroy(bad_texture));
  }

  CHECK(cuTexObjectDestroy(texture));
  say("texture destroyed again", cuTexObjectDestroy(texture));
  CHECK(cuTexObjectDestroy(float_texture));
  CHECK(cuTexObjectDestroy(integer_texture));
  CHECK(cuTexObjectDestroy(layered_texture));
  CHECK(cuTexObjectDestroy(pitch_texture));
  CHECK(cuSurfObjectDestroy(surface));
  CHECK(cuArrayDestroy(array2d));
  CHECK(cuArrayDestroy(layered));
  CHECK(cuArrayDestroy(layered_copy));
  CHECK(cuArrayDestroy(surface_array));
  CHECK(cuMemFree(samples));
  CHECK(cuMemFree(bytes));
  CHECK(cuMemFree(floats));
  CHECK(cuMemFree(integers));
  CHECK(cuMemFree(staging));
  CHECK(cuMemFree(layer_out));
  CHECK(cuMemFree(pitched));
  CHECK(cuDevicePrimaryCtxRelease(device));
  std::printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
