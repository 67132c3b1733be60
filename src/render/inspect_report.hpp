// Output of `occcalc inspect`: a table, JSON (an array of per-kernel
// records) or CSV.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/kernel_report.hpp"
#include "render/formats.hpp"

namespace occcalc::cli {

/// Which columns the inspect table shows.
struct inspect_table_options {
  /// Every column, kernel names whole (--wide).
  bool wide = false;
  /// Exactly these columns, in this order (--columns); empty: the ones that
  /// matter, then more as the width allows.
  std::vector<std::string> columns;
};

/// The column ids --columns takes, for messages: `arch, regs, ...`.
std::string inspect_column_ids();
bool is_inspect_column(std::string_view id);

/// The table: one row per kernel, grouped by input, then why some kernels
/// have no occupancy. Fits `term.columns`: optional columns give way, then
/// the middle of long kernel names (unless `view.wide`).
void render_inspect_text(std::ostream& out, const std::vector<input_report>& inputs, const terminal& term,
                         const inspect_table_options& view);

/// A JSON array with one object per kernel (schema/inspect.schema.json).
void render_inspect_json(std::ostream& out, const std::vector<input_report>& inputs);

/// CSV with a header row, one row per kernel (RFC 4180 quoting).
void render_inspect_csv(std::ostream& out, const std::vector<input_report>& inputs);

/// `256x1x1`.
/// How `inspect` prints its reports in one format.
using inspect_render = void (*)(std::ostream& out, const std::vector<input_report>& inputs, const terminal& term,
                                const inspect_table_options& view);

/// inspect's formats: text (a table per input), json (schema/inspect.schema.json), csv.
extern const std::array<format_renderer<inspect_render>, 3> inspect_renderers;

std::string dim3_text(const inspect::dim3& d);

/// `62.5%`, or `-` without a result.
std::string occupancy_text(const std::optional<occcalc::occupancy_summary>& summary);

}  // namespace occcalc::cli
