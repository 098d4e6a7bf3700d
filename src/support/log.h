// Debug logging by category: CUCPU_DEBUG=api,jit,exec (or "all") turns categories on.
// Off by default and cheap when off: one relaxed load per call site.
#pragma once

#include <fmt/format.h>

#include <string_view>

namespace cucpu::log {

enum class Category : unsigned { Api = 1, Fatbin = 2, Ptx = 4, Jit = 8, Exec = 16, Core = 32 };

bool enabled(Category category);
void write(Category category, std::string_view message);

template <typename... Args>
void debug(Category category, fmt::format_string<Args...> format, Args&&... args) {
  if (enabled(category)) write(category, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace cucpu::log
