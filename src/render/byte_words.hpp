// Tests of eight bytes at once, in a 64-bit word: the SWAR tests of "Bit
// Twiddling Hacks" (Sean Eron Anderson, "Determine if a word has a zero
// byte" and "... a byte less than n"). Each is exact as a yes or no; which
// bytes it marks after the first that passes may be wrong.
#pragma once

#include <cstdint>

namespace occcalc::cli::byte_words {

inline constexpr std::uint64_t ones = 0x0101010101010101;
inline constexpr std::uint64_t highs = 0x8080808080808080;

/// Nonzero when a byte of `w` is below `n` (at most 0x80).
constexpr std::uint64_t any_below(std::uint64_t w, unsigned char n) noexcept { return (w - ones * n) & ~w & highs; }

/// Nonzero when a byte of `w` equals `c`.
constexpr std::uint64_t any_equal(std::uint64_t w, unsigned char c) noexcept { return any_below(w ^ (ones * c), 1); }

/// Nonzero when a byte of `w` is at or above 0x80.
constexpr std::uint64_t any_high(std::uint64_t w) noexcept { return w & highs; }

}  // namespace occcalc::cli::byte_words
