// A text's characters for a parser that never reads back, handing each
// window it has gone past to a callback: a mapped file gives those pages
// back, so a saved baseline is read through a window, not held whole.
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <string_view>

namespace occcalc::cli {

/// The text's characters for the parser, handing each window of
/// `window_bytes` it has gone past to `passed`: the parser never reads back.
class passing_chars {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  static constexpr std::size_t window_bytes = std::size_t{16} << 20;

  passing_chars(const char* at, const std::function<void(std::string_view)>* passed)
      : at_(at), window_(at), next_(passed != nullptr && *passed ? at + window_bytes : nullptr), passed_(passed) {}
  reference operator*() const noexcept { return *at_; }
  passing_chars& operator++() {
    if (++at_ == next_) {
      (*passed_)(std::string_view(window_, static_cast<std::size_t>(at_ - window_)));
      window_ = at_;
      next_ = at_ + window_bytes;
    }
    return *this;
  }
  passing_chars operator++(int) {
    passing_chars was = *this;
    ++*this;
    return was;
  }
  bool operator==(const passing_chars& o) const noexcept { return at_ == o.at_; }
  bool operator!=(const passing_chars& o) const noexcept { return at_ != o.at_; }

 private:
  const char* at_;
  const char* window_;
  const char* next_;
  const std::function<void(std::string_view)>* passed_;
};

}  // namespace occcalc::cli
