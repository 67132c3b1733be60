// Line by line through the text inputs (compiler logs, PTX, AMD assembly and
// remarks), each line bounded: a line longer than `max_log_line_bytes` is an
// error, found without searching past the limit.
#pragma once

#include <cstddef>
#include <string_view>

#include <fmt/format.h>

#include "builds/readers/budgets.hpp"
#include "builds/readers/bytes.hpp"

namespace occcalc::inspect {

inline bool starts_with(std::string_view text, std::string_view prefix) noexcept {
  return text.substr(0, prefix.size()) == prefix;
}

/// Where the line at `at` ends: its newline, the end of `text`, or npos when
/// it is longer than `max_log_line_bytes`.
inline std::size_t line_end(std::string_view text, std::size_t at) noexcept {
  const std::string_view window = text.substr(at, max_log_line_bytes + 1);
  const auto newline = window.find('\n');
  if (newline != std::string_view::npos) return at + newline;
  return window.size() <= max_log_line_bytes ? text.size() : std::string_view::npos;
}

/// Calls `visit(line, number)` for every line of `text`, numbered from 1,
/// without its newline. A line past the bound throws `format_error`:
/// `line N is longer than M bytes` followed by `why`.
template <typename Visit>
void for_each_line(std::string_view text, std::string_view why, Visit&& visit) {
  std::size_t number = 0;
  for (std::size_t at = 0; at < text.size();) {
    const auto end = line_end(text, at);
    ++number;
    if (end == std::string_view::npos) {
      throw format_error(fmt::format("line {} is longer than {} bytes{}", number, max_log_line_bytes, why));
    }
    visit(text.substr(at, end - at), number);
    at = end + 1;
  }
}

}  // namespace occcalc::inspect
