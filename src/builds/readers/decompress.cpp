#include "builds/readers/decompress.hpp"

#include <algorithm>
#include <cstdint>

#include <lz4.h>
#include <zstd.h>

#include "builds/readers/page_advice.hpp"

namespace occcalc::inspect {

namespace {

/// LZ4's largest possible expansion: a match token covers at most 255
/// bytes per input byte (lz4 block format).
constexpr std::uint64_t lz4_max_expansion = 255;

struct zstd_context_deleter {
  void operator()(ZSTD_DCtx* c) const noexcept { ZSTD_freeDCtx(c); }
};

/// One decompression context per thread, reused across payloads.
ZSTD_DCtx* zstd_context() {
  thread_local std::unique_ptr<ZSTD_DCtx, zstd_context_deleter> context(ZSTD_createDCtx());
  if (!context) throw format_error("out of memory for a zstd decompression context");
  return context.get();
}

}  // namespace

std::string_view to_string(compression c) noexcept {
  switch (c) {
    case compression::zstd: return "zstd";
    case compression::lz4: return "lz4";
    case compression::none: break;
  }
  return "none";
}

unsigned char* scratch_buffer::reserve(std::size_t bytes) {
  if (bytes > capacity_) {
    // At least twice the old size, up to the largest entry allowed: a
    // library's entries come in no order of size, and each growth is fresh
    // memory whose every page faults again.
    constexpr auto most = static_cast<std::size_t>(max_decompressed_entry_bytes);
    const std::size_t grown = std::max(bytes, std::min(capacity_ * 2, most));
    data_.reset();  // free before allocating: the peak is one buffer
    data_.reset(new unsigned char[grown]);
    capacity_ = grown;
    prefer_huge_pages(data_.get(), capacity_);
  }
  return data_.get();
}

byte_view decompress(compression method, byte_view payload, std::uint64_t declared, std::string_view what,
                     scratch_buffer& buffer) {
  if (method == compression::none) return payload;
  if (declared > max_decompressed_entry_bytes) {
    throw format_error(
        fmt::format("{} declares {} bytes decompressed, over the {}-byte "
                    "limit",
                    what, declared, max_decompressed_entry_bytes));
  }
  if (declared > expansion_floor_bytes && declared / max_expansion_ratio > payload.size()) {
    throw format_error(
        fmt::format("{} declares {} bytes decompressed from {}: more than {} times its size, which "
                    "no real entry comes near",
                    what, declared, payload.size(), max_expansion_ratio));
  }
  // Check what the data itself claims before allocating for it: a zstd
  // frame states its size, and LZ4 cannot expand more than 255 times.
  if (method == compression::zstd) {
    const auto frame_bytes = ZSTD_getFrameContentSize(payload.data(), payload.size());
    if (frame_bytes == ZSTD_CONTENTSIZE_ERROR) {
      throw format_error(fmt::format("{}: not a zstd frame", what));
    }
    if (frame_bytes != ZSTD_CONTENTSIZE_UNKNOWN && frame_bytes != declared) {
      throw format_error(
          fmt::format("{}: the zstd frame holds {} bytes, not the "
                      "declared {}",
                      what, frame_bytes, declared));
    }
  } else if (declared > (payload.size() + 1) * lz4_max_expansion) {
    throw format_error(
        fmt::format("{}: {} LZ4 bytes cannot expand to the declared {}", what, payload.size(), declared));
  }
  const auto size = static_cast<std::size_t>(declared);
  unsigned char* out = buffer.reserve(size);
  std::size_t produced = 0;
  if (method == compression::zstd) {
    produced = ZSTD_decompressDCtx(zstd_context(), out, size, payload.data(), payload.size());
    if (ZSTD_isError(produced)) {
      throw format_error(fmt::format("{}: zstd: {}", what, ZSTD_getErrorName(produced)));
    }
  } else {
    if (payload.size() > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE)) {
      throw format_error(fmt::format("{}: LZ4 payload too large", what));
    }
    const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(payload.data()), reinterpret_cast<char*>(out),
                                      static_cast<int>(payload.size()), static_cast<int>(size));
    if (n < 0) {
      throw format_error(
          fmt::format("{}: LZ4 data is corrupt or expands past the "
                      "declared {} bytes",
                      what, declared));
    }
    produced = static_cast<std::size_t>(n);
  }
  if (produced != declared) {
    throw format_error(fmt::format("{} decompressed to {} bytes, not the declared {}", what, produced, declared));
  }
  return {out, size};
}

}  // namespace occcalc::inspect
