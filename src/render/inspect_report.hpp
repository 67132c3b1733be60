// Output of `occcalc inspect`: a table, JSON (an array of per-kernel
// records) or CSV.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "builds/kernel_report.hpp"
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

/// Prints inspect's reports in one format as they are read (a
/// `report_sink`), then, at `finish`, what follows the last. JSON (an
/// object per kernel, schema/inspect.schema.json) and CSV (a header row,
/// then a row per kernel) write each run as it comes. The text table gives
/// each input a table that fits `term.columns` (optional columns give way,
/// then the middle of long kernel names, unless `view.wide`), then why some
/// kernels have no occupancy: it is laid out over all the input's rows, so
/// it keeps their cells until the input's last.
class inspect_printer : public report_sink {
 public:
  virtual void finish() = 0;
};

/// Makes the printer of one format, writing to `out` with up to `workers`
/// threads; `inputs`, the paths given, are what JSON records its files'
/// paths relative to.
using inspect_render = std::unique_ptr<inspect_printer> (*)(std::ostream& out, const terminal& term,
                                                            const inspect_table_options& view, unsigned workers,
                                                            const std::vector<std::string>& inputs);

/// inspect's formats: text, json and csv.
extern const std::array<format_renderer<inspect_render>, 3> inspect_renderers;

/// `62.5%`, or `-` without a result.
std::string occupancy_text(const std::optional<occcalc::occupancy_summary>& summary);

}  // namespace occcalc::cli
