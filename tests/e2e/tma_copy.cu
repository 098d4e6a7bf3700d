// Tensor memory access (TMA) on sm_90: a tensor map made by cuTensorMapEncodeTiled (reached
// through cudaGetDriverEntryPointByVersion, as programs without -lcuda do), boxes loaded
// with cp.async.bulk.tensor (2D and 3D, out of bounds, element strides, the swizzle modes,
// the NaN fill), stored back and reduced into global memory; last a box start the GPU
// refuses. Prints what shared memory and global memory hold afterwards: deterministic
// lines only.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

// cudaGetDriverEntryPoint is deprecated in CUDA 13 but still exported: the test calls it too.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
static EncodeTiled encode_tiled;

constexpr int kSharedBytes = 8192;
enum Mode { kLoad, kStore, kReduceAdd };

struct Coords {
  int c[5];
};

__device__ void issue_load(const CUtensorMap* map, int rank, Coords at, uint32_t dst, uint32_t bar) {
  const int* c = at.c;
  switch (rank) {
    case 1:
      asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                   :: "r"(dst), "l"(map), "r"(c[0]), "r"(bar) : "memory");
      break;
    case 2:
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(bar) : "memory");
      break;
    case 3:
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                   :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar) : "memory");
      break;
    case 4:
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                   :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar) : "memory");
      break;
    default:
      asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                   :: "r"(dst), "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar) : "memory");
  }
}

__device__ void issue_store(const CUtensorMap* map, int rank, Coords at, uint32_t src, Mode mode) {
  const int* c = at.c;
  if (mode == kReduceAdd) {
    if (rank == 2)
      asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
                   :: "l"(map), "r"(c[0]), "r"(c[1]), "r"(src) : "memory");
    return;
  }
  switch (rank) {
    case 2:
      asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                   :: "l"(map), "r"(c[0]), "r"(c[1]), "r"(src) : "memory");
      break;
    case 3:
      asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];"
                   :: "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(src) : "memory");
      break;
  }
}

// Load: shared memory is first filled with 0xEE bytes, the box loaded, and `bytes` bytes of
// shared memory copied to `out` (with whether the mbarrier's phase completed). Store /
// reduce: `bytes` bytes of `in` go to shared memory and the box to the tensor.
__global__ void tma_kernel(const __grid_constant__ CUtensorMap map, int rank, Coords at, Mode mode,
                           uint32_t tx_bytes, uint32_t bytes, const unsigned char* in, unsigned char* out) {
  __shared__ alignas(1024) unsigned char box[kSharedBytes];
  __shared__ uint64_t bar;
  const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(box));
  const uint32_t bar_address = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  for (uint32_t i = threadIdx.x; i < kSharedBytes; i += blockDim.x) box[i] = mode == kLoad ? 0xEE : in[i % bytes];
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar_address));
    asm volatile("fence.proxy.async.shared::cta;");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    if (mode == kLoad) {
      asm volatile("prefetch.tensormap [%0];" :: "l"(&map));
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar_address), "r"(tx_bytes));
      issue_load(&map, rank, at, dst, bar_address);
      uint32_t done = 0;
      for (int attempt = 0; attempt < (1 << 20) && !done; ++attempt) {
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(bar_address) : "memory");
      }
      if (!done) printf("the mbarrier's phase did not complete\n");
    } else {
      issue_store(&map, rank, at, dst, mode);
      asm volatile("cp.async.bulk.commit_group;");
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
  }
  __syncthreads();
  if (mode == kLoad)
    for (uint32_t i = threadIdx.x; i < bytes; i += blockDim.x) out[i] = box[i];
}

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", what, cudaGetErrorName(e));
    std::exit(1);
  }
}

