#include "builds/readers/offload_bundle.hpp"

#include <cstring>

#include "builds/readers/decompress.hpp"

namespace occcalc::inspect {

namespace {

// Clang offload bundles (clang/lib/Driver/OffloadBundler.cpp).
constexpr std::string_view bundle_magic = "__CLANG_OFFLOAD_BUNDLE__";
constexpr std::string_view compressed_bundle_magic = "CCOB";
constexpr std::uint16_t compressed_method_zstd = 1;
/// Bundles in a linked `.hip_fatbin` start at 8-byte boundaries at least.
constexpr std::uint64_t bundle_alignment = 8;

}  // namespace

bool is_offload_bundle(byte_view bytes) noexcept {
  const std::string_view text = bytes.as_text();
  return text.substr(0, bundle_magic.size()) == bundle_magic ||
         text.substr(0, compressed_bundle_magic.size()) == compressed_bundle_magic;
}

std::vector<bundle_entry> offload_bundle_entries(byte_view bytes, scratch_buffer& buffer, std::uint64_t& size) {
  byte_view bundle = bytes;
  if (bytes.as_text().substr(0, compressed_bundle_magic.size()) == compressed_bundle_magic) {
    const auto version = bytes.read<std::uint16_t>(4, "the compressed bundle's version");
    const auto method = bytes.read<std::uint16_t>(6, "the compressed bundle's method");
    std::uint64_t header = 0, declared = 0;
    size = bytes.size();
    switch (version) {
      case 1:
        declared = bytes.read<std::uint32_t>(8, "the compressed bundle's size");
        header = 20;
        break;
      case 2:
        size = bytes.read<std::uint32_t>(8, "the compressed bundle's file size");
        declared = bytes.read<std::uint32_t>(12, "the compressed bundle's size");
        header = 24;
        break;
      case 3:
        size = bytes.read<std::uint64_t>(8, "the compressed bundle's file size");
        declared = bytes.read<std::uint64_t>(16, "the compressed bundle's size");
        header = 32;
        break;
      default:
        throw format_error(
            fmt::format("a compressed offload bundle of version {}; versions 1 to 3 are known", version));
    }
    if (method != compressed_method_zstd) {
      throw format_error("a zlib-compressed offload bundle; only zstd-compressed ones are read");
    }
    if (size < header) throw format_error("corrupt compressed offload bundle: its size is below its header");
    const byte_view payload = bytes.sub(header, size - header, "the compressed offload bundle");
    bundle = decompress(compression::zstd, payload, declared, "the compressed offload bundle", buffer);
  }
  if (bundle.as_text().substr(0, bundle_magic.size()) != bundle_magic) {
    throw format_error(bundle.data() == bytes.data() ? "not an offload bundle"
                                                     : "the compressed offload bundle does not hold a bundle");
  }
  const auto count = bundle.read<std::uint64_t>(bundle_magic.size(), "the bundle's entry count");
  constexpr std::uint64_t entry_header_bytes = 24;
  if (count > bundle.size() / entry_header_bytes) {
    throw format_error(fmt::format("corrupt offload bundle: {} entries cannot fit in {} bytes", count, bundle.size()));
  }
  std::vector<bundle_entry> out;
  std::uint64_t at = bundle_magic.size() + 8;
  std::uint64_t end = at;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto offset = bundle.read<std::uint64_t>(at, "a bundle entry's offset");
    const auto length = bundle.read<std::uint64_t>(at + 8, "a bundle entry's size");
    const auto triple_bytes = bundle.read<std::uint64_t>(at + 16, "a bundle entry's triple size");
    const std::string_view triple = bundle.sub(at + 24, triple_bytes, "a bundle entry's triple").as_text();
    at += 24 + triple_bytes;
    out.push_back({triple, bundle.sub(offset, length, "a bundle entry")});
    end = std::max({end, at, offset + length});
  }
  if (bundle.data() == bytes.data()) size = end;
  return out;
}

void for_each_bundle_entry(byte_view region, scratch_buffer& buffer,
                           const std::function<void(const bundle_entry&, std::uint64_t)>& visit) {
  std::uint64_t at = 0;
  while (at < region.size()) {
    const byte_view rest = region.from(at, "an offload bundle");
    if (!is_offload_bundle(rest)) {
      at += bundle_alignment;
      continue;
    }
    std::uint64_t size = 0;
    for (const auto& entry : offload_bundle_entries(rest, buffer, size)) visit(entry, at);
    at += align_up(std::max<std::uint64_t>(size, 1), bundle_alignment);
  }
}

}  // namespace occcalc::inspect
