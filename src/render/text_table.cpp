#include "render/text_table.hpp"

#include <algorithm>
#include <cctype>

#include "render/terminal.hpp"
#include "render/text_layout.hpp"

namespace occcalc::cli {

namespace {

/// The byte offsets at which each character of UTF-8 `text` starts.
std::vector<std::size_t> character_starts(std::string_view text) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  return starts;
}

/// Appends `text` to `out`, painted as `paint_as` when there is one.
void append_painted(std::string& out, std::string_view text, const std::optional<style>& paint_as, bool colour) {
  if (paint_as)
    out += paint(text, *paint_as, colour);
  else
    out += text;
}

/// Appends `cell` to `out`, padded with spaces to `width` columns.
void append_padded(std::string& out, const table_cell& cell, std::size_t width, bool right, bool colour) {
  const std::size_t used = display_width(cell.text);
  const std::size_t fill = width > used ? width - used : 0;
  if (right) out.append(fill, ' ');
  append_painted(out, cell.text, cell.paint_as, colour);
  if (!right) out.append(fill, ' ');
}

}  // namespace

std::string elide_middle(std::string_view text, std::size_t width, bool utf8) {
  if (text.size() <= width) return std::string(text);  // no more characters than bytes
  // Plain ASCII, as kernel names are: a character a byte, no offsets to find.
  const bool ascii = plain_ascii_prefix(text) == text.size();
  const auto starts = ascii ? std::vector<std::size_t>() : character_starts(text);
  const std::size_t characters = ascii ? text.size() : starts.size();
  const auto start = [&](std::size_t character) { return ascii ? character : starts[character]; };
  if (characters <= width) return std::string(text);
  const std::string_view ellipsis = utf8 ? "\u2026" : "...";
  const std::size_t marks = utf8 ? 1 : 3;
  if (width <= marks) return std::string(ellipsis.substr(0, width));
  const std::size_t keep = width - marks;
  const std::size_t head = (keep + 1) / 2;
  const std::size_t tail = keep - head;
  std::string out(text.substr(0, start(head)));
  out += ellipsis;
  if (tail > 0) out += text.substr(start(characters - tail));
  return out;
}

namespace {

/// Where a demangled name's unqualified name starts (`scale` in `void
/// demo::scale<double, 8>(double*, double)`): before its template arguments
/// and parameter list, the first `(` outside them. 0 when there is none.
std::size_t unqualified_start(std::string_view name) {
  int angle = 0;
  std::size_t paren = std::string_view::npos;
  for (std::size_t i = 0; i < name.size() && paren == std::string_view::npos; ++i) {
    if (name[i] == '<') ++angle;
    if (name[i] == '>' && angle > 0) --angle;
    if (name[i] == '(' && angle == 0) paren = i;
  }
  if (paren == std::string_view::npos || paren == 0) return 0;
  std::size_t i = paren;
  if (name[i - 1] == '>') {  // back over the template arguments
    int depth = 0;
    do {
      --i;
      if (name[i] == '>') ++depth;
      if (name[i] == '<') --depth;
    } while (i > 0 && depth > 0);
  }
  const auto identifier = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '~'; };
  while (i > 0 && identifier(name[i - 1])) --i;
  return i;
}

}  // namespace

std::string elide_symbol(std::string_view text, std::size_t width, bool utf8) {
  if (display_width(text) <= width) return std::string(text);
  const std::size_t start = plain_ascii_prefix(text) == text.size() ? unqualified_start(text) : 0;
  if (start == 0) return elide_middle(text, width, utf8);
  const std::string_view ellipsis = utf8 ? "\u2026" : "...";
  const std::size_t marks = utf8 ? 1 : 3;
  if (width <= marks) return elide_middle(text, width, utf8);
  const std::string_view tail = text.substr(start);
  return std::string(ellipsis) + elide_middle(tail, width - marks, utf8);
}

