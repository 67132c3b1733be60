// The inspect table's columns: what each shows, for which vendor's
// kernels, and which of them a line of the terminal's width shows.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "builds/kernel_report.hpp"
#include "occcalc/common/summary.hpp"
#include "render/inspect_report.hpp"
#include "render/terminal.hpp"
#include "render/text_table.hpp"

namespace occcalc::cli {

enum class column_vendor { any, nvidia, amd };

/// One column of the inspect table. The array's order is the line's order.
struct inspect_column {
  std::string_view id;
  std::string_view header;
  bool right_aligned;
  /// 0: shown by default; else added, lowest first, while the width allows.
  int priority;
  /// Columns only one vendor's kernels have.
  column_vendor vendor;
  table_cell (*cell)(const kernel_report& r, const std::optional<occcalc::occupancy_summary>& s);
  /// Shown whatever the width when a kernel's cell is one to act on (a
  /// spill); null for a column that never is.
  bool (*notable)(const kernel_report& r);
};

using summary_t = std::optional<occcalc::occupancy_summary>;

/// Every column, in the line's order.
extern const inspect_column inspect_columns[];
extern const std::size_t inspect_column_count;

/// The narrowest a kernel name is cut to before optional columns give way.
/// Indices into `candidates` of the columns to show: those `--columns`
/// names; every one with `--wide`; else the default ones and the `notable`
/// ones (a kernel spills), then the optional ones by priority while the
/// line fits the terminal with the kernel name at least
/// `min_kernel_columns` wide (or whole, when shorter).
std::vector<std::size_t> shown_columns(const std::vector<const inspect_column*>& candidates,
                                       const std::vector<std::size_t>& widths, const std::vector<bool>& notable,
                                       const inspect_table_options& view, const terminal& term);

}  // namespace occcalc::cli
