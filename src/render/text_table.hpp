// A text table laid out from its content: each column as wide as its
// widest cell, the last column cut in the middle to fit the terminal.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "render/terminal.hpp"

namespace occcalc::cli {

struct table_column {
  table_column(std::string_view column_header, bool right = false, int drop_rank = 0)  // NOLINT: implicit
      : header(column_header), right_aligned(right), drop(drop_rank) {}
  std::string_view header;
  bool right_aligned = false;
  /// Where the table is wider than the terminal, the columns it leaves out,
  /// highest rank first; 0: always shown.
  int drop = 0;
};

/// One cell: plain text, and the style to paint it in when colour is on.
struct table_cell {
  table_cell() = default;
  table_cell(std::string cell_text, std::optional<style> style_to_paint = std::nullopt)  // NOLINT: implicit
      : text(std::move(cell_text)), paint_as(style_to_paint) {}
  std::string text;
  std::optional<style> paint_as;
};

/// What a table may do to fit the width.
struct table_layout {
  /// Spaces before each line.
  std::size_t indent = 2;
  /// Spaces between columns.
  std::size_t gap = 1;
  /// Shorten the last column's cells, symbols, so that every line fits
  /// `terminal::columns` (never below `min_last_width`): `elide_symbol`.
  bool elide_last = false;
  std::size_t min_last_width = 10;
};

/// The header (dimmed) and the rows, each line ended by a newline.
std::string format_table(const std::vector<table_column>& columns, const std::vector<std::vector<table_cell>>& rows,
                         const terminal& term, const table_layout& layout);

/// `text` cut to `width` columns by replacing its middle with an ellipsis
/// (`…` in UTF-8, else `...`); unchanged when it fits.
std::string elide_middle(std::string_view text, std::size_t width, bool utf8);

/// A kernel name cut to `width` columns keeping what tells kernels apart:
/// the return type and qualifiers go first (`…scale<double, 8>(double*,
/// double)` for `void demo::scale<double, 8>(double*, double)`), then the
/// middle of what is left (`elide_middle`); unchanged when it fits.
std::string elide_symbol(std::string_view text, std::size_t width, bool utf8);

}  // namespace occcalc::cli
