// Decompressors for the two schemes that fatbin entries use.
//
// zstd (flag 0x8000): one zstd frame per entry, as nvcc 13 writes by default. The entry
// header records the uncompressed size; the frame usually does too (frame content size),
// and the two must agree. Decompression is streamed into a buffer that grows as output
// arrives and never beyond the recorded size, so a header that lies about the size costs
// an error, not an allocation of whatever it claims.
//
// LZ (flag 0x2000): the LZ4 block format without a frame: a sequence of
//   token (high nibble: literal count, low nibble: match length - 4; 15 means "more in the
//   following bytes, each adding 0-255, until one is not 255"), the literals, a 2-byte
//   little-endian back-reference offset, the match length extension;
// the last sequence carries literals only. Every read and every back-reference is checked
// against the input and the output produced so far.
#include "fatbin/decompress.h"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <memory>

namespace cucpu::fatbin {

namespace {

Error invalid(std::string message) { return make_error(ErrorCode::InvalidImage, std::move(message)); }

// Where the streaming decompressor starts; it doubles from here up to the recorded size.
constexpr size_t kInitialOutput = size_t{1} << 20;

struct DctxDeleter {
  void operator()(ZSTD_DCtx* dctx) const { ZSTD_freeDCtx(dctx); }
};

}  // namespace

Result<std::vector<uint8_t>> decompress_zstd(std::span<const uint8_t> compressed, uint64_t size) {
  // The frame header, when it records a content size, must agree with the entry header.
  unsigned long long frame_size = ZSTD_getFrameContentSize(compressed.data(), compressed.size());
  if (frame_size == ZSTD_CONTENTSIZE_ERROR)
    return invalid("the zstd stream does not start with a valid zstd frame header");
  if (frame_size != ZSTD_CONTENTSIZE_UNKNOWN && frame_size != size)
    return invalid(fmt::format("the zstd frame holds {} bytes but the entry header says {}", frame_size, size));
  if (size > SIZE_MAX / 2) return invalid(fmt::format("uncompressed size {} is not addressable", size));

  std::unique_ptr<ZSTD_DCtx, DctxDeleter> dctx(ZSTD_createDCtx());
  if (!dctx) return make_error(ErrorCode::MemoryAllocation, "cannot create a zstd decompression context");

  std::vector<uint8_t> out(std::min<uint64_t>(size, kInitialOutput));
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  size_t produced = 0;
  for (;;) {
    ZSTD_outBuffer dst{out.data(), out.size(), produced};
    size_t consumed_before = in.pos;
    size_t pending = ZSTD_decompressStream(dctx.get(), &dst, &in);  // 0: the frame is complete
    if (ZSTD_isError(pending)) return invalid(fmt::format("zstd decompression failed: {}", ZSTD_getErrorName(pending)));
    bool progressed = dst.pos != produced || in.pos != consumed_before;
    produced = dst.pos;
    if (pending == 0 && in.pos == in.size) break;
    if (progressed) continue;
    if (produced < out.size())  // room left, nothing to read: the stream stops early
      return invalid(fmt::format("the zstd stream is truncated ({} of {} bytes decompressed)", produced, size));
    // Output full but the stream goes on: grow, unless that would pass the recorded size.
    if (out.size() == size)
      return invalid(fmt::format("the zstd stream decompresses to more than the {} bytes the entry header says", size));
    out.resize(std::min<uint64_t>(size, out.size() * 2));
  }
  if (produced != size)
    return invalid(
        fmt::format("the zstd stream decompresses to {} bytes but the entry header says {}", produced, size));
  return out;
}

Result<std::vector<uint8_t>> decompress_lz(std::span<const uint8_t> compressed, uint64_t size) {
  // Each input byte yields at most 255 output bytes (a length extension byte), which
  // bounds what a consistent header can claim and what we reserve up front.
  if (size / 255 > compressed.size() + 1)
    return invalid(fmt::format("LZ stream of {} bytes cannot decompress to the {} bytes the entry header says",
                               compressed.size(), size));
  std::vector<uint8_t> out;
  out.reserve(size);
  const uint8_t* in = compressed.data();
  size_t n = compressed.size();
  size_t pos = 0;

  // A nibble length of 15 continues in the following bytes.
  auto read_length = [&](size_t length, uint64_t& result) -> bool {
    if (length == 15) {
      uint8_t byte;
      do {
        if (pos >= n) return false;
        byte = in[pos++];
        length += byte;
      } while (byte == 255);
    }
    result = length;
    return true;
  };
  auto truncated = [&] { return invalid(fmt::format("the LZ stream is truncated at byte {} of {}", pos, n)); };

  while (pos < n) {
    uint8_t token = in[pos++];
    uint64_t literals;
    if (!read_length(token >> 4, literals)) return truncated();
    if (literals > n - pos) return truncated();
    if (literals > size - out.size())
      return invalid(fmt::format("the LZ stream decompresses to more than the {} bytes the entry header says", size));
    out.insert(out.end(), in + pos, in + pos + literals);
    pos += literals;
    if (pos == n) break;  // the last sequence has literals only

    if (n - pos < 2) return truncated();
    size_t offset = in[pos] | size_t{in[pos + 1]} << 8;
    pos += 2;
    uint64_t match;
    if (!read_length(token & 0xf, match)) return truncated();
    match += 4;
    if (offset == 0 || offset > out.size())
      return invalid(fmt::format("the LZ stream refers back {} bytes with only {} decompressed", offset, out.size()));
    if (match > size - out.size())
      return invalid(fmt::format("the LZ stream decompresses to more than the {} bytes the entry header says", size));
    // Byte by byte: a match may overlap the bytes it produces (offset < length).
    size_t from = out.size() - offset;
    for (uint64_t i = 0; i < match; ++i) out.push_back(out[from + i]);
  }
  if (out.size() != size)
    return invalid(
        fmt::format("the LZ stream decompresses to {} bytes but the entry header says {}", out.size(), size));
  return out;
}

}  // namespace cucpu::fatbin
