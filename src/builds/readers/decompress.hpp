// Decompression of untrusted payloads (fat binary entries, compressed
// offload bundles), with the checks that stop decompression bombs.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "builds/readers/budgets.hpp"
#include "builds/readers/bytes.hpp"

namespace occcalc::inspect {

/// How a payload is compressed.
enum class compression { none, zstd, lz4 };

std::string_view to_string(compression c) noexcept;

/// Memory that decompressed payloads are written to, reused from one to the
/// next and never zero-filled (a library holds a gigabyte of cubins).
class scratch_buffer {
 public:
  /// At least `bytes` of writable memory; the old contents are not kept.
  unsigned char* reserve(std::size_t bytes);

 private:
  std::unique_ptr<unsigned char[]> data_;
  std::size_t capacity_ = 0;
};

/// `payload` decompressed into `buffer` (or itself, uncompressed). It must
/// expand to exactly `declared` bytes, at most the maximum and at most
/// `max_expansion_ratio` times its size beyond `expansion_floor_bytes`; a zstd frame
/// that states another size, or LZ4 data that cannot expand that far, is
/// refused before anything is allocated. Errors start with `what`.
byte_view decompress(compression method, byte_view payload, std::uint64_t declared, std::string_view what,
                     scratch_buffer& buffer);

}  // namespace occcalc::inspect
