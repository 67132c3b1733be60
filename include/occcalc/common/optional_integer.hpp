/// \file common/optional_integer.hpp
/// An integer or none, for the figures of the calculators' results (a block
/// limit, a shared memory configuration). Vendor-neutral.
///
/// It has `std::optional<std::int64_t>`'s interface in one plain integer:
/// a result holds seven of them, and 8 bytes each keep it small.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

#include "occcalc/common/host_device.hpp"

namespace occcalc {

/// An integer or none. It holds every `std::int64_t` but the largest,
/// which stands for none: the calculators' figures are counts and sizes far
/// below it, and a value of 8 bytes halves what a result holds and copies
/// for each (a block limit with its reason fits in 16 bytes). As a limit,
/// none is no bound at all, which `bound()` gives as the largest integer.
class optional_integer {
 public:
  constexpr optional_integer() noexcept = default;
  constexpr optional_integer(std::nullopt_t) noexcept {}  // NOLINT: implicit, as std::optional's
  OCCCALC_HOST_DEVICE constexpr optional_integer(std::int64_t value) noexcept : value_(value) {}  // NOLINT
  /// A `std::optional` of any integer type (`std::optional<int>` too).
  template <typename Integer>
  constexpr optional_integer(const std::optional<Integer>& value) noexcept  // NOLINT
      : value_(value ? static_cast<std::int64_t>(*value) : none) {}

  OCCCALC_HOST_DEVICE constexpr bool has_value() const noexcept { return value_ != none; }
  OCCCALC_HOST_DEVICE constexpr explicit operator bool() const noexcept { return has_value(); }
  /// The value; `has_value()` is a precondition, as for `std::optional`.
  OCCCALC_HOST_DEVICE constexpr std::int64_t operator*() const noexcept { return value_; }
  OCCCALC_HOST_DEVICE constexpr std::int64_t value_or(std::int64_t fallback) const noexcept {
    return has_value() ? value_ : fallback;
  }
  /// The value, or the largest `std::int64_t` when none: as a limit, none
  /// bounds nothing, so the smallest of several limits is the smallest
  /// `bound()`, with no test.
  OCCCALC_HOST_DEVICE constexpr std::int64_t bound() const noexcept { return value_; }
  /// The same value as a `std::optional` (implicit, so that code written for
  /// a `std::optional` reads it as one).
  constexpr operator std::optional<std::int64_t>() const noexcept {  // NOLINT(google-explicit-constructor)
    return has_value() ? std::optional<std::int64_t>(value_) : std::nullopt;
  }

  OCCCALC_HOST_DEVICE friend constexpr bool operator==(optional_integer a, optional_integer b) noexcept {
    return a.value_ == b.value_;
  }
  OCCCALC_HOST_DEVICE friend constexpr bool operator!=(optional_integer a, optional_integer b) noexcept {
    return !(a == b);
  }
  /// Like `std::optional`: equal to a value only when it holds that value.
  OCCCALC_HOST_DEVICE friend constexpr bool operator==(optional_integer a, std::int64_t b) noexcept {
    return a.value_ == b && b != none;
  }
  OCCCALC_HOST_DEVICE friend constexpr bool operator==(std::int64_t a, optional_integer b) noexcept { return b == a; }
  OCCCALC_HOST_DEVICE friend constexpr bool operator!=(optional_integer a, std::int64_t b) noexcept {
    return !(a == b);
  }
  OCCCALC_HOST_DEVICE friend constexpr bool operator!=(std::int64_t a, optional_integer b) noexcept {
    return !(b == a);
  }

 private:
  /// The value that stands for none.
  static constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();
  std::int64_t value_ = none;
};

static_assert(sizeof(optional_integer) == sizeof(std::int64_t), "optional_integer is one integer");

}  // namespace occcalc
