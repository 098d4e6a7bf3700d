// The sections of a 64-bit little-endian ELF file (an executable, a shared library or an
// object), read from its bytes with every offset checked: cucpu's tool reads programs'
// dynamic sections and the fatbins nvcc embeds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cucpu::tool {

struct ElfSection {
  std::string name;
  uint32_t type = 0;  // SHT_*
  uint32_t link = 0;  // sh_link: for SHT_DYNAMIC, the section of its strings
  std::string_view bytes;  // the contents (empty for SHT_NOBITS), inside the file's bytes
};

// Every section header in order (so sh_link indices hold), or none if `file` is not a
// 64-bit ELF file or its section table lies outside it. A section whose contents lie
// outside the file has empty bytes.
std::vector<ElfSection> read_elf_sections(std::string_view file);

}  // namespace cucpu::tool
