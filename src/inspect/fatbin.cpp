#include "inspect/fatbin.hpp"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace occcalc::inspect {

namespace {

// The fat binary layout (the toolkit's fatbinary_section.h names the magic;
// the entry header is documented in docs/cubin-format.md).
constexpr std::uint32_t fatbin_magic = 0xBA55ED50;
constexpr std::uint64_t fatbin_header_bytes = 16;
constexpr std::uint64_t entry_header_min_bytes = 64;
/// Fat binaries in a section start at 8-byte boundaries.
constexpr std::uint64_t fatbin_alignment = 8;
constexpr std::uint64_t flag_lz4 = 0x2000;
constexpr std::uint64_t flag_zstd = 0x8000;
/// LZ4's largest possible expansion: a match token covers at most 255
/// bytes per input byte (lz4 block format).
constexpr std::uint64_t lz4_max_expansion = 255;

struct zstd_context_deleter {
  void operator()(ZSTD_DCtx* c) const noexcept { ZSTD_freeDCtx(c); }
};

/// One decompression context per thread, reused across entries.
ZSTD_DCtx* zstd_context() {
  thread_local std::unique_ptr<ZSTD_DCtx, zstd_context_deleter> context(ZSTD_createDCtx());
  if (!context) throw format_error("out of memory for a zstd decompression context");
  return context.get();
}

std::uint64_t round_up(std::uint64_t n, std::uint64_t multiple) { return (n + multiple - 1) / multiple * multiple; }

}  // namespace

std::string_view to_string(compression c) noexcept {
  switch (c) {
    case compression::zstd: return "zstd";
    case compression::lz4: return "lz4";
    case compression::none: break;
  }
  return "none";
}

bool is_fatbin(byte_view bytes) noexcept {
  return bytes.contains(0, 4) && bytes.read<std::uint32_t>(0, "magic") == fatbin_magic;
}

std::vector<fatbin_entry> fatbin_entries(byte_view region) {
  std::vector<fatbin_entry> entries;
  std::uint64_t at = 0;
  while (region.contains(at, fatbin_header_bytes)) {
    if (region.read<std::uint32_t>(at, "a fat binary header") != fatbin_magic) {
      at += fatbin_alignment;  // padding between fat binaries
      continue;
    }
    const auto header_bytes = region.read<std::uint16_t>(at + 6, "a fat binary header");
    const auto body_bytes = region.read<std::uint64_t>(at + 8, "a fat binary header");
    if (header_bytes < fatbin_header_bytes) {
      throw format_error(fmt::format("corrupt fat binary at offset {:#x}: header size {} is below {}", at,
                                     header_bytes, fatbin_header_bytes));
    }
    const std::uint64_t body_at = at + header_bytes;
    const byte_view body = region.sub(body_at, body_bytes, "a fat binary's entries");
    std::uint64_t entry_at = 0;
    while (entry_at < body.size()) {
      const auto entry_header_bytes = body.read<std::uint32_t>(entry_at + 4, "a fat binary entry header");
      if (entry_header_bytes < entry_header_min_bytes) {
        throw format_error(fmt::format("corrupt fat binary entry at offset {:#x}: header size {} is below {}",
                                       body_at + entry_at, entry_header_bytes, entry_header_min_bytes));
      }
      const byte_view header = body.sub(entry_at, entry_header_bytes, "a fat binary entry header");
      fatbin_entry e;
      e.offset = body_at + entry_at;
      e.kind = header.read<std::uint16_t>(0, "kind");
      e.arch = header.read<std::uint32_t>(0x1c, "arch");
      const auto stored_bytes = header.read<std::uint64_t>(0x08, "payload size");
      const auto flags = header.read<std::uint64_t>(0x28, "flags");
      e.payload = body.sub(entry_at + entry_header_bytes, stored_bytes, "a fat binary entry's payload");
      e.compressed = (flags & flag_zstd) != 0 ? compression::zstd
                     : (flags & flag_lz4) != 0 ? compression::lz4
                                               : compression::none;
      if (e.compressed != compression::none) {
        // The stored payload is padded; the exact compressed length is here.
        const auto compressed_bytes = header.read<std::uint32_t>(0x10, "compressed size");
        e.payload = e.payload.sub(0, compressed_bytes, "a fat binary entry's compressed payload");
        e.decompressed_bytes = header.read<std::uint64_t>(0x38, "decompressed size");
      } else {
        e.decompressed_bytes = e.payload.size();
      }
      entries.push_back(e);
      entry_at += entry_header_bytes + stored_bytes;
    }
    at = round_up(body_at + body.size(), fatbin_alignment);
  }
  return entries;
}

