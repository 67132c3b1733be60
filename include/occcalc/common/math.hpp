/// \file common/math.hpp
/// Integer rounding and division: the only copies, shared by the models, the
/// readers and the renderers. Vendor-neutral.
///
/// The models divide by table constants (a warp size, an allocation unit, a
/// partition count), which are powers of two in every table: such a divisor
/// is a shift or a mask, and the branch that picks it goes the same way for
/// every launch on one architecture. What they divide by a launch's own
/// figures (warps per block, allocation units per block) is small, and
/// `divide_small` multiplies by a reciprocal computed at compile time
/// instead. The results are those of plain division.
#pragma once

#include <array>
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

/// The largest divisor `divide_small` has a reciprocal for.
inline constexpr std::int64_t small_divisor_limit = 4096;
/// The dividends below this `divide_small` divides exactly with a reciprocal.
inline constexpr std::int64_t small_dividend_limit = std::int64_t{1} << 19;
/// The fixed-point position of the reciprocals (2^31).
inline constexpr int reciprocal_shift = 31;

/// ceil(2^31 / d) for each divisor d in [1, `small_divisor_limit`] (index 0
/// is unused). With e = ceil(2^31 / d) x d - 2^31 < d, floor(x x that / 2^31)
/// = floor(x / d) whenever x x e < 2^31, which x < 2^19 and d <= 2^12 ensure.
inline constexpr std::array<std::uint32_t, small_divisor_limit + 1> small_reciprocals = [] {
  std::array<std::uint32_t, small_divisor_limit + 1> reciprocals{};
  for (std::int64_t d = 1; d <= small_divisor_limit; ++d) {
    reciprocals[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(
        ((std::uint64_t{1} << reciprocal_shift) + static_cast<std::uint64_t>(d) - 1) / static_cast<std::uint64_t>(d));
  }
  return reciprocals;
}();

/// `x / y` rounded down, by a multiplication when both are small (the
/// launch-dependent divisions of the models); `x >= 0`, `y > 0`.
constexpr std::int64_t divide_small(std::int64_t x, std::int64_t y) noexcept {
  if (static_cast<std::uint64_t>(x) < static_cast<std::uint64_t>(small_dividend_limit) &&
      static_cast<std::uint64_t>(y - 1) < static_cast<std::uint64_t>(small_divisor_limit)) {
    return static_cast<std::int64_t>((static_cast<std::uint64_t>(x) * small_reciprocals[static_cast<std::size_t>(y)]) >>
                                     reciprocal_shift);
  }
  return x / y;
}

/// `when ? a : b` for an integer type, where the models choose by what a
/// launch decides. Told that either way is as likely, GCC and Clang emit a
/// conditional move or a branch by their cost model: fewer instructions than
/// masks (2 against 6 per choice) and, on the random stream of
/// bench/core_bench.cpp, 1.69-1.77x the header where masks gave 1.55-1.62x.
template <typename Integer>
constexpr Integer select(bool when, Integer a, Integer b) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_expect_with_probability(when, true, 0.5) ? a : b;
#else
  const auto mask = static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(when);
  return static_cast<Integer>((static_cast<std::uint64_t>(a) & mask) | (static_cast<std::uint64_t>(b) & ~mask));
#endif
}

/// The smaller of `a` and `b`, by value: a select where `std::min`'s
/// reference can compile to a branch.
constexpr std::int64_t smaller(std::int64_t a, std::int64_t b) noexcept { return b < a ? b : a; }

/// `x / y` rounded up; `x >= 0`, `y > 0`.
constexpr std::int64_t divide_round_up(std::int64_t x, std::int64_t y) noexcept {
  return divide_by_constant(x + y - 1, y);
}

/// `x` rounded up to a multiple of `multiple`; `x >= 0`, `multiple > 0`.
constexpr std::int64_t round_up(std::int64_t x, std::int64_t multiple) noexcept {
  if (x >= 0 && is_power_of_two(multiple)) return (x + multiple - 1) & ~(multiple - 1);
  return (x + multiple - 1) / multiple * multiple;
}

/// `x` rounded up to a multiple of 2^`shift`; `x >= 0`.
constexpr std::int64_t round_up_to_power_of_two(std::int64_t x, int shift) noexcept {
  const std::int64_t mask = (std::int64_t{1} << shift) - 1;
  return (x + mask) & ~mask;
}

/// The same for unsigned sizes (file offsets, section sizes).
constexpr std::uint64_t round_up(std::uint64_t x, std::uint64_t multiple) noexcept {
  return (x + multiple - 1) / multiple * multiple;
}

}  // namespace occcalc::detail
