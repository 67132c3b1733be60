/// \file common/fixed_list.hpp
/// A list of at most `Capacity` values held in place: a literal type, so an
/// architecture holding one is `constexpr` and usable in device code, where
/// `std::vector` is neither.
#pragma once

#include <cstddef>
#include <initializer_list>

#include "occcalc/common/host_device.hpp"

namespace occcalc {

template <typename T, std::size_t Capacity>
class fixed_list {
 public:
  constexpr fixed_list() noexcept = default;
  /// The values of `values`; a list longer than `Capacity` is a
  /// precondition violation (the table loader refuses one).
  constexpr fixed_list(std::initializer_list<T> values) noexcept {
    for (const T& value : values) push_back(value);
  }

  static constexpr std::size_t capacity() noexcept { return Capacity; }
  OCCCALC_HOST_DEVICE constexpr std::size_t size() const noexcept { return size_; }
  OCCCALC_HOST_DEVICE constexpr bool empty() const noexcept { return size_ == 0; }
  OCCCALC_HOST_DEVICE constexpr const T* begin() const noexcept { return items_; }
  OCCCALC_HOST_DEVICE constexpr const T* end() const noexcept { return items_ + size_; }
  OCCCALC_HOST_DEVICE constexpr const T& operator[](std::size_t i) const noexcept { return items_[i]; }
  OCCCALC_HOST_DEVICE constexpr const T& back() const noexcept { return items_[size_ - 1]; }
  /// Appends `value`; `size() < capacity()` is a precondition.
  constexpr void push_back(const T& value) noexcept { items_[size_++] = value; }

  friend constexpr bool operator==(const fixed_list& a, const fixed_list& b) noexcept {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (!(a.items_[i] == b.items_[i])) return false;
    }
    return true;
  }
  friend constexpr bool operator!=(const fixed_list& a, const fixed_list& b) noexcept { return !(a == b); }

 private:
  T items_[Capacity]{};
  std::size_t size_ = 0;
};

}  // namespace occcalc