std::vector<embedded_fatbin> find_embedded_fatbins(byte_view region, std::uint64_t from, std::uint64_t to) {
  constexpr std::uint64_t alignment = 4;
  constexpr std::uint16_t known_version = 1;
  constexpr std::uint32_t max_entry_header_bytes = 4096;
  constexpr std::uint16_t max_known_kind = 0xff;
  const unsigned char magic[] = {0x50, 0xED, 0x55, 0xBA};  // fatbin_magic, little-endian
  std::vector<embedded_fatbin> found;
  const unsigned char* begin = region.data();
  to = std::min<std::uint64_t>(to, region.size());
  if (from >= to) return found;
  // A header starting before `to` may end after it.
  const unsigned char* end = begin + std::min<std::uint64_t>(to + sizeof magic - 1, region.size());
  const unsigned char* at = begin + from;
  // memchr for the magic's last byte (0xBA, rare in code and data) is
  // several times faster than memmem for the whole word.
  constexpr std::size_t last = sizeof magic - 1;
  at += last;
  while (at < end) {
    at = static_cast<const unsigned char*>(std::memchr(at, magic[last], static_cast<std::size_t>(end - at)));
    if (at == nullptr) break;
    const auto offset = static_cast<std::uint64_t>(at - last - begin);
    ++at;
    if (offset % alignment != 0 || std::memcmp(begin + offset, magic, last) != 0 ||
        !region.contains(offset, fatbin_header_bytes)) {
      continue;
    }
    const auto version = region.read<std::uint16_t>(offset + 4, "");
    const auto header_bytes = region.read<std::uint16_t>(offset + 6, "");
    const auto body_bytes = region.read<std::uint64_t>(offset + 8, "");
    if (version != known_version || header_bytes != fatbin_header_bytes || body_bytes < entry_header_min_bytes ||
        !region.contains(offset + header_bytes, body_bytes)) {
      continue;
    }
    const std::uint64_t entry = offset + header_bytes;
    const auto kind = region.read<std::uint16_t>(entry, "");
    const auto entry_header_bytes = region.read<std::uint32_t>(entry + 4, "");
    const auto payload_bytes = region.read<std::uint64_t>(entry + 8, "");
    if (kind == 0 || kind > max_known_kind || entry_header_bytes < entry_header_min_bytes ||
        entry_header_bytes > max_entry_header_bytes || payload_bytes > body_bytes - entry_header_bytes) {
      continue;
    }
    found.push_back({offset, header_bytes + body_bytes});
    at = begin + std::min<std::uint64_t>(offset + header_bytes + body_bytes + last,
                                         static_cast<std::uint64_t>(end - begin));
  }
  return found;
}

unsigned char* scratch_buffer::reserve(std::size_t bytes) {
  if (bytes > capacity_) {
    data_.reset();  // free before allocating: the peak is one buffer
    data_.reset(new unsigned char[bytes]);
    capacity_ = bytes;
  }
  return data_.get();
}

byte_view entry_contents(const fatbin_entry& entry, scratch_buffer& buffer) {
  if (entry.compressed == compression::none) return entry.payload;
  const auto declared = entry.decompressed_bytes;
  if (declared > max_decompressed_entry_bytes) {
    throw format_error(fmt::format("fat binary entry at offset {:#x} declares {} bytes decompressed, over the {}-byte "
                                   "limit",
                                   entry.offset, declared, max_decompressed_entry_bytes));
  }
  // Check what the data itself claims before allocating for it: a zstd
  // frame states its size, and LZ4 cannot expand more than 255 times.
  if (entry.compressed == compression::zstd) {
    const auto frame_bytes = ZSTD_getFrameContentSize(entry.payload.data(), entry.payload.size());
    if (frame_bytes == ZSTD_CONTENTSIZE_ERROR) {
      throw format_error(fmt::format("fat binary entry at offset {:#x}: not a zstd frame", entry.offset));
    }
    if (frame_bytes != ZSTD_CONTENTSIZE_UNKNOWN && frame_bytes != declared) {
      throw format_error(fmt::format("fat binary entry at offset {:#x}: the zstd frame holds {} bytes, not the "
                                     "declared {}",
                                     entry.offset, frame_bytes, declared));
    }
  } else if (declared > (entry.payload.size() + 1) * lz4_max_expansion) {
    throw format_error(fmt::format("fat binary entry at offset {:#x}: {} LZ4 bytes cannot expand to the declared {}",
                                   entry.offset, entry.payload.size(), declared));
  }
  const auto size = static_cast<std::size_t>(declared);
  unsigned char* out = buffer.reserve(size);
  std::size_t produced = 0;
  if (entry.compressed == compression::zstd) {
    produced = ZSTD_decompressDCtx(zstd_context(), out, size, entry.payload.data(), entry.payload.size());
    if (ZSTD_isError(produced)) {
      throw format_error(fmt::format("fat binary entry at offset {:#x}: zstd: {}", entry.offset,
                                     ZSTD_getErrorName(produced)));
    }
  } else {
    if (entry.payload.size() > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE)) {
      throw format_error(fmt::format("fat binary entry at offset {:#x}: LZ4 payload too large", entry.offset));
    }
    const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(entry.payload.data()),
                                      reinterpret_cast<char*>(out), static_cast<int>(entry.payload.size()),
                                      static_cast<int>(size));
    if (n < 0) {
      throw format_error(fmt::format("fat binary entry at offset {:#x}: LZ4 data is corrupt or expands past the "
                                     "declared {} bytes",
                                     entry.offset, declared));
    }
    produced = static_cast<std::size_t>(n);
  }
  if (produced != declared) {
    throw format_error(fmt::format("fat binary entry at offset {:#x} decompressed to {} bytes, not the declared {}",
                                   entry.offset, produced, declared));
  }
  return {out, size};
}

}  // namespace occcalc::inspect