std::string format_table(const std::vector<table_column>& all_columns,
                         const std::vector<std::vector<table_cell>>& all_rows, const terminal& term,
                         const table_layout& layout) {
  std::vector<std::size_t> all_widths(all_columns.size());
  for (std::size_t c = 0; c < all_columns.size(); ++c) all_widths[c] = display_width(all_columns[c].header);
  for (const auto& row : all_rows) {
    for (std::size_t c = 0; c < all_columns.size() && c < row.size(); ++c) {
      all_widths[c] = std::max(all_widths[c], display_width(row[c].text));
    }
  }
  // Too wide: leave out the droppable columns, highest rank first.
  std::vector<bool> shown(all_columns.size(), true);
  const auto total = [&] {
    std::size_t width = layout.indent;
    for (std::size_t c = 0; c < all_columns.size(); ++c) width += shown[c] ? all_widths[c] + layout.gap : 0;
    return width;
  };
  while (total() > term.columns + layout.gap) {
    std::size_t drop = all_columns.size();
    for (std::size_t c = 0; c < all_columns.size(); ++c) {
      if (shown[c] && all_columns[c].drop > 0 &&
          (drop == all_columns.size() || all_columns[c].drop > all_columns[drop].drop))
        drop = c;
    }
    if (drop == all_columns.size()) break;
    shown[drop] = false;
  }
  std::vector<table_column> columns;
  std::vector<std::size_t> widths;
  for (std::size_t c = 0; c < all_columns.size(); ++c) {
    if (!shown[c]) continue;
    columns.push_back(all_columns[c]);
    widths.push_back(all_widths[c]);
  }
  const bool all_shown = columns.size() == all_columns.size();
  std::vector<std::vector<table_cell>> kept;
  if (!all_shown) {
    for (const auto& row : all_rows) {
      std::vector<table_cell> cells;
      for (std::size_t c = 0; c < row.size() && c < all_columns.size(); ++c) {
        if (shown[c]) cells.push_back(row[c]);
      }
      kept.push_back(std::move(cells));
    }
  }
  const auto& rows = all_shown ? all_rows : kept;
  std::size_t last_width = widths.empty() ? 0 : widths.back();
  if (layout.elide_last && !widths.empty()) {
    std::size_t before = layout.indent;
    for (std::size_t c = 0; c + 1 < widths.size(); ++c) before += widths[c] + layout.gap;
    const std::size_t room = term.columns > before ? term.columns - before : 0;
    last_width = std::min(last_width, std::max(room, layout.min_last_width));
  }
  const table_cell empty;
  // Each line is appended to `out` in place (a library's table has 40,000
  // of them): its cells, padded, then its trailing spaces cut.
  const auto append_line = [&](std::string& out, const std::vector<table_cell>& cells, bool header) {
    const std::size_t start = out.size();
    out.append(layout.indent, ' ');
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const table_cell& cell = c < cells.size() ? cells[c] : empty;
      if (c + 1 < columns.size() || (columns[c].right_aligned && !layout.elide_last)) {
        append_padded(out, cell, widths[c], columns[c].right_aligned, term.colour && !header);
        out.append(layout.gap, ' ');
        continue;
      }
      // The last column: cut to fit, never padded. A text of no more bytes
      // than columns fits as it is, and is not copied to be cut.
      if (layout.elide_last && cell.text.size() > last_width)
        append_painted(out, elide_symbol(cell.text, last_width, term.utf8), cell.paint_as, term.colour);
      else
        append_painted(out, cell.text, cell.paint_as, term.colour);
    }
    trim_end(out, start);
  };
  std::vector<table_cell> header;
  for (const auto& column : columns) header.push_back({std::string(column.header), std::nullopt});
  std::string header_line;
  append_line(header_line, header, true);
  std::string text = paint(header_line, style::dim, term.colour) + "\n";  // the newline outside the escape codes
  for (const auto& row : rows) {
    append_line(text, row, false);
    text += '\n';
  }
  return text;
}

}  // namespace occcalc::cli
