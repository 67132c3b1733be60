#include "render/text_layout.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "occcalc/request/parse.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

std::string row(std::string_view label, std::string_view value, std::string_view note, std::size_t columns) {
  // The label padded to its column by hand, not by a format string with a
  // dynamic width: this runs for every row of every answer.
  constexpr std::size_t indent = 2;
  constexpr auto label_columns = static_cast<std::size_t>(label_width);
  // Narrower than the label column, the value and a note: each on lines of
  // its own under the label, so nothing runs past the width.
  constexpr std::size_t narrow_indent = 4;
  constexpr std::size_t min_note_columns = 24;
  const auto longest_word = [](std::string_view text) {
    std::size_t longest = 0;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t end = std::min(text.find(' ', at), text.size());
      longest = std::max(longest, end - at);
      at = end + 1;
    }
    return longest;
  };
  const std::size_t note_room = columns > label_columns + 2 ? columns - label_columns - 2 : 0;
  if (indent + label_columns + display_width(value) > columns ||
      (!note.empty() && (note_room < min_note_columns || longest_word(note) > note_room))) {
    std::string text(indent, ' ');
    text.append(label) += '\n';
    text.append(narrow_indent, ' ').append(value);
    trim_end(text);
    text += '\n';
    if (!note.empty()) text += wrap(note, narrow_indent, columns > narrow_indent ? columns - narrow_indent : 1);
    return text;
  }
  std::string line;
  line.reserve(indent + label_columns + value.size() + 2 + note.size() + 1);
  line.append(indent, ' ').append(label);
  const std::size_t used = display_width(label);
  if (used < label_columns) line.append(label_columns - used, ' ');
  line.append(value);
  if (note.empty()) {
    line += '\n';
    return line;
  }
  if (display_width(line) + 2 + display_width(note) <= columns) {
    line.append("  ").append(note) += '\n';
    return line;
  }
  constexpr std::size_t value_column = label_width + 2;
  trim_end(line);
  return line + "\n" + wrap(note, value_column, columns > value_column ? columns - value_column : 1);
}

std::string counted(std::int64_t n, std::string_view singular, std::string_view plural) {
  return fmt::format("{} {}", n, n == 1 ? singular : plural);
}

style occupancy_style(bool runs, double percent) {
  constexpr double half = 50.0;
  return !runs ? style::bad : percent >= half ? style::good : style::warn;
}

std::string occupancy_line(double percent, style level, std::string_view limiters, const terminal& term) {
  constexpr std::string_view label = "Theoretical occupancy";
  const std::string figure = fmt::format("{:.1f}%", percent);
  std::string line = paint(label, style::bold, term.colour);
  line.append(static_cast<std::size_t>(label_width) + 2 - label.size(), ' ');
  line += paint(figure, level, term.colour);
  const std::string limited = "limited by " + std::string(limiters);
  const std::size_t width = static_cast<std::size_t>(label_width) + 2 + figure.size() + 2 + limited.size();
  if (width <= term.columns) return line + "  " + limited + "\n";
  return line + "\n" + wrap(limited, 2, term.columns > 2 ? term.columns - 2 : 1);
}

std::string heading(std::string_view text, const terminal& term) {
  std::string out;
  for (const auto& line : wrap_lines(text, term.columns, term.columns)) {
    out += paint(line, style::bold, term.colour) + "\n";
  }
  return out;
}

std::vector<std::string> wrap_lines(std::string_view text, std::size_t first_width, std::size_t width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t line_columns = 0;  // display_width(line), kept as words are added
  while (!text.empty()) {
    const auto space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    if (word.empty()) continue;
    const std::size_t room = std::max<std::size_t>(lines.empty() ? first_width : width, 1);
    const std::size_t word_columns = display_width(word);
    if (!line.empty() && line_columns + 1 + word_columns > room) {
      lines.push_back(std::move(line));
      line.clear();
      line_columns = 0;
    }
    if (!line.empty()) {
      line += ' ';
      ++line_columns;
    }
    line += word;
    line_columns += word_columns;
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

std::string wrap(std::string_view text, std::size_t indent, std::size_t width) {
  return wrap_hanging(text, indent, indent, indent + width);
}

std::string wrap_hanging(std::string_view text, std::size_t first_indent, std::size_t indent, std::size_t columns) {
  const auto room = [&](std::size_t used) { return columns > used ? columns - used : 1; };
  std::string out;
  std::size_t line_indent = first_indent;
  for (const auto& line : wrap_lines(text, room(first_indent), room(indent))) {
    out.append(line_indent, ' ').append(line) += '\n';
    line_indent = indent;
  }
  return out;
}

std::string labelled(std::string_view label, style s, std::string_view text, std::size_t indent,
                     std::size_t continuation, const terminal& term) {
  const std::string wrapped = wrap_hanging(text, indent, continuation, term.columns);
  const std::size_t pad = indent > label.size() ? indent - label.size() : 1;
  return paint(label, s, term.colour) + std::string(pad, ' ') + (wrapped.empty() ? "\n" : wrapped.substr(indent));
}

void trim_end(std::string& line, std::size_t from) {
  while (line.size() > from && line.back() == ' ') line.pop_back();
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
