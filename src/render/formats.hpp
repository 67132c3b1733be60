// The output formats: one row each, so a command's `--format` choices, its
// messages and its renderers all read one table. Adding a format is a row
// here, a renderer in the command's render file, and the format in the
// command's choices (its renderer table, or its row in cli/app.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "render/terminal.hpp"

namespace occcalc::cli {

enum class output_format { text, json, csv, github, sarif, markdown };

struct output_format_info {
  output_format id;
  /// As `--format` and messages spell it.
  std::string_view name;
  /// For programs: never coloured, never wrapped.
  bool machine;
};

inline constexpr std::array<output_format_info, 6> output_formats = {{
    {output_format::text, "text", false},
    {output_format::json, "json", true},
    {output_format::csv, "csv", true},
    {output_format::github, "github", true},
    {output_format::sarif, "sarif", true},
    {output_format::markdown, "markdown", true},
}};

/// The format named `name` exactly, if any.
constexpr std::optional<output_format> find_output_format(std::string_view name) noexcept {
  for (const auto& f : output_formats) {
    if (f.name == name) return f.id;
  }
  return std::nullopt;
}

constexpr const output_format_info& info(output_format f) noexcept {
  return output_formats[static_cast<std::size_t>(f)];
}

/// What output in `format` may use: a machine format is never coloured or
/// fitted to a width.
inline terminal terminal_for(const terminal& term, output_format format) noexcept {
  if (!info(format).machine) return term;
  return {false, term.utf8, std::numeric_limits<std::size_t>::max()};
}

/// A command's renderer for one format: `Render` is its function type.
template <typename Render>
struct format_renderer {
  output_format format;
  Render render;
};

/// The renderer `table` holds for `format`, or null when the command does
/// not print that format.
template <typename Render, std::size_t N>
constexpr Render find_renderer(const std::array<format_renderer<Render>, N>& table, output_format format) noexcept {
  for (const auto& row : table) {
    if (row.format == format) return row.render;
  }
  return nullptr;
}

/// The formats a command prints, its default first: what its `--format`
/// takes, its help says and its messages name, from one list (its renderer
/// table's formats, where it has one).
class format_choices {
 public:
  constexpr format_choices(std::initializer_list<output_format> formats) noexcept {
    for (const auto f : formats) formats_[count_++] = f;
  }
  template <typename Render, std::size_t N>
  explicit constexpr format_choices(const std::array<format_renderer<Render>, N>& table) noexcept {
    for (const auto& row : table) formats_[count_++] = row.format;
  }

  constexpr bool contains(output_format f) const noexcept {
    for (std::size_t i = 0; i < count_; ++i) {
      if (formats_[i] == f) return true;
    }
    return false;
  }
  constexpr output_format default_format() const noexcept { return formats_[0]; }
  constexpr std::size_t size() const noexcept { return count_; }

  /// For messages: `text, json or csv`; for help, with `(default)` after
  /// the default where there is a choice.
  std::string names(bool mark_default = false) const {
    std::string out;
    for (std::size_t i = 0; i < count_; ++i) {
      if (i > 0) out += i + 1 == count_ ? " or " : ", ";
      out += info(formats_[i]).name;
      if (mark_default && i == 0 && count_ > 1) out += " (default)";
    }
    return out;
  }

 private:
  std::array<output_format, output_formats.size()> formats_{};
  std::size_t count_ = 0;
};

/// The formats `table` prints, for messages: `text, json or csv`.
template <typename Render, std::size_t N>
std::string format_names(const std::array<format_renderer<Render>, N>& table) {
  return format_choices(table).names();
}

}  // namespace occcalc::cli
