// `occcalc sweep`: occupancy as one launch figure varies, as a chart in the
// terminal, CSV, JSON, or an SVG with the spreadsheet's three charts.
#pragma once

#include <iosfwd>
#include <string>

#include "commands/exit_status.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/request/request.hpp"

#include "render/terminal.hpp"

namespace occcalc::cli {

/// What `sweep` was asked, beyond the usual kernel flags.
struct sweep_options {
  /// threads, regs, smem or barriers.
  std::string vary;
  /// The range, as typed; empty for the figure's default.
  std::string from, to, step;
  bool csv = false;
  bool ascii = false;
  /// Also write the three charts as SVG to this file.
  std::string svg_file;
};

/// Runs `sweep`; throws `input_error` for bad input and `occcalc::error`
/// when the SVG file cannot be written.
exit_status run_sweep(const occcalc::table& tables, const occcalc::request& request, const sweep_options& options,
                      bool json, std::ostream& out, const terminal& term);

}  // namespace occcalc::cli
