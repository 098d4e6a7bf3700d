// Reads the DT_NEEDED entries of a 64-bit little-endian ELF file (the libraries the
// dynamic loader will load), from its .dynamic section and the string table it links to.
#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "tools/cucpu/commands.h"
#include "tools/cucpu/elf_sections.h"

namespace cucpu::tool {

std::vector<std::string> elf_needed_libraries(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::vector<ElfSection> sections = read_elf_sections(bytes);
  std::vector<std::string> needed;
  for (const ElfSection& section : sections) {
    if (section.type != SHT_DYNAMIC || section.link >= sections.size()) continue;
    std::string_view strings = sections[section.link].bytes;
    for (size_t at = 0; at + sizeof(Elf64_Dyn) <= section.bytes.size(); at += sizeof(Elf64_Dyn)) {
      Elf64_Dyn entry;
      std::memcpy(&entry, section.bytes.data() + at, sizeof entry);
      if (entry.d_tag == DT_NULL) break;
      if (entry.d_tag != DT_NEEDED || entry.d_un.d_val >= strings.size()) continue;
      std::string_view name = strings.substr(entry.d_un.d_val);
      needed.emplace_back(name.substr(0, name.find('\0')));
    }
  }
  return needed;
}

}  // namespace cucpu::tool
