// Link images (link_image.h).
#include "core/link_image.h"

#include <cctype>
#include <cstdint>
#include <cstring>

#include "ptx/link.h"
#include "ptx/parse.h"

namespace cucpu::core {
namespace {

constexpr char kMagic[8] = {'C', 'U', 'C', 'P', 'U', 'L', 'N', 'K'};

template <typename T>
void append(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

}  // namespace

bool looks_like_ptx(const char* text) {
  for (const char* p = text;;) {
    while (std::isspace(static_cast<unsigned char>(*p))) ++p;
    if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n') ++p;
    } else if (p[0] == '/' && p[1] == '*') {
      const char* end = std::strstr(p + 2, "*/");
      if (!end) return false;
      p = end + 2;
    } else {
      return *p == '.';
    }
  }
}

Result<void> check_link_input(const std::string& text) {
  if (!looks_like_ptx(text.c_str())) return make_error(ErrorCode::InvalidImage, "a link input that is not PTX");
  if (auto module = ptx::parse(text, "ptx (link input)"); !module) return module.error();
  return {};
}

Result<std::string> make_link_image(const std::vector<std::string>& units) {
  if (units.empty()) return make_error(ErrorCode::InvalidValue, "nothing was added to the link");
  std::vector<ptx::Module> modules;
  for (size_t i = 0; i < units.size(); ++i) {
    auto module = ptx::parse(units[i], "ptx (link input " + std::to_string(i) + ")");
    if (!module) return module.error();
    modules.push_back(std::move(*module));
  }
  if (auto linked = ptx::link_modules(std::move(modules)); !linked) return linked.error();
  std::string image(kMagic, sizeof kMagic);
  append(image, static_cast<uint32_t>(units.size()));
  for (const std::string& unit : units) {
    append(image, static_cast<uint64_t>(unit.size()));
    image += unit;
  }
  return image;
}

std::optional<std::vector<std::string>> read_link_image(const void* image) {
  const auto* bytes = static_cast<const char*>(image);
  if (std::memcmp(bytes, kMagic, sizeof kMagic) != 0) return std::nullopt;
  uint32_t count = 0;
  std::memcpy(&count, bytes + sizeof kMagic, sizeof count);
  std::vector<std::string> units;
  const char* at = bytes + sizeof kMagic + sizeof count;
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t size = 0;
    std::memcpy(&size, at, sizeof size);
    at += sizeof size;
    units.emplace_back(at, size);
    at += size;
  }
  return units;
}

}  // namespace cucpu::core
