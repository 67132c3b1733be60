// Clang offload bundles, the containers HIP puts code objects in
// (`.hip_fatbin`, `.hipfb`), plain or compressed (zstd).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "builds/readers/bytes.hpp"
#include "builds/readers/decompress.hpp"

namespace occcalc::inspect {

/// Whether `bytes` begins with a clang offload bundle, plain or compressed.
bool is_offload_bundle(byte_view bytes) noexcept;

/// One entry of an offload bundle.
struct bundle_entry {
  /// `hipv4-amdgcn-amd-amdhsa--gfx90a`, `host-x86_64-unknown-linux--`.
  std::string_view triple;
  byte_view contents;
};

/// The entries of the bundle at the start of `bytes`, decompressing it into
/// `buffer` if it is compressed (zstd). `size` is set to the bytes the
/// bundle takes in `bytes`. Throws `format_error` if it is corrupt.
std::vector<bundle_entry> offload_bundle_entries(byte_view bytes, scratch_buffer& buffer, std::uint64_t& size);

/// Calls `visit` with every entry of every offload bundle in `region` (a
/// bundle file, or a `.hip_fatbin` section holding one bundle per
/// translation unit at aligned offsets) and the bundle's offset. Bytes
/// between bundles are skipped; a corrupt bundle throws `format_error`.
void for_each_bundle_entry(byte_view region, scratch_buffer& buffer,
                           const std::function<void(const bundle_entry&, std::uint64_t)>& visit);

}  // namespace occcalc::inspect
