// curandGeneratePoisson's tables and curandCreatePoissonDistribution, as NVIDIA's libcurand
// makes them (found from its host generator, the libm calls it makes and the table it builds,
// and checked against the H200). Below lambda 2000 (for MTGP32 and Sobol32 up to 8000) a table
// covers every k whose probability exp((k log lambda - lambda) - (log 1 + .. + log k)) is not 0
// as a double, from the first such k (the shift) to the last, and each result takes one value x
// of the generator, in the order of its 32-bit values, and u = _curand_uniform_double(x):
// either the square histogram of Marsaglia, Tsang and Wang (curand_discrete2.h's M2 method,
// _curand_M2_double) or, for the Sobol generators and MTGP32 from a lambda of their own on
// (generator_api.cpp), a binary search of the cumulative probabilities
// (_curand_binary_search_double). Above, the counts are rounded normals (generator_api.cpp,
// transforms.cpp).
#include <cuda.h>

#include <cmath>
#include <cstring>
#include <map>
#include <mutex>

#include "libs/common/stream_work.h"
#include "libs/curand/device_api.h"
#include "libs/curand/generator.h"

namespace cucpu::curand {
namespace {

// The probabilities from the first nonzero one to the last, as NVIDIA's host code sums them.
std::vector<double> poisson_probabilities(double lambda, unsigned& shift) {
  std::vector<double> p;
  double log_lambda = std::log(lambda), log_factorial = 0;
  shift = 0;
  for (unsigned k = 0;; ++k) {
    if (k > 0) log_factorial += std::log(double(k));
    double probability = std::exp((k * log_lambda - lambda) - log_factorial);
    if (probability == 0) {
      if (!p.empty()) return p;
      shift = k + 1;
      continue;
    }
    p.push_back(probability);
  }
}

}  // namespace

std::shared_ptr<const PoissonTable> make_poisson_table(double lambda, bool search) {
  auto table = std::make_shared<PoissonTable>();
  std::vector<double> p = poisson_probabilities(lambda, table->shift);
  size_t n = p.size();
  table->length = unsigned(n);
  table->search = search;
  if (search) {
    double sum = 0;
    for (double probability : p) table->cdf.push_back(sum += probability);
    return table;
  }
  double a = 1.0 / double(n);  // each cell's share
  // One cell more, zero, as NVIDIA's: a value whose uniform is 1 lands there.
  table->V.assign(n + 1, 0.0);
  table->K.assign(n + 1, 0);
  // Robin Hood as NVIDIA's builds it: the cells with less than a share are filled in index
  // order, pass after pass, each from the highest-numbered cell that still has a share or
  // more; a donor left with less than a share waits for a later pass when it is behind.
  std::vector<size_t> donors;
  for (size_t i = 0; i < n; ++i) {
    table->K[i] = unsigned(i);
    table->V[i] = double(i + 1) * a;
    if (p[i] >= a) donors.push_back(i);
  }
  std::vector<bool> filled(n);
  for (bool changed = true; changed && !donors.empty();) {
    changed = false;
    for (size_t s = 0; s < n && !donors.empty(); ++s) {
      if (filled[s] || p[s] >= a) continue;
      size_t donor = donors.back();
      table->K[s] = unsigned(donor);
      table->V[s] = double(s) * a + p[s];
      p[donor] = p[donor] - (a - p[s]);
      filled[s] = true;
      changed = true;
      if (p[donor] < a) donors.pop_back();
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (!filled[i]) table->V[i] = double(i) * a + p[i];
  return table;
}

// _curand_M2_double and _curand_binary_search_double (curand_poisson.h): the same IEEE
// operations on the GPU and the host, so a device generator's counts are made here as well.
unsigned poisson_count(const PoissonTable& table, double u) {
  if (table.search) {
    int min = 0, max = int(table.length) - 1;
    do {
      int mid = (max + min) / 2;
      if (u <= table.cdf[mid])
        max = mid;
      else
        min = mid + 1;
    } while (min < max);
    return table.shift + unsigned(min);
  }
  unsigned j = unsigned(std::floor(double(table.length) * u));
  return table.shift + (u < table.V[j] ? j : table.K[j]);
}

namespace {

// What a curandCreatePoissonDistribution made: device memory laid out as NVIDIA's (each
// structure in device memory, with host copies its host_ pointers name), released together.
struct Distribution {
  std::vector<CUdeviceptr> device;
  std::vector<std::unique_ptr<unsigned char[]>> host;
};

std::mutex distributions_mutex;
std::map<curandDiscreteDistribution_t, Distribution>& distributions() {
  static auto* made = new std::map<curandDiscreteDistribution_t, Distribution>;
  return *made;
}

// A copy of `bytes` at `data` in device memory and one in host memory.
template <typename T>
bool place(Distribution& d, const T* data, size_t count, T** device, T** host) {
  size_t bytes = count * sizeof(T);
  CUdeviceptr pointer = 0;
  if (cuMemAlloc(&pointer, bytes) != CUDA_SUCCESS) return false;
  d.device.push_back(pointer);
  if (cuMemcpyHtoD(pointer, data, bytes) != CUDA_SUCCESS) return false;
  d.host.push_back(std::make_unique<unsigned char[]>(bytes));
  std::memcpy(d.host.back().get(), data, bytes);
  *device = reinterpret_cast<T*>(pointer);
  *host = reinterpret_cast<T*>(d.host.back().get());
  return true;
}

void release(Distribution& d) {
  for (CUdeviceptr pointer : d.device) cuMemFree(pointer);
}

}  // namespace

}  // namespace cucpu::curand

using cucpu::curand::Distribution;

extern "C" {

// NVIDIA's: below lambda 2000 the square histogram (method CURAND_M2, mean and stddev 0),
// from 2000 on no table (method 7, the Gaussian approximation, mean lambda and stddev
// sqrt(lambda)); host_gen 0 throughout.
curandStatus_t CURANDAPI curandCreatePoissonDistribution(double lambda,
                                                         curandDiscreteDistribution_t* discrete_distribution) {
  if (!discrete_distribution) return CURAND_STATUS_OUT_OF_RANGE;
  if (!(lambda > 0)) return CURAND_STATUS_OUT_OF_RANGE;
  if (auto ready = cucpu::libs::prepare_device(); !ready) return CURAND_STATUS_INITIALIZATION_FAILED;
  Distribution d;
  curandDiscreteDistribution_st top{};
  bool placed = true;
  if (lambda < cucpu::curand::poisson_table_limit) {
    auto table = cucpu::curand::make_poisson_table(lambda, false);
    curandHistogramM2_st histogram{};
    placed = place(d, table->V.data(), table->V.size(), &histogram.V, &histogram.host_V) &&
             place(d, table->K.data(), table->K.size(), &histogram.K, &histogram.host_K);
    curandDistributionM2Shift_st m2{};
    m2.shift = table->shift;
    m2.length = table->length;
    placed =
        placed && place(d, &histogram, 1, &m2.histogram, &m2.host_histogram) && place(d, &m2, 1, &top.M2, &top.host_M2);
    top.method = CURAND_M2;
  } else {
    top.stddev = std::sqrt(lambda);
    top.mean = lambda;
    top.method = curandMethod_t(7);  // CURAND_DISCRETE_GAUSS
  }
  curandDiscreteDistribution_t device = nullptr;
  placed = placed && place(d, &top, 1, &device, &top.self_host_ptr);
  if (placed) {
    // The host copy names itself, as the device one does.
    std::memcpy(top.self_host_ptr, &top, sizeof top);
    placed = cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(device), &top, sizeof top) == CUDA_SUCCESS;
  }
  if (!placed) {
    cucpu::curand::release(d);
    return CURAND_STATUS_ALLOCATION_FAILED;
  }
  std::lock_guard lock(cucpu::curand::distributions_mutex);
  cucpu::curand::distributions().emplace(device, std::move(d));
  *discrete_distribution = device;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandDestroyDistribution(curandDiscreteDistribution_t discrete_distribution) {
  std::lock_guard lock(cucpu::curand::distributions_mutex);
  auto it = cucpu::curand::distributions().find(discrete_distribution);
  if (it == cucpu::curand::distributions().end()) return CURAND_STATUS_NOT_INITIALIZED;
  cucpu::curand::release(it->second);
  cucpu::curand::distributions().erase(it);
  return CURAND_STATUS_SUCCESS;
}

}  // extern "C"
