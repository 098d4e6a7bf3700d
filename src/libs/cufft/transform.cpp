// Transforms over FFTW's guru64 interface (transform.h). Every FFTW plan is made with
// FFTW_ESTIMATE, which picks an algorithm without running any: planning neither reads nor
// writes the arrays it is given, so it plans on reserved address space of the right extent,
// and a cuFFT plan can be made before its data exists, as on the GPU.
#include "libs/cufft/transform.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>

#include "libs/cufft/fftw_private.h"

namespace cucpu::cufft {
namespace {

// FFTW's planner is not thread-safe: every call that plans or destroys a plan, or touches
// wisdom, holds this lock (executing a plan needs none).
std::mutex& planner_mutex() {
  static std::mutex* mutex = new std::mutex;  // immortal: plans may be destroyed at exit
  return *mutex;
}

// FFTW's threads: a large transform is spread over the host's cores, as cuFFT spreads it
// over the GPU's SMs; a small one stays on the thread that runs it. Called with the
// planner's lock held, before each plan.
void plan_with_threads(const Shape& shape) {
  static const bool initialized = cucpu_fftwf_init_threads() && cucpu_fftw_init_threads();
  if (!initialized) return;
  static const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  long long elements = 1;
  for (const Axis& axis : shape.axes) elements *= axis.size;
  for (const Axis& batch : shape.batches) elements *= batch.size;
  int threads = elements >= (1 << 15) ? cores : 1;
  shape.precision == Precision::Single ? cucpu_fftwf_plan_with_nthreads(threads)
                                       : cucpu_fftw_plan_with_nthreads(threads);
}

size_t real_bytes(Precision precision) { return precision == Precision::Single ? sizeof(float) : sizeof(double); }

// The extent of one side: `complex_side` says whether that side holds complex elements and
// `half_last` whether its last transform axis is the half spectrum (size/2 + 1).
Extent extent_of(const Shape& shape, bool input, bool complex_side, bool half_last) {
  long long begin = 0, end = 0;
  auto add = [&](long long size, long long stride) {
    long long reach = (size - 1) * stride;
    (reach < 0 ? begin : end) += reach;
  };
  for (size_t k = 0; k < shape.axes.size(); ++k) {
    const Axis& axis = shape.axes[k];
    long long size = half_last && k + 1 == shape.axes.size() ? axis.size / 2 + 1 : axis.size;
    add(size, input ? axis.input_stride : axis.output_stride);
  }
  for (const Axis& batch : shape.batches) add(batch.size, input ? batch.input_stride : batch.output_stride);
  long long element = static_cast<long long>(real_bytes(shape.precision)) * (complex_side ? 2 : 1);
  return {begin * element, (end + 1) * element};
}

std::vector<fftw_iodim64> guru_dims(const std::vector<Axis>& axes) {
  std::vector<fftw_iodim64> dims;
  for (const Axis& axis : axes) dims.push_back({axis.size, axis.input_stride, axis.output_stride});
  return dims;
}

// Scratch memory that `pointer` addresses at offset `begin` (<= 0) of `bytes`, aligned.
struct Scratch {
  explicit Scratch(long long begin, long long bytes)
      : base(static_cast<char*>(allocate(static_cast<size_t>(bytes) + 64))) {
    if (base) pointer = base + (-begin + 63) / 64 * 64;
  }
  ~Scratch() { release(base); }
  char* base;
  char* pointer = nullptr;
};

// Addresses for FFTW_ESTIMATE to plan on: reserved, never backed (planning only compares
// and aligns them), so that a plan of any size can be made, as cuFFT makes one of 2^32
// elements before its data exists.
struct PlanningArray {
  explicit PlanningArray(long long begin, long long bytes) : bytes(static_cast<size_t>(bytes) + 4096) {
    void* reserved = mmap(nullptr, this->bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved == MAP_FAILED) return;
    base = static_cast<char*>(reserved);
    pointer = base + (-begin + 4095) / 4096 * 4096;
  }
  ~PlanningArray() {
    if (base) munmap(base, bytes);
  }
  size_t bytes;
  char* base = nullptr;
  char* pointer = nullptr;
};

}  // namespace

Transform::Transform(Shape shape)
    : shape_(std::move(shape)),
      input_extent_(extent_of(shape_, true, shape_.kind != Kind::RealToComplex, shape_.kind == Kind::ComplexToReal)),
      output_extent_(extent_of(shape_, false, shape_.kind != Kind::ComplexToReal, shape_.kind == Kind::RealToComplex)) {
}

Transform::~Transform() {
  std::lock_guard lock(planner_mutex());
  for (auto& plan : plans_) {
    void* fftw = plan.load();
    if (!fftw) continue;
    if (shape_.precision == Precision::Single)
      cucpu_fftwf_destroy_plan(static_cast<cucpu_fftwf_plan>(fftw));
    else
      cucpu_fftw_destroy_plan(static_cast<cucpu_fftw_plan>(fftw));
  }
}

bool Transform::prepare(bool in_place) {
  bool planned = true;
  for (int sign : {-1, 1}) {
    if ((shape_.kind == Kind::RealToComplex && sign > 0) || (shape_.kind == Kind::ComplexToReal && sign < 0)) continue;
    planned &= variant(in_place, sign, true) != nullptr;
  }
  return planned || in_place;  // where FFTW has no in-place plan, execute goes through a copy
}

void Transform::execute(void* in, void* out, int sign, bool preserve_input) const {
  if (shape_.kind != Kind::ComplexToComplex) sign = shape_.kind == Kind::RealToComplex ? -1 : 1;
  bool in_place = in == out;
  if (!(preserve_input && !in_place && shape_.kind == Kind::ComplexToReal)) {
    if (void* plan = variant(in_place, sign, aligned(in) && aligned(out))) {
      run(plan, in, out);
      return;
    }
  }
  // Through a copy of the input: FFTW has no in-place plan for this layout, or the input
  // must stay as it was. The out-of-place plan reads the copy and writes `out`.
  long long bytes = input_extent_.end - input_extent_.begin;
  Scratch copy(input_extent_.begin, bytes);
  if (!copy.base) return;
  std::memcpy(copy.pointer + input_extent_.begin, static_cast<char*>(in) + input_extent_.begin, bytes);
  if (void* plan = variant(false, sign, aligned(copy.pointer) && aligned(out))) run(plan, copy.pointer, out);
}

void* Transform::variant(bool in_place, int sign, bool aligned) const {
  int index = (in_place ? 4 : 0) + (sign > 0 ? 2 : 0) + (aligned ? 1 : 0);
  if (planned_[index].load(std::memory_order_acquire)) return plans_[index].load(std::memory_order_relaxed);
  std::lock_guard lock(planner_mutex());
  if (!planned_[index].load(std::memory_order_relaxed)) {
    plans_[index].store(plan_variant(in_place, sign, aligned), std::memory_order_relaxed);
    planned_[index].store(true, std::memory_order_release);
  }
  return plans_[index].load(std::memory_order_relaxed);
}

void* Transform::plan_variant(bool in_place, int sign, bool aligned) const {
  long long in_bytes = input_extent_.end - input_extent_.begin, out_bytes = output_extent_.end - output_extent_.begin;
  long long begin = std::min(input_extent_.begin, output_extent_.begin);
  PlanningArray input(in_place ? begin : input_extent_.begin,
                      in_place ? std::max(input_extent_.end, output_extent_.end) - begin : in_bytes);
  PlanningArray output(in_place ? 0 : output_extent_.begin, in_place ? 0 : out_bytes);
  if (!input.base || !output.base) return nullptr;
  void* in = input.pointer;
  void* out = in_place ? input.pointer : output.pointer;
  std::vector<fftw_iodim64> dims = guru_dims(shape_.axes), batches = guru_dims(shape_.batches);
  int rank = static_cast<int>(dims.size()), batch_rank = static_cast<int>(batches.size());
  unsigned flags = FFTW_ESTIMATE | (aligned ? 0 : FFTW_UNALIGNED);
  plan_with_threads(shape_);
  if (shape_.precision == Precision::Single) {
    switch (shape_.kind) {
      case Kind::ComplexToComplex:
        return cucpu_fftwf_plan_guru64_dft(rank, dims.data(), batch_rank, batches.data(),
                                           static_cast<fftwf_complex*>(in), static_cast<fftwf_complex*>(out), sign,
                                           flags);
      case Kind::RealToComplex:
        return cucpu_fftwf_plan_guru64_dft_r2c(rank, dims.data(), batch_rank, batches.data(), static_cast<float*>(in),
                                               static_cast<fftwf_complex*>(out), flags);
      case Kind::ComplexToReal:
        return cucpu_fftwf_plan_guru64_dft_c2r(rank, dims.data(), batch_rank, batches.data(),
                                               static_cast<fftwf_complex*>(in), static_cast<float*>(out), flags);
    }
  }
  switch (shape_.kind) {
    case Kind::ComplexToComplex:
      return cucpu_fftw_plan_guru64_dft(rank, dims.data(), batch_rank, batches.data(), static_cast<fftw_complex*>(in),
                                        static_cast<fftw_complex*>(out), sign, flags);
    case Kind::RealToComplex:
      return cucpu_fftw_plan_guru64_dft_r2c(rank, dims.data(), batch_rank, batches.data(), static_cast<double*>(in),
                                            static_cast<fftw_complex*>(out), flags);
    case Kind::ComplexToReal:
      return cucpu_fftw_plan_guru64_dft_c2r(rank, dims.data(), batch_rank, batches.data(),
                                            static_cast<fftw_complex*>(in), static_cast<double*>(out), flags);
  }
  return nullptr;
}

void Transform::run(void* plan, void* in, void* out) const {
  if (shape_.precision == Precision::Single) {
    auto fftw = static_cast<cucpu_fftwf_plan>(plan);
    switch (shape_.kind) {
      case Kind::ComplexToComplex:
        return cucpu_fftwf_execute_dft(fftw, static_cast<fftwf_complex*>(in), static_cast<fftwf_complex*>(out));
      case Kind::RealToComplex:
        return cucpu_fftwf_execute_dft_r2c(fftw, static_cast<float*>(in), static_cast<fftwf_complex*>(out));
      case Kind::ComplexToReal:
        return cucpu_fftwf_execute_dft_c2r(fftw, static_cast<fftwf_complex*>(in), static_cast<float*>(out));
    }
  }
  auto fftw = static_cast<cucpu_fftw_plan>(plan);
  switch (shape_.kind) {
    case Kind::ComplexToComplex:
      return cucpu_fftw_execute_dft(fftw, static_cast<fftw_complex*>(in), static_cast<fftw_complex*>(out));
    case Kind::RealToComplex:
      return cucpu_fftw_execute_dft_r2c(fftw, static_cast<double*>(in), static_cast<fftw_complex*>(out));
    case Kind::ComplexToReal:
      return cucpu_fftw_execute_dft_c2r(fftw, static_cast<fftw_complex*>(in), static_cast<double*>(out));
  }
}

// FFTW's new-array execution wants arrays aligned as the planned ones were: the aligned
// variants are planned on FFTW's own allocations, which its alignment test passes.
bool Transform::aligned(const void* pointer) const {
  void* p = const_cast<void*>(pointer);
  return shape_.precision == Precision::Single ? cucpu_fftwf_alignment_of(static_cast<float*>(p)) == 0
                                               : cucpu_fftw_alignment_of(static_cast<double*>(p)) == 0;
}

void Transform::flops(double* adds, double* multiplications, double* fmas) const {
  *adds = *multiplications = *fmas = 0;
  void* plan = variant(false, shape_.kind == Kind::ComplexToReal ? 1 : -1, true);
  if (!plan) return;
  if (shape_.precision == Precision::Single)
    cucpu_fftwf_flops(static_cast<cucpu_fftwf_plan>(plan), adds, multiplications, fmas);
  else
    cucpu_fftw_flops(static_cast<cucpu_fftw_plan>(plan), adds, multiplications, fmas);
}

double Transform::cost() const {
  void* plan = variant(false, shape_.kind == Kind::ComplexToReal ? 1 : -1, true);
  if (!plan) return 0;
  return shape_.precision == Precision::Single ? cucpu_fftwf_cost(static_cast<cucpu_fftwf_plan>(plan))
                                               : cucpu_fftw_cost(static_cast<cucpu_fftw_plan>(plan));
}

void Transform::print(FILE* file) const {
  void* plan = variant(false, shape_.kind == Kind::ComplexToReal ? 1 : -1, true);
  if (!plan) return;
  if (shape_.precision == Precision::Single)
    cucpu_fftwf_fprint_plan(static_cast<cucpu_fftwf_plan>(plan), file);
  else
    cucpu_fftw_fprint_plan(static_cast<cucpu_fftw_plan>(plan), file);
}

void* allocate(size_t bytes) { return cucpu_fftw_malloc(bytes); }

void release(void* pointer) {
  if (pointer) cucpu_fftw_free(pointer);
}

void export_wisdom(FILE* file, bool single) {
  std::lock_guard lock(planner_mutex());
  single ? cucpu_fftwf_export_wisdom_to_file(file) : cucpu_fftw_export_wisdom_to_file(file);
}

int import_wisdom(FILE* file, bool single) {
  std::lock_guard lock(planner_mutex());
  return single ? cucpu_fftwf_import_wisdom_from_file(file) : cucpu_fftw_import_wisdom_from_file(file);
}

void forget_wisdom(bool single) {
  std::lock_guard lock(planner_mutex());
  single ? cucpu_fftwf_forget_wisdom() : cucpu_fftw_forget_wisdom();
}

}  // namespace cucpu::cufft
