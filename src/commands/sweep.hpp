// `occcalc sweep`: occupancy as one launch figure varies, as a chart in the
// terminal, CSV, JSON, or an SVG with the spreadsheet's three charts.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "commands/exit_status.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/request/request.hpp"

#include "render/terminal.hpp"

namespace occcalc::cli {

/// `--vary cluster`: the cluster size, on one device (not a figure of the
/// launch, so not a row of the sweep tables).
inline constexpr std::string_view cluster_variable = "cluster";

/// What `--vary` takes, from the sweep tables, for help and messages:
/// `threads, regs, smem, barriers or cluster (AMD: threads, vgprs, sgprs,
/// lds or agprs)`.
std::string vary_choices();

/// What `sweep` was asked, beyond the usual kernel flags.
struct sweep_options {
  /// One of `vary_choices()`.
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
