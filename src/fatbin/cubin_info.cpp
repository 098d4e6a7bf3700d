// Reading register counts from a cubin. A cubin is an ELF64 file; ptxas writes its
// per-function attributes into sections of type SHT_LOPROC named `.nv.info` (module-wide
// records: register count, frame and stack sizes, each naming its function by symbol
// index) and `.nv.info.<kernel>` (parameters, max threads, ...). Each section is a run of
// records {u8 format, u8 attribute, u16 value or payload size, payload}: format 0x04
// (EIFMT_SVAL) has a payload of the u16's size, the others none. EIATTR_REGCOUNT (0x2f)
// is EIFMT_SVAL with payload {u32 symbol index, u32 registers}. Every record and index is
// checked against the sections that hold it.
#include "fatbin/cubin_info.h"

#include <elf.h>
#include <fmt/format.h>

#include <cstring>
#include <string_view>

namespace cucpu::fatbin {

namespace {

constexpr uint8_t kFormatSizedValue = 0x04;        // EIFMT_SVAL
constexpr uint8_t kAttributeRegisterCount = 0x2f;  // EIATTR_REGCOUNT

Error invalid(std::string message) { return make_error(ErrorCode::InvalidImage, "cubin: " + std::move(message)); }

template <typename T>
T load(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

// The ELF's section headers, each checked to lie inside the file.
Result<std::vector<Elf64_Shdr>> read_sections(std::span<const uint8_t> elf) {
  if (elf.size() < sizeof(Elf64_Ehdr) || std::memcmp(elf.data(), ELFMAG, SELFMAG) != 0)
    return invalid("not an ELF file");
  auto header = load<Elf64_Ehdr>(elf.data());
  if (header.e_ident[EI_CLASS] != ELFCLASS64) return invalid("not a 64-bit ELF file");
  if (header.e_shentsize != sizeof(Elf64_Shdr))
    return invalid(fmt::format("section header size {}", header.e_shentsize));
  if (header.e_shoff > elf.size() || header.e_shnum > (elf.size() - header.e_shoff) / sizeof(Elf64_Shdr))
    return invalid(
        fmt::format("{} section headers at {:#x} run past the {} bytes", header.e_shnum, header.e_shoff, elf.size()));
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  for (size_t i = 0; i < sections.size(); ++i) {
    sections[i] = load<Elf64_Shdr>(elf.data() + header.e_shoff + i * sizeof(Elf64_Shdr));
    const Elf64_Shdr& s = sections[i];
    if (s.sh_type != SHT_NOBITS && (s.sh_offset > elf.size() || s.sh_size > elf.size() - s.sh_offset))
      return invalid(
          fmt::format("section {} ({} bytes at {:#x}) runs past the {} bytes", i, s.sh_size, s.sh_offset, elf.size()));
  }
  return sections;
}

std::span<const uint8_t> contents(std::span<const uint8_t> elf, const Elf64_Shdr& section) {
  if (section.sh_type == SHT_NOBITS) return {};
  return elf.subspan(section.sh_offset, section.sh_size);
}

// A NUL-terminated name at `offset` of a string table, or nothing if it runs off the table.
std::string_view name_at(std::span<const uint8_t> table, uint64_t offset) {
  if (offset >= table.size()) return {};
  const char* text = reinterpret_cast<const char*>(table.data() + offset);
  size_t length = strnlen(text, table.size() - offset);
  return length == table.size() - offset ? std::string_view{} : std::string_view(text, length);
}

}  // namespace

Result<std::map<std::string, int>> read_register_counts(std::span<const uint8_t> elf) {
  auto sections = read_sections(elf);
  if (!sections) return sections.error();
  auto header = load<Elf64_Ehdr>(elf.data());
  if (header.e_shstrndx >= sections->size()) return invalid(fmt::format("section name table {}", header.e_shstrndx));
  auto section_names = contents(elf, (*sections)[header.e_shstrndx]);

  std::map<std::string, int> counts;
  for (size_t i = 0; i < sections->size(); ++i) {
    const Elf64_Shdr& info = (*sections)[i];
    if (info.sh_type != SHT_LOPROC || !name_at(section_names, info.sh_name).starts_with(".nv.info")) continue;
    // sh_link names the symbol table the records' symbol indices refer to.
    if (info.sh_link >= sections->size() || (*sections)[info.sh_link].sh_type != SHT_SYMTAB)
      return invalid(fmt::format("section {} links to {}, not a symbol table", i, info.sh_link));
    const Elf64_Shdr& symtab = (*sections)[info.sh_link];
    if (symtab.sh_link >= sections->size()) return invalid("the symbol table has no string table");
    auto symbols = contents(elf, symtab);
    auto symbol_names = contents(elf, (*sections)[symtab.sh_link]);

    auto records = contents(elf, info);
    for (size_t at = 0; at + 4 <= records.size();) {
      uint8_t format = records[at];
      uint8_t attribute = records[at + 1];
      uint16_t value = load<uint16_t>(records.data() + at + 2);
      size_t payload = format == kFormatSizedValue ? value : 0;
      if (payload > records.size() - at - 4)
        return invalid(fmt::format("attribute {:#x} at {:#x} of section {} runs past it", attribute, at, i));
      if (format == kFormatSizedValue && attribute == kAttributeRegisterCount) {
        if (payload < 8) return invalid(fmt::format("register count record of {} bytes in section {}", payload, i));
        uint32_t symbol = load<uint32_t>(records.data() + at + 4);
        uint32_t registers = load<uint32_t>(records.data() + at + 8);
        if (symbol >= symbols.size() / sizeof(Elf64_Sym))
          return invalid(fmt::format("register count names symbol {}, past the symbol table", symbol));
        auto entry = load<Elf64_Sym>(symbols.data() + symbol * sizeof(Elf64_Sym));
        std::string_view name = name_at(symbol_names, entry.st_name);
        if (name.empty()) return invalid(fmt::format("symbol {} has no name", symbol));
        counts[std::string(name)] = static_cast<int>(registers);
      }
      at += 4 + payload;
    }
  }
  return counts;
}

Result<std::map<std::string, int>> register_counts_for_arch(const std::vector<Entry>& entries, uint32_t arch) {
  for (const Entry& entry : entries)
    if (entry.kind == EntryKind::Cubin && entry.arch == arch) return read_register_counts(entry.data);
  return std::map<std::string, int>{};
}

}  // namespace cucpu::fatbin
