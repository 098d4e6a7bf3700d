// Reading the fatbin containers that nvcc embeds in a program (`.nv_fatbin`, and
// `__nv_relfatbin` for -rdc builds), as nvcc 13 writes them. All integers little-endian;
// offsets below are from the start of the header they belong to.
//
// Fatbin header (16 bytes), then `body size` bytes of entries back to back:
//   0x00 u32 magic 0xBA55ED50     0x04 u16 version (1)    0x06 u16 header size (16)
//   0x08 u64 body size: the bytes of entries that follow the header
// Entry header (64 bytes of fixed fields, `header size` in all), then the payload:
//   0x00 u16 kind: 1 PTX, 2 ELF cubin, 8 LTO IR    0x02 u16 version (0x0101)
//   0x04 u32 header size: 64 for cubins, 80+ for PTX (it holds the ptxas options)
//   0x08 u64 payload size, padded to 8: the next entry starts at header size + this
//   0x10 u32 compressed size (0 when the payload is stored as is)
//   0x14 u32 options offset: where in this header a {u32 offset, u32 size} pair locates
//        the ptxas options string (0 for cubins; not read here)
//   0x18 u16 minor, 0x1a u16 major: PTX ISA version of a PTX entry (9.0), ELF ABI of a cubin
//   0x1c u32 arch: 90 for compute_90 / sm_90 (sm_90a and sm_100f set flags, not the number)
//   0x20 u32 identifier offset, 0x24 u32 identifier size: the source file name, in this
//        header, when nvcc records it (-G)
//   0x28 u64 flags: 0x1 64-bit, 0x2 debug, 0x10 Linux, 0x2000 LZ-compressed,
//        0x8000 zstd-compressed, 0x10000 on LTO IR (whose payload is then no plain zstd
//        stream), 0x100000 arch-specific (sm_90a), 0x200000 family (sm_100f)
//   0x30 u64 (0, except for LTO IR)     0x38 u64 uncompressed size (0 when not compressed)
// A compressed payload's first `compressed size` bytes are the stream; it decompresses to
// `uncompressed size` bytes. PTX payloads are text followed by NUL padding.
//
// Every size is checked against the bytes the caller allows (size_limit) and against the
// headers that enclose it before anything is read, so malformed input is an InvalidImage
// error naming the entry and the field, never a read out of bounds.
#include "fatbin/fatbin.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <span>

#include "fatbin/decompress.h"

