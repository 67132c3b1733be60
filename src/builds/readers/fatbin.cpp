#include "builds/readers/fatbin.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "occcalc/common/math.hpp"

namespace occcalc::inspect {

namespace {

// The fat binary layout (the toolkit's fatbinary_section.h names the magic;
// the entry header is described in tests/fixtures/inspect/README.md).
constexpr std::uint32_t fatbin_magic = 0xBA55ED50;
constexpr std::uint64_t fatbin_header_bytes = 16;
constexpr std::uint64_t entry_header_min_bytes = 64;
/// Fat binaries in a section start at 8-byte boundaries.
constexpr std::uint64_t fatbin_alignment = 8;
constexpr std::uint64_t flag_lz4 = 0x2000;
constexpr std::uint64_t flag_zstd = 0x8000;
/// What nvcc 13 sets for `sm_90a`/`compute_90a` and for `sm_100f`/`compute_100f`
/// entries (tests/fixtures/inspect/README.md): the target's feature suffix.
constexpr std::uint64_t flag_arch_specific = 0x100000;
constexpr std::uint64_t flag_family = 0x200000;

}  // namespace

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
      throw format_error(fmt::format("corrupt fat binary at offset {:#x}: header size {} is below {}", at, header_bytes,
                                     fatbin_header_bytes));
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
      e.feature = (flags & flag_arch_specific) != 0 ? target_features::arch_specific
                  : (flags & flag_family) != 0      ? target_features::family
                                                    : target_features::none;
      e.payload = body.sub(entry_at + entry_header_bytes, stored_bytes, "a fat binary entry's payload");
      e.compressed = (flags & flag_zstd) != 0  ? compression::zstd
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
    at = occcalc::detail::round_up(body_at + body.size(), fatbin_alignment);
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
    at = begin +
         std::min<std::uint64_t>(offset + header_bytes + body_bytes + last, static_cast<std::uint64_t>(end - begin));
  }
  return found;
}

byte_view entry_contents(const fatbin_entry& entry, scratch_buffer& buffer) {
  if (entry.compressed == compression::none) return entry.payload;
  return decompress(entry.compressed, entry.payload, entry.decompressed_bytes,
                    fmt::format("fat binary entry at offset {:#x}", entry.offset), buffer);
}

}  // namespace occcalc::inspect