struct Tensor {
  CUtensorMapDataType type;
  int rank;
  cuuint64_t dim[5];
  cuuint64_t stride[4];
  cuuint32_t box[5];
  cuuint32_t estride[5];
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapFloatOOBfill fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

static CUresult encode(CUtensorMap* map, const Tensor& t, void* address) {
  return encode_tiled(map, t.type, t.rank, address, t.dim, t.stride, t.box, t.estride, CU_TENSOR_MAP_INTERLEAVE_NONE,
                      t.swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE, t.fill);
}

// Loads the box at `at` and returns shared memory's first `bytes` bytes.
static std::vector<unsigned char> load_box(const Tensor& t, void* tensor, Coords at, uint32_t tx, uint32_t bytes) {
  alignas(64) CUtensorMap map;
  CUresult r = encode(&map, t, tensor);
  if (r != CUDA_SUCCESS) {
    std::printf("encode failed: %d\n", static_cast<int>(r));
    std::exit(1);
  }
  unsigned char* out;
  check(cudaMalloc(&out, bytes), "cudaMalloc");
  tma_kernel<<<1, 128>>>(map, t.rank, at, kLoad, tx, bytes, nullptr, out);
  check(cudaDeviceSynchronize(), "load kernel");
  std::vector<unsigned char> host(bytes);
  check(cudaMemcpy(host.data(), out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(out);
  return host;
}

static void print_floats(const char* title, const std::vector<unsigned char>& bytes, int per_row) {
  std::printf("%s\n", title);
  const size_t n = bytes.size() / 4;
  for (size_t i = 0; i < n; ++i) {
    float v;
    std::memcpy(&v, &bytes[i * 4], 4);
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    if (bits == 0xEEEEEEEEu) std::printf(" ----");
    else if (v != v) std::printf(" nan:%08x", bits);
    else std::printf(" %4g", v);
    if ((i + 1) % per_row == 0) std::printf("\n");
  }
}

// A float tensor whose element (x, y, z) holds z * 10000 + y * 100 + x.
static float* make_float_tensor(int nx, int ny, int nz, size_t pitch_floats) {
  std::vector<float> host(pitch_floats * ny * nz, -1.0f);
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) host[(z * ny + y) * pitch_floats + x] = z * 10000 + y * 100 + x;
  float* device;
  check(cudaMalloc(&device, host.size() * 4), "cudaMalloc");
  check(cudaMemcpy(device, host.data(), host.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
  return device;
}

static void encode_checks(float* tensor) {
  std::printf("== cuTensorMapEncodeTiled argument checks ==\n");
  alignas(64) CUtensorMap map;
  const Tensor good{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, {40, 24}, {160}, {16, 8}, {1, 1}};
  auto run = [&](const char* what, Tensor t, void* address) {
    std::printf("%-40s %d\n", what, static_cast<int>(encode(&map, t, address)));
  };
  run("valid", good, tensor);
  Tensor t = good;
  t.rank = 0;
  run("rank 0", t, tensor);
  t = good;
  t.rank = 6;
  run("rank 6", t, tensor);
  run("address 8 bytes off", good, reinterpret_cast<char*>(tensor) + 8);
  t = good;
  t.stride[0] = 168;
  run("stride 168", t, tensor);
  t = good;
  t.stride[0] = 1ull << 40;
  run("stride 2^40", t, tensor);
  t = good;
  t.dim[0] = 0;
  run("globalDim 0", t, tensor);
  t = good;
  t.box[1] = 257;
  run("boxDim 257", t, tensor);
  t = good;
  t.box[0] = 6;
  run("boxDim[0] 6 floats (24 bytes)", t, tensor);
  t = good;
  t.estride[1] = 9;
  run("elementStrides 9", t, tensor);
  t = good;
  t.estride[1] = 0;
  run("elementStrides 0", t, tensor);
  t = good;
  t.swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
  run("64-byte box row, 32B swizzle", t, tensor);
  t = good;
  t.swizzle = CU_TENSOR_MAP_SWIZZLE_64B;
  run("64-byte box row, 64B swizzle", t, tensor);
  t = good;
  t.type = CU_TENSOR_MAP_DATA_TYPE_INT32;
  t.fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
  run("NaN fill on int32", t, tensor);
  t = good;
  t.swizzle = static_cast<CUtensorMapSwizzle>(99);
  run("swizzle 99", t, tensor);
  std::printf("%-40s %d\n", "tensorMap NULL (call)",
              static_cast<int>(encode_tiled(nullptr, good.type, 2, tensor, good.dim, good.stride, good.box,
                                            good.estride, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                            CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)));
}

int main() {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found;
  check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found),
        "cudaGetDriverEntryPointByVersion");
  std::printf("cuTensorMapEncodeTiled: status %d, %s\n", static_cast<int>(found), function ? "found" : "NULL");
  if (!function) return 1;
  encode_tiled = reinterpret_cast<EncodeTiled>(function);
  void* missing = reinterpret_cast<void*>(1);
  cudaError_t e = cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &missing, 12000, cudaEnableDefault, &found);
  std::printf("cuNoSuchFunction: %s, status %d, %s\n", cudaGetErrorName(e), static_cast<int>(found),
              missing ? "not NULL" : "NULL");
  void* error_string = nullptr;
  e = cudaGetDriverEntryPoint("cuGetErrorString", &error_string, cudaEnableDefault, &found);
  std::printf("cuGetErrorString: %s, status %d\n", cudaGetErrorName(e), static_cast<int>(found));
  if (error_string) {
    const char* text = nullptr;
    reinterpret_cast<CUresult (*)(CUresult, const char**)>(error_string)(CUDA_ERROR_INVALID_VALUE, &text);
    std::printf("CUDA_ERROR_INVALID_VALUE: %s\n", text ? text : "(null)");
  }

  // A 40 x 24 x 3 float tensor, rows padded to 48 floats (192 bytes).
  float* tensor = make_float_tensor(40, 24, 3, 48);
  encode_checks(tensor);

  std::printf("== 2D box 16x8 at (32, 20): right and bottom out of bounds ==\n");
  Tensor t2{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, {40, 24}, {192}, {16, 8}, {1, 1}};
  print_floats("box", load_box(t2, tensor, {{32, 20}}, 16 * 8 * 4, 16 * 8 * 4), 16);
  std::printf("== 2D box 8x4 at (-4, -2): left and top out of bounds ==\n");
  Tensor t2b{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, {40, 24}, {192}, {8, 4}, {1, 1}};
  print_floats("box", load_box(t2b, tensor, {{-4, -2}}, 8 * 4 * 4, 8 * 4 * 4 + 32), 8);
  std::printf("== 2D box entirely outside ==\n");
  print_floats("box", load_box(t2b, tensor, {{100, 0}}, 8 * 4 * 4, 8 * 4 * 4), 8);

  std::printf("== 3D box 8x4x2 at (36, 1, 2), element strides (1, 2, 1) ==\n");
  Tensor t3{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, {40, 24, 3}, {192, 192 * 24}, {8, 4, 2}, {1, 2, 1}};
  print_floats("box", load_box(t3, tensor, {{36, 1, 2}}, 8 * 2 * 2 * 4, 8 * 2 * 2 * 4), 8);
  std::printf("== 3D box 4x3x2 at (0, 22, 0), element strides (2, 3, 1): dimension 0's is ignored ==\n");
  Tensor t3b{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, {40, 24, 3}, {192, 192 * 24}, {4, 3, 2}, {2, 3, 1}};
  print_floats("box", load_box(t3b, tensor, {{0, 22, 0}}, 4 * 1 * 2 * 4, 4 * 1 * 2 * 4 + 16), 4);

  std::printf("== 1D, 4D, 5D boxes ==\n");
  Tensor t1{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, {40}, {}, {8}, {1}};
  print_floats("1d at 36", load_box(t1, tensor, {{36}}, 32, 32), 8);
  // The same tensor seen as x, y mod 4, y / 4, z (4D) and x mod 4, x / 4, y mod 4, y / 4, z (5D),
  // strides growing with the dimension.
  Tensor t4{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, {8, 4, 6, 3}, {192, 768, 192 * 24}, {4, 2, 2, 2}, {1, 1, 1, 1}};
  print_floats("4d at (4, 0, 5, 1)", load_box(t4, tensor, {{4, 0, 5, 1}}, 128, 128), 4);
  Tensor t5{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 5, {4, 2, 4, 6, 3}, {16, 192, 768, 192 * 24}, {4, 2, 2, 1, 2},
            {1, 1, 1, 1, 1}};
  print_floats("5d at (0, 1, 2, 5, 2)", load_box(t5, tensor, {{0, 1, 2, 5, 2}}, 128, 128), 4);

  std::printf("== OOB fill NaN ==\n");
  Tensor tn = t2b;
  tn.fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
  print_floats("box at (36, 22)", load_box(tn, tensor, {{36, 22}}, 128, 128), 8);

  const CUtensorMapSwizzle swizzles[] = {CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B,
                                         CU_TENSOR_MAP_SWIZZLE_128B};
  const unsigned spans[] = {32, 64, 128};
  for (int s = 0; s < 3; ++s) {
    std::printf("== swizzle %uB: box %ux8 floats at (4, 3) ==\n", spans[s], spans[s] / 4);
    Tensor ts{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, {40, 24}, {192}, {spans[s] / 4, 8}, {1, 1}, swizzles[s]};
    print_floats("shared memory", load_box(ts, tensor, {{4, 3}}, spans[s] * 8, spans[s] * 8), spans[s] / 4);
  }
  std::printf("== swizzle 128B with a 64-byte box row: box 16x16 floats at (0, 0) ==\n");
  Tensor tsh{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, {40, 24}, {192}, {16, 16}, {1, 1}, CU_TENSOR_MAP_SWIZZLE_128B};
  print_floats("shared memory", load_box(tsh, tensor, {{0, 0}}, 1024, 1024 + 64), 16);

  std::printf("== store: box 16x4 of 1000 + i at (28, 22) into a 40x24 tensor of -1 ==\n");
  std::vector<float> minus(40 * 24, -1.0f);
  float* target;
  check(cudaMalloc(&target, minus.size() * 4), "cudaMalloc");
  check(cudaMemcpy(target, minus.data(), minus.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
  std::vector<float> box(16 * 4);
  for (size_t i = 0; i < box.size(); ++i) box[i] = 1000.0f + i;
  unsigned char* in;
  check(cudaMalloc(&in, box.size() * 4), "cudaMalloc");
  check(cudaMemcpy(in, box.data(), box.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
  alignas(64) CUtensorMap map;
  Tensor tt{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, {40, 24}, {160}, {16, 4}, {1, 1}};
  if (encode(&map, tt, target) != CUDA_SUCCESS) return 1;
  tma_kernel<<<1, 128>>>(map, 2, {{28, 22}}, kStore, 0, box.size() * 4, in, nullptr);
  check(cudaDeviceSynchronize(), "store kernel");
  std::vector<unsigned char> result(minus.size() * 4);
  check(cudaMemcpy(result.data(), target, result.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  print_floats("rows 20..23", std::vector<unsigned char>(result.begin() + 20 * 160, result.end()), 40);

  std::printf("== reduce add: the same box added again at (28, 21) ==\n");
  tma_kernel<<<1, 128>>>(map, 2, {{28, 21}}, kReduceAdd, 0, box.size() * 4, in, nullptr);
  check(cudaDeviceSynchronize(), "reduce kernel");
  check(cudaMemcpy(result.data(), target, result.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  print_floats("rows 20..23", std::vector<unsigned char>(result.begin() + 20 * 160, result.end()), 40);
  // Last, as it breaks the context: the H100 refuses a load whose box does not start on a
  // 16-byte boundary (x = 6 floats here) with cudaErrorIllegalInstruction; load_box exits.
  std::printf("== misaligned box start: 2D box 4x2 at (6, 0) ==\n");
  Tensor tm{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, {40, 24}, {192}, {4, 2}, {1, 1}};
  print_floats("box", load_box(tm, tensor, {{6, 0}}, 32, 32), 4);
  std::printf("done\n");
  return 0;
}
