/// \file common/optional_integer.hpp
/// An integer or none, for the figures of the calculators' results (a block
/// limit, a shared memory configuration). Vendor-neutral.
///
/// It has `std::optional<std::int64_t>`'s interface, but its storage is two
/// plain members instead of a union. GCC keeps such a value in registers;
/// a `std::optional` it built piece by piece in memory and copied with one
/// wide load, which stalled on store forwarding at every copy: a result
/// holds several of them (bench/core_bench measured the difference).
#pragma once

#include <cstdint>
#include <optional>

namespace occcalc {

/// An integer or none.
class optional_integer {
 public:
  constexpr optional_integer() noexcept = default;
  constexpr optional_integer(std::nullopt_t) noexcept {}  // NOLINT: implicit, as std::optional's
  constexpr optional_integer(std::int64_t value) noexcept : value_(value), engaged_(true) {}  // NOLINT
  constexpr optional_integer(const std::optional<std::int64_t>& value) noexcept               // NOLINT
      : value_(value.value_or(0)), engaged_(value.has_value()) {}

  constexpr bool has_value() const noexcept { return engaged_; }
  constexpr explicit operator bool() const noexcept { return engaged_; }
  /// The value; `has_value()` is a precondition, as for `std::optional`.
  constexpr std::int64_t operator*() const noexcept { return value_; }
  constexpr std::int64_t value_or(std::int64_t fallback) const noexcept { return engaged_ ? value_ : fallback; }
  /// The same value as a `std::optional` (implicit, so that code written for
  /// a `std::optional` reads it as one).
  constexpr operator std::optional<std::int64_t>() const noexcept {  // NOLINT(google-explicit-constructor)
    return engaged_ ? std::optional<std::int64_t>(value_) : std::nullopt;
  }

  friend constexpr bool operator==(optional_integer a, optional_integer b) noexcept {
    return a.engaged_ == b.engaged_ && (!a.engaged_ || a.value_ == b.value_);
  }
  friend constexpr bool operator!=(optional_integer a, optional_integer b) noexcept { return !(a == b); }
  /// Like `std::optional`: equal to a value only when engaged with it.
  friend constexpr bool operator==(optional_integer a, std::int64_t b) noexcept { return a.engaged_ && a.value_ == b; }
  friend constexpr bool operator==(std::int64_t a, optional_integer b) noexcept { return b == a; }
  friend constexpr bool operator!=(optional_integer a, std::int64_t b) noexcept { return !(a == b); }
  friend constexpr bool operator!=(std::int64_t a, optional_integer b) noexcept { return !(b == a); }

 private:
  /// The value when engaged, 0 otherwise (so that equal values compare and
  /// copy as plain integers).
  std::int64_t value_ = 0;
  bool engaged_ = false;
};

}  // namespace occcalc
