// JSON strings as every JSON output writes them: quoted, escaped, and with
// invalid UTF-8 replaced.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "render/byte_words.hpp"

namespace occcalc::cli {

/// Appends `text` as a JSON string, quoted and escaped; invalid UTF-8 bytes
/// become U+FFFD, as in every JSON occcalc writes.
void append_json_string(std::string& out, std::string_view text);

namespace detail {

/// Sixteen bytes as two words: the first eight and the last eight.
struct sixteen_bytes {
  std::uint64_t low;
  std::uint64_t high;
};

/// Whether any of the sixteen bytes is one a JSON string cannot hold as it
/// is: a control character, a quote, a backslash, or a byte of a multi-byte
/// character (checked by nlohmann's escaping, which replaces invalid UTF-8).
inline bool any_not_plain(sixteen_bytes b) noexcept {
#if defined(__SSE2__)
  // As signed bytes, every byte from 0x80 up is below 0x20 too.
  const __m128i v = _mm_set_epi64x(static_cast<long long>(b.high), static_cast<long long>(b.low));
  const __m128i bad =
      _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                   _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
  return _mm_movemask_epi8(bad) != 0;
#else
  using namespace byte_words;
  const auto not_plain = [](std::uint64_t w) {
    return any_high(w) | any_below(w, 0x20) | any_equal(w, '"') | any_equal(w, '\\');
  };
  return (not_plain(b.low) | not_plain(b.high)) != 0;
#endif
}

}  // namespace detail

/// Whether every byte of `text` is printable ASCII other than a quote and a
/// backslash: what a JSON string holds as it is, without escaping. Inline:
/// for a key whose size the compiler knows, its tests fold to a few
/// instructions.
inline bool plain_json_text(std::string_view text) noexcept {
  // Sixteen bytes at a time (SSE2's compares, or two words' SWAR tests). A
  // text of 8 to 16 bytes is its first and last eight; a shorter one its two
  // overlapping halves, or its first, middle and last byte, padded with
  // spaces (plain); a longer one's tail its last sixteen bytes. Bytes tested
  // twice do no harm.
  constexpr std::uint64_t spaces = 0x2020202020202020;
  constexpr std::size_t word = sizeof(std::uint64_t);
  constexpr std::size_t block = 2 * word;
  const char* bytes = text.data();
  const std::size_t size = text.size();
  const auto word_at = [&](std::size_t at) {
    std::uint64_t w = 0;
    std::memcpy(&w, bytes + at, word);
    return w;
  };
  if (size < word) {
    constexpr std::size_t half = sizeof(std::uint32_t);
    std::uint64_t w = spaces;
    if (size >= half) {
      std::uint32_t low = 0, high = 0;
      std::memcpy(&low, bytes, half);
      std::memcpy(&high, bytes + size - half, half);
      w = low | std::uint64_t{high} << 32U;
    } else if (size > 0) {
      w = (w & ~std::uint64_t{0xffffff}) | static_cast<unsigned char>(bytes[0]) |
          std::uint64_t{static_cast<unsigned char>(bytes[size / 2])} << 8U |
          std::uint64_t{static_cast<unsigned char>(bytes[size - 1])} << 16U;
    }
    return !detail::any_not_plain({w, spaces});
  }
  if (size <= block) return !detail::any_not_plain({word_at(0), word_at(size - word)});
  bool found = false;
  std::size_t i = 0;
  for (; i + block <= size; i += block) found |= detail::any_not_plain({word_at(i), word_at(i + word)});
  if (i < size) found |= detail::any_not_plain({word_at(size - block), word_at(size - word)});
  return !found;
}

}  // namespace occcalc::cli
