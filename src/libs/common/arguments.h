// What the math libraries' entry points share about their arguments: the first one that
// breaks its requirement (the libraries report bad arguments by position, as BLAS and
// LAPACK do), and the device memory a matrix, vector or array spans.
#pragma once

#include <cstddef>
#include <initializer_list>

#include "libs/common/stream_work.h"

namespace cucpu::libs {

struct Requirement {
  bool holds;
  int position;  // the argument's place in the entry point's parameter list (the handle is 0)
};

// The position of the first requirement broken, in parameter order, or 0.
inline int first_broken(std::initializer_list<Requirement> requirements) {
  for (const Requirement& requirement : requirements)
    if (!requirement.holds) return requirement.position;
  return 0;
}

// The bytes a column-major rows x columns matrix with leading dimension ld spans.
inline DeviceRange matrix_range(const void* base, long rows, long columns, long ld, size_t element) {
  if (rows <= 0 || columns <= 0) return {base, 0};
  return {base, static_cast<size_t>((columns - 1) * ld + rows) * element};
}

// The bytes n elements spaced `increment` apart span (BLAS: a negative increment walks the
// same memory backwards).
inline DeviceRange vector_range(const void* base, long n, long increment, size_t element) {
  if (n <= 0) return {base, 0};
  long step = increment < 0 ? -increment : increment;
  return {base, static_cast<size_t>((n - 1) * step + 1) * element};
}

inline DeviceRange array_range(const void* base, long count, size_t element) {
  return {base, count > 0 ? static_cast<size_t>(count) * element : 0};
}

}  // namespace cucpu::libs
