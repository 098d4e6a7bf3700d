// build_id_of: walks the loaded ELF objects (dl_iterate_phdr), finds the one whose
// PT_LOAD segments contain the address and reads the NT_GNU_BUILD_ID note from its
// PT_NOTE segments, which the dynamic loader keeps mapped.
#include "support/build_id.h"

#include <elf.h>
#include <link.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace cucpu {
namespace {

struct Search {
  uintptr_t address = 0;
  std::string id;
};

bool contains(const dl_phdr_info& object, uintptr_t address) {
  for (int i = 0; i < object.dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = object.dlpi_phdr[i];
    if (segment.p_type != PT_LOAD) continue;
    uintptr_t start = object.dlpi_addr + segment.p_vaddr;
    if (address >= start && address - start < segment.p_memsz) return true;
  }
  return false;
}

// Notes are a name and a descriptor, each padded to 4 bytes (ELF gABI "Note Section").
std::string find_build_id(const dl_phdr_info& object) {
  constexpr auto pad = [](size_t n) { return (n + 3) & ~size_t{3}; };
  for (int i = 0; i < object.dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = object.dlpi_phdr[i];
    if (segment.p_type != PT_NOTE) continue;
    const auto* at = reinterpret_cast<const uint8_t*>(object.dlpi_addr + segment.p_vaddr);
    const uint8_t* end = at + segment.p_memsz;
    while (end - at >= static_cast<std::ptrdiff_t>(sizeof(ElfW(Nhdr)))) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const uint8_t* name = at + sizeof note;
      const uint8_t* descriptor = name + pad(note.n_namesz);
      if (descriptor + pad(note.n_descsz) > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        static constexpr char kHex[] = "0123456789abcdef";
        std::string id;
        for (size_t b = 0; b < note.n_descsz; ++b) {
          id += kHex[descriptor[b] >> 4];
          id += kHex[descriptor[b] & 15];
        }
        return id;
      }
      at = descriptor + pad(note.n_descsz);
    }
  }
  return {};
}

}  // namespace

std::string build_id_of(const void* address) {
  Search search{reinterpret_cast<uintptr_t>(address), {}};
  dl_iterate_phdr(
      [](dl_phdr_info* object, size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        if (!contains(*object, s->address)) return 0;
        s->id = find_build_id(*object);
        return 1;  // found the object: stop
      },
      &search);
  return search.id;
}

}  // namespace cucpu
