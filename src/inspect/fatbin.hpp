// CUDA fat binaries: the container nvcc puts cubins and PTX in, standalone
// (`.fatbin`) or inside a host ELF's `.nv_fatbin` / `__nv_relfatbin` section.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "inspect/bytes.hpp"

namespace occcalc::inspect {

/// How an entry's payload is compressed.
enum class compression { none, zstd, lz4 };

std::string_view to_string(compression c) noexcept;

/// One entry of a fat binary.
struct fatbin_entry {
  /// 1 PTX, 2 ELF (cubin); other kinds are skipped by the reader.
  std::uint16_t kind = 0;
  /// The SM or compute version (75, 90, 120).
  std::uint32_t arch = 0;
  compression compressed = compression::none;
  /// The payload as stored (compressed or not).
  byte_view payload;
  /// The payload's size once decompressed.
  std::uint64_t decompressed_bytes = 0;
  /// Offset of the entry header from the start of the scanned region.
  std::uint64_t offset = 0;
};

/// Entry kinds.
inline constexpr std::uint16_t fatbin_kind_ptx = 1;
inline constexpr std::uint16_t fatbin_kind_elf = 2;

/// The most bytes one entry may decompress to: guards against decompression
/// bombs. Real cubins are at most tens of MiB.
inline constexpr std::uint64_t max_decompressed_entry_bytes = std::uint64_t{256} << 20;

/// Whether `bytes` begins with a fat binary header.
bool is_fatbin(byte_view bytes) noexcept;

/// Every entry of every fat binary in `region`: one fat binary, or several
/// back to back with padding between them (as in `.nv_fatbin`). Throws
/// `format_error` on a header that lies outside the region.
std::vector<fatbin_entry> fatbin_entries(byte_view region);

/// Fat binaries embedded in other data (libcufft keeps thousands in
/// `.ldata` and loads them itself): the offset and size of each in
/// `region`, found by their magic at 4-byte alignment and kept only when the
/// header and first entry header are consistent. Never throws: data that
/// merely resembles a header is not one.
/// Only headers that start in [`from`, `to`) are reported, so a region can
/// be searched in pieces; a fat binary may extend past `to`.
struct embedded_fatbin {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};
std::vector<embedded_fatbin> find_embedded_fatbins(byte_view region, std::uint64_t from, std::uint64_t to);
inline std::vector<embedded_fatbin> find_embedded_fatbins(byte_view region) {
  return find_embedded_fatbins(region, 0, region.size());
}

/// Memory that decompressed entries are written to, reused from one entry to
/// the next and never zero-filled (a library holds a gigabyte of cubins).
class scratch_buffer {
 public:
  /// At least `bytes` of writable memory; the old contents are not kept.
  unsigned char* reserve(std::size_t bytes);

 private:
  std::unique_ptr<unsigned char[]> data_;
  std::size_t capacity_ = 0;
};

/// The entry's payload, decompressed into `buffer` if it is compressed; a
/// view of the stored payload otherwise. Throws `format_error` when the data
/// is corrupt or expands past its declared or the maximum size.
byte_view entry_contents(const fatbin_entry& entry, scratch_buffer& buffer);

}  // namespace occcalc::inspect