namespace cucpu::fatbin {

namespace {

// Offsets of the fields read, from the layout above.
namespace fatbin_header {
constexpr size_t kMagic = 0x00, kVersion = 0x04, kHeaderSize = 0x06, kBodySize = 0x08, kSize = 0x10;
}
namespace entry_header {
constexpr size_t kKind = 0x00, kHeaderSize = 0x04, kPayloadSize = 0x08, kCompressedSize = 0x10, kArch = 0x1c,
                 kIdentifierOffset = 0x20, kIdentifierSize = 0x24, kFlags = 0x28, kUncompressedSize = 0x38,
                 kFixedSize = 0x40;
}
constexpr uint64_t kFlagLz = 0x2000, kFlagZstd = 0x8000;

// An unaligned little-endian load; callers have checked that the bytes are there.
template <typename T>
T load(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

Error invalid(std::string message) { return make_error(ErrorCode::InvalidImage, std::move(message)); }

EntryKind kind_of(uint16_t raw) {
  switch (raw) {
    case 1:
      return EntryKind::Ptx;
    case 2:
      return EntryKind::Cubin;
    case 8:
      return EntryKind::LtoIr;
    default:
      return EntryKind::Unknown;
  }
}

// One entry that starts at `p`, with `available` bytes left in its fatbin's body.
// `consumed` receives the entry's size (header + padded payload).
Result<Entry> read_entry(const uint8_t* p, size_t available, size_t& consumed) {
  using namespace entry_header;
  if (available < kFixedSize)
    return invalid(fmt::format("header truncated: {} bytes needed, {} left in the fatbin", kFixedSize, available));
  uint32_t header_size = load<uint32_t>(p + kHeaderSize);
  uint64_t payload_size = load<uint64_t>(p + kPayloadSize);
  if (header_size < kFixedSize)
    return invalid(fmt::format("header size {} is smaller than the {} bytes of its fields", header_size, kFixedSize));
  if (header_size > available)
    return invalid(fmt::format("header size {} runs past the fatbin ({} bytes left)", header_size, available));
  if (payload_size > available - header_size)
    return invalid(fmt::format("payload size {} runs past the fatbin ({} bytes left after the header)", payload_size,
                               available - header_size));
  consumed = header_size + payload_size;

  Entry entry;
  uint16_t raw_kind = load<uint16_t>(p + kKind);
  entry.kind = kind_of(raw_kind);
  entry.arch = load<uint32_t>(p + kArch);

  // The identifier lies inside the header; a NUL-padded C string.
  uint32_t identifier_offset = load<uint32_t>(p + kIdentifierOffset);
  uint32_t identifier_size = load<uint32_t>(p + kIdentifierSize);
  if (identifier_offset != 0) {
    if (identifier_offset > header_size || identifier_size > header_size - identifier_offset)
      return invalid(fmt::format("identifier ({} bytes at {:#x}) runs past the {}-byte header", identifier_size,
                                 identifier_offset, header_size));
    const char* text = reinterpret_cast<const char*>(p + identifier_offset);
    entry.identifier.assign(text, strnlen(text, identifier_size));
  }

  std::span<const uint8_t> payload(p + header_size, payload_size);
  uint64_t flags = load<uint64_t>(p + kFlags);
  uint64_t compression = flags & (kFlagLz | kFlagZstd);
  // Only PTX and cubins are decompressed: LTO IR payloads (flag 0x10000) are not plain
  // zstd streams, and cucpu has no use for them or for kinds it does not know.
  bool wanted = entry.kind == EntryKind::Ptx || entry.kind == EntryKind::Cubin;
  if (compression == 0 || !wanted) {
    entry.data.assign(payload.begin(), payload.end());
  } else {
    uint32_t compressed_size = load<uint32_t>(p + kCompressedSize);
    uint64_t uncompressed_size = load<uint64_t>(p + kUncompressedSize);
    if (compressed_size > payload_size)
      return invalid(
          fmt::format("compressed size {} is larger than the payload ({} bytes)", compressed_size, payload_size));
    if (compression == (kFlagLz | kFlagZstd))
      return invalid(fmt::format("flags {:#x} ask for both LZ and zstd compression", flags));
    auto stream = payload.first(compressed_size);
    Result<std::vector<uint8_t>> data = compression == kFlagZstd ? decompress_zstd(stream, uncompressed_size)
                                                                 : decompress_lz(stream, uncompressed_size);
    if (!data) return data.error();
    entry.data = std::move(*data);
  }

  // PTX is text: drop the NULs that end the string and pad it to 8 bytes.
  if (entry.kind == EntryKind::Ptx)
    while (!entry.data.empty() && entry.data.back() == 0) entry.data.pop_back();
  return entry;
}

// One fatbin at `p`, reading at most `limit` bytes; `consumed` receives its size.
Result<std::vector<Entry>> read_fatbin(const uint8_t* p, size_t limit, size_t& consumed) {
  using namespace fatbin_header;
  if (limit < kSize) return invalid(fmt::format("fatbin header truncated: {} bytes needed, {} given", kSize, limit));
  uint32_t magic = load<uint32_t>(p + kMagic);
  if (magic != kFatbinMagic)
    return invalid(fmt::format("not a fatbin: magic {:#010x}, expected {:#010x}", magic, kFatbinMagic));
  uint16_t version = load<uint16_t>(p + kVersion);
  uint16_t header_size = load<uint16_t>(p + kHeaderSize);
  uint64_t body_size = load<uint64_t>(p + kBodySize);
  if (version != 1) return invalid(fmt::format("fatbin version {} is not one cucpu reads (1)", version));
  if (header_size < kSize)
    return invalid(fmt::format("fatbin header size {} is smaller than the {} bytes of its fields", header_size, kSize));
  if (header_size > limit || body_size > limit - header_size)
    return invalid(fmt::format("fatbin of {} + {} bytes runs past the {} bytes given", header_size, body_size, limit));
  consumed = header_size + body_size;

  std::vector<Entry> entries;
  const uint8_t* body = p + header_size;
  for (size_t offset = 0; offset < body_size;) {
    size_t entry_size = 0;
    Result<Entry> entry = read_entry(body + offset, body_size - offset, entry_size);
    if (!entry)
      return make_error(entry.error().code, fmt::format("fatbin entry {} (at {:#x}): {}", entries.size(),
                                                        header_size + offset, entry.error().message));
    entries.push_back(std::move(*entry));
    offset += entry_size;
  }
  return entries;
}

}  // namespace

Result<std::vector<Entry>> read_entries(const void* data, size_t size_limit) {
  if (data == nullptr) return invalid("fatbin pointer is null");
  size_t consumed = 0;
  return read_fatbin(static_cast<const uint8_t*>(data), size_limit, consumed);
}

Result<std::vector<std::vector<Entry>>> read_fatbins(const void* data, size_t size) {
  if (data == nullptr && size != 0) return invalid("fatbin section pointer is null");
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  std::vector<std::vector<Entry>> fatbins;
  size_t offset = 0;
  for (;;) {
    // The linker aligns each object's fatbin; the gaps are zeros.
    while (offset < size && bytes[offset] == 0) ++offset;
    if (offset == size) break;
    size_t consumed = 0;
    Result<std::vector<Entry>> entries = read_fatbin(bytes + offset, size - offset, consumed);
    if (!entries)
      return make_error(entries.error().code, fmt::format("fatbin {} (at {:#x} of {} bytes): {}", fatbins.size(),
                                                          offset, size, entries.error().message));
    fatbins.push_back(std::move(*entries));
    offset += consumed;
  }
  return fatbins;
}

Result<std::vector<Entry>> read_wrapped(const void* wrapper) {
  if (wrapper == nullptr) return invalid("fatbin wrapper pointer is null");
  Wrapper header;
  std::memcpy(&header, wrapper, sizeof header);
  if (header.magic != kWrapperMagic)
    return invalid(fmt::format("fatbin wrapper magic {:#010x}, expected {:#010x}", static_cast<uint32_t>(header.magic),
                               static_cast<uint32_t>(kWrapperMagic)));
  return read_entries(header.data, SIZE_MAX);
}

bool is_device_runtime_library(const std::vector<Entry>& entries) {
  constexpr std::string_view kDefinition = ".visible .func (.param .b32 func_retval0) __cudaCDP2LaunchDeviceV2(";
  return std::any_of(entries.begin(), entries.end(), [&](const Entry& entry) {
    std::string_view text(reinterpret_cast<const char*>(entry.data.data()), entry.data.size());
    return entry.kind == EntryKind::Ptx && text.find(kDefinition) != std::string_view::npos;
  });
}

Result<std::vector<std::string>> select_wrapper_ptx(const void* wrapper, uint32_t arch) {
  auto entries = read_wrapped(wrapper);
  if (!entries) return entries.error();
  Wrapper header;
  std::memcpy(&header, wrapper, sizeof header);
  std::vector<std::string> texts;
  if (header.version == kLinkWrapperVersion && header.filename_or_fatbins != nullptr) {
    // Bounded: an object file count far beyond any real link means a corrupt array.
    constexpr size_t kMaxLinkedObjects = 1 << 16;
    auto* objects = static_cast<const void* const*>(header.filename_or_fatbins);
    for (size_t i = 0; objects[i] != nullptr; ++i) {
      if (i == kMaxLinkedObjects) return invalid("the -rdc link's object list has no end");
      auto object_entries = read_entries(objects[i], SIZE_MAX);
      if (!object_entries) return object_entries.error();
      if (is_device_runtime_library(*object_entries)) continue;
      auto text = select_ptx(*object_entries, arch);
      if (!text) return text.error();
      texts.push_back(std::move(*text));
    }
    if (!texts.empty()) return texts;
  }
  auto text = select_ptx(*entries, arch);
  if (!text) return text.error();
  texts.push_back(std::move(*text));
  return texts;
}

}  // namespace cucpu::fatbin
