#include "render/text_layout.hpp"

#include <fmt/format.h>

#include "occcalc/request/parse.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

std::string row(std::string_view label, std::string_view value, std::string_view note, std::size_t columns) {
  std::string line = fmt::format("  {:<{}}{}", label, label_width, value);
  if (note.empty()) return line + "\n";
  if (display_width(line) + 2 + display_width(note) <= columns) return line + "  " + std::string(note) + "\n";
  constexpr std::size_t value_column = label_width + 2;
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + "\n" + wrap(note, value_column, columns > value_column ? columns - value_column : 1);
}

std::string counted(std::int64_t n, std::string_view singular, std::string_view plural) {
  return fmt::format("{} {}", n, n == 1 ? singular : plural);
}

style occupancy_style(bool runs, double percent) {
  constexpr double half = 50.0;
  return !runs ? style::bad : percent >= half ? style::good : style::warn;
}

std::string heading(std::string_view text, const terminal& term) {
  std::string out;
  const std::string lines = wrap(text, 0, term.columns);
  for (std::size_t at = 0; at < lines.size();) {
    const auto end = lines.find('\n', at);
    out += paint(std::string_view(lines).substr(at, end - at), style::bold, term.colour) + "\n";
    at = end + 1;
  }
  return out;
}

std::string wrap(std::string_view text, std::size_t indent, std::size_t width) {
  return wrap_hanging(text, indent, indent, indent + width);
}

std::string wrap_hanging(std::string_view text, std::size_t first_indent, std::size_t indent, std::size_t columns) {
  std::string out;
  std::string line;
  std::size_t line_indent = first_indent;
  const auto width = [&] { return columns > line_indent ? columns - line_indent : 1; };
  const auto flush = [&] {
    out += std::string(line_indent, ' ') + line + "\n";
    line.clear();
    line_indent = indent;
  };
  while (!text.empty()) {
    const auto space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    if (word.empty()) continue;
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width()) flush();
    if (!line.empty()) line += ' ';
    line += word;
  }
  if (!line.empty()) flush();
  return out;
}

std::string bytes_text(std::int64_t bytes) {
  if (bytes >= occcalc::bytes_per_kib && bytes % occcalc::bytes_per_kib == 0) {
    return fmt::format("{} B ({} KiB)", bytes, bytes / occcalc::bytes_per_kib);
  }
  return fmt::format("{} B", bytes);
}

std::string device_text(std::int64_t count, std::string_view units, const std::string* gpu_name, bool count_given) {
  if (gpu_name == nullptr) return fmt::format("{} {}", count, units);
  return count_given ? fmt::format("{} {} of {} (--sm-count)", count, units, *gpu_name) : *gpu_name;
}

}  // namespace occcalc::cli
