// AMD GPU code objects (ELF, EM_AMDGPU): each kernel's resources from the
// AMDGPU metadata note (MessagePack) and its kernel descriptor; and the clang
// offload bundles that HIP puts them in (`.hip_fatbin`, `.hipfb`), plain or
// compressed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "inspect/bytes.hpp"
#include "inspect/decompress.hpp"
#include "inspect/elf.hpp"
#include "inspect/kernel_resources.hpp"

namespace occcalc::inspect {

/// The kernels of an AMDGPU code object (relocatable or linked). Throws
/// `format_error` when it has no metadata note or the note is malformed.
std::vector<kernel_resources> read_amdgpu_code_object(const elf_file& elf);

/// The target a code object's `amdhsa.target` or a bundle triple names,
/// without features: `amdgcn-amd-amdhsa--gfx90a:xnack+` -> `gfx90a`. Empty
/// if it names none.
std::string amdgpu_target_of(std::string_view triple);

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
