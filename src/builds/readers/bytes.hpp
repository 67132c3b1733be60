// Bounds-checked reading of untrusted binary input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "occcalc/error.hpp"

namespace occcalc::inspect {

/// A binary input that cannot be read: truncated, corrupt or hostile. The
/// message says what is wrong; the caller prefixes the file name.
class format_error : public occcalc::error {
 public:
  using error::error;
};

/// `n` rounded up to a multiple of `alignment` (> 0); binary formats pad to
/// alignments far below 2^63, so it cannot overflow on a checked size.
constexpr std::uint64_t align_up(std::uint64_t n, std::uint64_t alignment) noexcept {
  return (n + alignment - 1) / alignment * alignment;
}

/// A view of bytes whose every read is checked against its bounds: a read
/// outside throws `format_error` naming the structure (`what`), never reads
/// past the end. Multi-byte values are little-endian, as in every CUDA binary.
class byte_view {
 public:
  byte_view() = default;
  byte_view(const unsigned char* data, std::size_t size) : data_(data), size_(size) {}

  const unsigned char* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  /// Whether `length` bytes at `offset` lie inside the view (overflow-safe).
  bool contains(std::uint64_t offset, std::uint64_t length) const noexcept {
    return offset <= size_ && length <= size_ - offset;
  }

  /// The `length` bytes at `offset`.
  byte_view sub(std::uint64_t offset, std::uint64_t length, std::string_view what) const {
    require(offset, length, what);
    return {data_ + offset, static_cast<std::size_t>(length)};
  }

  /// The bytes from `offset` to the end.
  byte_view from(std::uint64_t offset, std::string_view what) const {
    require(offset, 0, what);
    return {data_ + offset, static_cast<std::size_t>(size_ - offset)};
  }

  /// The unsigned little-endian integer of type `T` at `offset`.
  template <typename T>
  T read(std::uint64_t offset, std::string_view what) const {
    require(offset, sizeof(T), what);
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(static_cast<T>(data_[offset + i]) << (8 * i));
    return value;
  }

  /// The NUL-terminated string at `offset`; it must end inside the view.
  std::string_view c_string(std::uint64_t offset, std::string_view what) const {
    require(offset, 1, what);
    const auto* begin = reinterpret_cast<const char*>(data_ + offset);
    const auto* end = static_cast<const char*>(std::memchr(begin, '\0', size_ - static_cast<std::size_t>(offset)));
    if (end == nullptr) throw format_error(fmt::format("{} at offset {:#x} is not NUL-terminated", what, offset));
    return {begin, static_cast<std::size_t>(end - begin)};
  }

  std::string_view as_text() const noexcept { return {reinterpret_cast<const char*>(data_), size_}; }

 private:
  void require(std::uint64_t offset, std::uint64_t length, std::string_view what) const {
    if (!contains(offset, length)) {
      throw format_error(
          fmt::format("truncated or corrupt: {} ({} bytes at offset {:#x}) lies outside the {} bytes "
                      "available",
                      what, length, offset, size_));
    }
  }

  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace occcalc::inspect
