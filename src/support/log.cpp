// Category-filtered debug log on stderr, configured once from CUCPU_DEBUG.
#include "support/log.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cucpu::log {
namespace {

constexpr struct {
  const char* name;
  Category category;
} kCategories[] = {{"api", Category::Api}, {"fatbin", Category::Fatbin}, {"ptx", Category::Ptx},
                   {"jit", Category::Jit}, {"exec", Category::Exec},     {"core", Category::Core}};

unsigned parse_mask() {
  const char* env = std::getenv("CUCPU_DEBUG");
  if (!env) return 0;
  std::string spec = env;
  if (spec == "all" || spec == "1") return ~0u;
  unsigned mask = 0;
  for (const auto& entry : kCategories)
    if (spec.find(entry.name) != std::string::npos) mask |= static_cast<unsigned>(entry.category);
  return mask;
}

const char* name_of(Category category) {
  for (const auto& entry : kCategories)
    if (entry.category == category) return entry.name;
  return "?";
}

}  // namespace

bool enabled(Category category) {
  static const unsigned mask = parse_mask();
  return (mask & static_cast<unsigned>(category)) != 0;
}

void write(Category category, std::string_view message) {
  std::fprintf(stderr, "cucpu[%s]: %.*s\n", name_of(category), static_cast<int>(message.size()), message.data());
}

}  // namespace cucpu::log
