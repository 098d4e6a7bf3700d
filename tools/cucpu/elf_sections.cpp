#include "tools/cucpu/elf_sections.h"

#include <elf.h>

#include <cstring>

namespace cucpu::tool {

std::vector<ElfSection> read_elf_sections(std::string_view file) {
  std::vector<ElfSection> sections;
  if (file.size() < sizeof(Elf64_Ehdr) || file.substr(0, SELFMAG) != ELFMAG || file[EI_CLASS] != ELFCLASS64)
    return sections;
  auto in_bounds = [&](uint64_t offset, uint64_t size) { return offset <= file.size() && size <= file.size() - offset; };
  Elf64_Ehdr header;
  std::memcpy(&header, file.data(), sizeof header);
  if (!in_bounds(header.e_shoff, uint64_t{header.e_shnum} * sizeof(Elf64_Shdr))) return sections;
  std::vector<Elf64_Shdr> headers(header.e_shnum);
  std::memcpy(headers.data(), file.data() + header.e_shoff, headers.size() * sizeof(Elf64_Shdr));
  std::string_view names;
  if (header.e_shstrndx < headers.size() &&
      in_bounds(headers[header.e_shstrndx].sh_offset, headers[header.e_shstrndx].sh_size))
    names = file.substr(headers[header.e_shstrndx].sh_offset, headers[header.e_shstrndx].sh_size);
  for (const Elf64_Shdr& h : headers) {
    ElfSection section;
    if (h.sh_name < names.size()) {
      std::string_view rest = names.substr(h.sh_name);
      section.name = std::string(rest.substr(0, rest.find('\0')));
    }
    section.type = h.sh_type;
    section.link = h.sh_link;
    if (h.sh_type != SHT_NOBITS && in_bounds(h.sh_offset, h.sh_size))
      section.bytes = file.substr(h.sh_offset, h.sh_size);
    sections.push_back(std::move(section));
  }
  return sections;
}

}  // namespace cucpu::tool
