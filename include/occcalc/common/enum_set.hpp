/// \file common/enum_set.hpp
/// A set of the enumerators of a small enum (a bit each). Vendor-neutral.
#pragma once

#include <cstdint>

#include "occcalc/common/host_device.hpp"

namespace occcalc {

/// A set of enumerators (a bit per value of `Enum`, at most 32 values).
template <typename Enum>
class enum_set {
 public:
  OCCCALC_HOST_DEVICE constexpr void insert(Enum e) noexcept { bits_ |= bit(e); }
  /// Inserts `e` when `member`, without a branch.
  OCCCALC_HOST_DEVICE constexpr void insert_if(bool member, Enum e) noexcept {
    bits_ |= static_cast<std::uint32_t>(member) << index(e);
  }
  OCCCALC_HOST_DEVICE constexpr bool contains(Enum e) const noexcept { return (bits_ & bit(e)) != 0; }
  OCCCALC_HOST_DEVICE constexpr bool empty() const noexcept { return bits_ == 0; }
  OCCCALC_HOST_DEVICE constexpr bool operator==(enum_set other) const noexcept { return bits_ == other.bits_; }

 private:
  OCCCALC_HOST_DEVICE static constexpr unsigned index(Enum e) noexcept { return static_cast<unsigned>(e); }
  OCCCALC_HOST_DEVICE static constexpr std::uint32_t bit(Enum e) noexcept { return std::uint32_t{1} << index(e); }
  std::uint32_t bits_ = 0;
};

}  // namespace occcalc
