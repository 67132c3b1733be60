// Output of `occcalc inspect`: a table, JSON (an array of per-kernel
// records) or CSV.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "analysis/kernel_report.hpp"
#include "render/formats.hpp"

namespace occcalc::cli {

/// The table: one row per kernel, grouped by input, then why some kernels
/// have no occupancy.
void render_inspect_text(std::ostream& out, const std::vector<input_report>& inputs, const terminal& term);

/// A JSON array with one object per kernel (schema/inspect.schema.json).
void render_inspect_json(std::ostream& out, const std::vector<input_report>& inputs);

/// CSV with a header row, one row per kernel (RFC 4180 quoting).
void render_inspect_csv(std::ostream& out, const std::vector<input_report>& inputs);

/// `256x1x1`.
/// How `inspect` prints its reports in one format.
using inspect_render = void (*)(std::ostream& out, const std::vector<input_report>& inputs, const terminal& term);

/// inspect's formats: text (a table per input), json (schema/inspect.schema.json), csv.
extern const std::array<format_renderer<inspect_render>, 3> inspect_renderers;

std::string dim3_text(const inspect::dim3& d);

/// `62.5%`, or `-` without a result.
std::string occupancy_text(const std::optional<occcalc::occupancy_summary>& summary);

}  // namespace occcalc::cli
