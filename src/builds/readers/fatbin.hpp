// CUDA fat binaries: the container nvcc puts cubins and PTX in, standalone
// (`.fatbin`) or inside a host ELF's `.nv_fatbin` / `__nv_relfatbin` section.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "builds/readers/bytes.hpp"
#include "builds/readers/decompress.hpp"
#include "occcalc/request/target.hpp"

namespace occcalc::inspect {

/// One entry of a fat binary.
struct fatbin_entry {
  /// 1 PTX, 2 ELF (cubin); other kinds are skipped by the reader.
  std::uint16_t kind = 0;
  /// The SM or compute version (75, 90, 120).
  std::uint32_t arch = 0;
  /// Its `a` or `f` suffix (`sm_90a`, `compute_100f`), from the entry's flags.
  target_features feature = target_features::none;
  compression compressed = compression::none;
  /// The payload as stored (compressed or not).
  byte_view payload;
  /// The payload's size once decompressed.
  std::uint64_t decompressed_bytes = 0;
  /// Offset of the entry header from the start of the scanned region.
  std::uint64_t offset = 0;
};

/// The entry kind of PTX text.
inline constexpr std::uint16_t fatbin_kind_ptx = 1;
/// The entry kind of a cubin.
inline constexpr std::uint16_t fatbin_kind_elf = 2;
/// The entry kind of LTO IR (`-gencode code=lto_80`; nvcc 13 writes 8):
/// not machine code, so it has no resources until nvlink -dlto links it.
inline constexpr std::uint16_t fatbin_kind_lto_ir = 8;

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

/// The entry's payload, decompressed into `buffer` if it is compressed; a
/// view of the stored payload otherwise. Throws `format_error` when the data
/// is corrupt or expands past its declared or the maximum size.
byte_view entry_contents(const fatbin_entry& entry, scratch_buffer& buffer);

}  // namespace occcalc::inspect
