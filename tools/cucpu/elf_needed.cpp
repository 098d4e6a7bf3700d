// Reads the DT_NEEDED entries of a 64-bit little-endian ELF file (the libraries the
// dynamic loader will load), from its .dynamic section and the string table it links to.
#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "tools/cucpu/commands.h"

namespace cucpu::tool {

std::vector<std::string> elf_needed_libraries(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<std::string> needed;
  if (bytes.size() < sizeof(Elf64_Ehdr) || bytes.compare(0, 4, ELFMAG) != 0 || bytes[EI_CLASS] != ELFCLASS64)
    return needed;
  auto in_bounds = [&](uint64_t offset, uint64_t size) { return offset <= bytes.size() && size <= bytes.size() - offset; };
  Elf64_Ehdr header;
  std::memcpy(&header, bytes.data(), sizeof header);
  if (!in_bounds(header.e_shoff, uint64_t{header.e_shnum} * sizeof(Elf64_Shdr))) return needed;
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  std::memcpy(sections.data(), bytes.data() + header.e_shoff, sections.size() * sizeof(Elf64_Shdr));
  for (const Elf64_Shdr& section : sections) {
    if (section.sh_type != SHT_DYNAMIC || section.sh_link >= sections.size()) continue;
    const Elf64_Shdr& strings = sections[section.sh_link];
    if (!in_bounds(section.sh_offset, section.sh_size) || !in_bounds(strings.sh_offset, strings.sh_size)) continue;
    for (uint64_t at = 0; at + sizeof(Elf64_Dyn) <= section.sh_size; at += sizeof(Elf64_Dyn)) {
      Elf64_Dyn entry;
      std::memcpy(&entry, bytes.data() + section.sh_offset + at, sizeof entry);
      if (entry.d_tag == DT_NULL) break;
      if (entry.d_tag == DT_NEEDED && entry.d_un.d_val < strings.sh_size)
        needed.emplace_back(bytes.c_str() + strings.sh_offset + entry.d_un.d_val);
    }
  }
  return needed;
}

}  // namespace cucpu::tool
