/// \file common/math.hpp
/// Integer rounding and division: the only copies, shared by the models, the
/// readers and the renderers. Vendor-neutral.
///
/// The models divide by table constants (a warp size, an allocation unit, a
/// partition count), which are powers of two in every table: such a divisor
/// is a shift or a mask, and the branch that picks it goes the same way for
/// every launch on one architecture. The results are those of plain
/// division. (A 32-bit division for small operands was tried and measured
/// slower: the divider of current x86 cores is fast at 64 bits too.)
#pragma once

#include <cstdint>

namespace occcalc::detail {

/// Whether `y` is a power of two; `y > 0`.
constexpr bool is_power_of_two(std::int64_t y) noexcept { return (y & (y - 1)) == 0; }

/// log2(`y`) for a power of two `y`.
constexpr int log2_of_power_of_two(std::int64_t y) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(static_cast<unsigned long long>(y));
#else
  int shift = 0;
  while ((y >> shift) != 1) ++shift;
  return shift;
#endif
}

/// `x / y` rounded down for a `y` that is usually a power of two (a table
/// constant); `x >= 0`, `y > 0`.
constexpr std::int64_t divide_by_constant(std::int64_t x, std::int64_t y) noexcept {
  return x >= 0 && is_power_of_two(y) ? x >> log2_of_power_of_two(y) : x / y;
}

/// `x / y` rounded up; `x >= 0`, `y > 0`.
constexpr std::int64_t divide_round_up(std::int64_t x, std::int64_t y) noexcept {
  return divide_by_constant(x + y - 1, y);
}

/// `x` rounded up to a multiple of `multiple`; `x >= 0`, `multiple > 0`.
constexpr std::int64_t round_up(std::int64_t x, std::int64_t multiple) noexcept {
  if (x >= 0 && is_power_of_two(multiple)) return (x + multiple - 1) & ~(multiple - 1);
  return (x + multiple - 1) / multiple * multiple;
}

/// The same for unsigned sizes (file offsets, section sizes).
constexpr std::uint64_t round_up(std::uint64_t x, std::uint64_t multiple) noexcept {
  return (x + multiple - 1) / multiple * multiple;
}

}  // namespace occcalc::detail
