// One FFT over FFTW, as cuFFT's plans and cuFFTW's plans both describe it: a shape (the
// transform's axes and the batch axes, each with its input and output stride in elements)
// planned with FFTW's guru interface and run on whatever arrays a call gives, with FFTW's
// new-array execute functions. FFTW plans for a given placement (in place or not),
// direction and alignment: a Transform keeps one FFTW plan per combination, the common
// ones planned when the Transform is prepared, any other the first time it is needed, so
// that no execution after the first of its kind plans anything.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <vector>

namespace cucpu::cufft {

enum class Precision { Single, Double };
enum class Kind { ComplexToComplex, RealToComplex, ComplexToReal };

// An axis: `size` elements, `input_stride` apart in the input and `output_stride` in the
// output, counted in that side's elements (real or complex). A transform axis's size is the
// logical, real size; along the last one the complex side of R2C/C2R has size/2 + 1.
struct Axis {
  long long size;
  long long input_stride;
  long long output_stride;
};

struct Shape {
  Precision precision = Precision::Single;
  Kind kind = Kind::ComplexToComplex;
  std::vector<Axis> axes;     // the transform's, outermost first
  std::vector<Axis> batches;  // the transforms it repeats over (cuFFT: one axis, the batch)
};

// The memory one side of a shape touches, in bytes from the array's pointer (begin <= 0
// only where a stride is negative, which cuFFTW's guru plans allow).
struct Extent {
  long long begin;
  long long end;
};

class Transform {
 public:
  explicit Transform(Shape shape);
  ~Transform();
  Transform(const Transform&) = delete;
  Transform& operator=(const Transform&) = delete;

  const Shape& shape() const { return shape_; }
  Extent input_extent() const { return input_extent_; }
  Extent output_extent() const { return output_extent_; }

  // Plans the variants an aligned in-place (or out-of-place) execution needs, for every
  // direction the kind has. False where FFTW cannot plan this shape out of place.
  bool prepare(bool in_place);

  // Runs the transform from `in` to `out` (in place where they are equal). `sign` is the
  // direction of a C2C transform (-1 forward, +1 inverse); R2C is always forward and C2R
  // always inverse. With `preserve_input`, an out-of-place C2R leaves its input as it was
  // (FFTW's would overwrite it). Thread-safe: a Transform may run on many arrays at once.
  void execute(void* in, void* out, int sign, bool preserve_input = false) const;

  // What FFTW says of the plan of an aligned out-of-place forward execution (cuFFTW's
  // fftw_flops, fftw_cost, fftw_print_plan).
  void flops(double* adds, double* multiplications, double* fmas) const;
  double cost() const;
  void print(FILE* file) const;

 private:
  // The FFTW plan of one variant, planned the first time it is asked for; null where FFTW
  // cannot plan it.
  void* variant(bool in_place, int sign, bool aligned) const;
  void* plan_variant(bool in_place, int sign, bool aligned) const;
  void run(void* plan, void* in, void* out) const;
  bool aligned(const void* pointer) const;

  Shape shape_;
  Extent input_extent_, output_extent_;
  static constexpr int variants = 8;  // in place or not, forward or inverse, aligned or not
  mutable std::array<std::atomic<void*>, variants> plans_{};
  mutable std::array<std::atomic<bool>, variants> planned_{};
};

// FFTW's aligned allocation (cuFFTW's fftw_malloc and fftw_free).
void* allocate(size_t bytes);
void release(void* pointer);

// FFTW's wisdom (cuFFTW's functions of that name); `single` picks the precision.
void export_wisdom(FILE* file, bool single);
int import_wisdom(FILE* file, bool single);
void forget_wisdom(bool single);

}  // namespace cucpu::cufft
