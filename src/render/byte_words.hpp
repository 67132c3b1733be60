// Eight bytes at once, in a 64-bit word: the SWAR tests of "Bit Twiddling
// Hacks" (Sean Eron Anderson, "Determine if a word has a zero byte" and
// "... a byte less than n"), each exact as a yes or no (which bytes it marks
// after the first that passes may be wrong); and a short copy in two
// overlapping moves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace occcalc::cli::byte_words {

inline constexpr std::uint64_t ones = 0x0101010101010101;
inline constexpr std::uint64_t highs = 0x8080808080808080;

/// Nonzero when a byte of `w` is below `n` (at most 0x80).
constexpr std::uint64_t any_below(std::uint64_t w, unsigned char n) noexcept { return (w - ones * n) & ~w & highs; }

/// Nonzero when a byte of `w` equals `c`.
constexpr std::uint64_t any_equal(std::uint64_t w, unsigned char c) noexcept { return any_below(w ^ (ones * c), 1); }

/// Nonzero when a byte of `w` is at or above 0x80.
constexpr std::uint64_t any_high(std::uint64_t w) noexcept { return w & highs; }

/// Copies `size` bytes from `from` to `to` (not overlapping). Up to 32 bytes
/// as two overlapping copies of a fixed size, inline: a key or a number goes
/// without a call to the C library's memcpy, and a size the compiler knows
/// folds to one or two moves. Reads and writes no byte outside the two.
inline void copy_bytes(char* to, const char* from, std::size_t size) noexcept {
  const auto two = [&](auto chunk) {
    constexpr std::size_t bytes = sizeof chunk;
    std::memcpy(&chunk, from, bytes);
    std::memcpy(to, &chunk, bytes);
    std::memcpy(&chunk, from + size - bytes, bytes);
    std::memcpy(to + size - bytes, &chunk, bytes);
  };
  struct sixteen {
    std::uint64_t low, high;
  };
  if (size > 32) {
    std::memcpy(to, from, size);
  } else if (size >= 16) {
    two(sixteen{});
  } else if (size >= 8) {
    two(std::uint64_t{});
  } else if (size >= 4) {
    two(std::uint32_t{});
  } else if (size > 0) {
    to[0] = from[0];
    to[size / 2] = from[size / 2];
    to[size - 1] = from[size - 1];
  }
}

}  // namespace occcalc::cli::byte_words
