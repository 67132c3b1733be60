#include "render/text_table.hpp"

#include <algorithm>

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

std::string format_table(const std::vector<table_column>& columns, const std::vector<std::vector<table_cell>>& rows,
                         const terminal& term, const table_layout& layout) {
  std::vector<std::size_t> widths(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) widths[c] = display_width(columns[c].header);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < columns.size() && c < row.size(); ++c) {
      widths[c] = std::max(widths[c], display_width(row[c].text));
    }
  }
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
      if (c + 1 < columns.size()) {
        append_padded(out, cell, widths[c], columns[c].right_aligned, term.colour && !header);
        out.append(layout.gap, ' ');
        continue;
      }
      // The last column: cut to fit, never padded. A text of no more bytes
      // than columns fits as it is, and is not copied to be cut.
      if (layout.elide_last && cell.text.size() > last_width)
        append_painted(out, elide_middle(cell.text, last_width, term.utf8), cell.paint_as, term.colour);
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
